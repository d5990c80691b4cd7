//! Tests for matcher.
