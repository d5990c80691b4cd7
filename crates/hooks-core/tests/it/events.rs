//! Tests for events.
