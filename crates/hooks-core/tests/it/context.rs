//! Tests for context.
