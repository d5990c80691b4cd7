//! Tests for filter.
