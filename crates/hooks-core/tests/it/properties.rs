//! Tests for properties.
