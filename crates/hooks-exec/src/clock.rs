//! Wall-clock timestamps for audit lines, notifications and the dispatch time echo-agent
//! hooks get as `timestamp`.

use std::time::SystemTime;

/// Now, as RFC 3339 UTC with milliseconds (`2026-01-02T03:04:05.678Z`).
pub(crate) fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}
