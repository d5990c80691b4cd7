//! Tests for aggregate.
