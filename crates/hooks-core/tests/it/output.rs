//! Tests for output.
