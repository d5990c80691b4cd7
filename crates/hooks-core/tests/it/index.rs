//! Tests for index.
