//! `hooks otel-flush` (hidden): the detached exporter that `hooks bridge` and `hooks run`
//! start when export is on; it posts the spooled records (`hooks::telemetry`).

use std::io::{IsTerminal, Read};

use anyhow::Result;
use hooks::telemetry::{self, OtlpConfig, Spool};

/// Posts the user's spool to the collector of the configuration the starting process hands
/// over on stdin (its config's `telemetry` settings and its `OTEL_*` variables, resolved),
/// else of this environment's `OTEL_*` variables, until it stays empty (see
/// [`telemetry::run_exporter`]); exit 0 when another exporter runs or export is off, 1 when
/// a post failed (the records stay spooled).
pub fn flush() -> Result<u8> {
    let config = match handed_over() {
        Some(config) => Some(config),
        None => OtlpConfig::from_env()?,
    };
    let (Some(config), Some(spool)) = (config, Spool::user()) else {
        return Ok(0);
    };
    Ok(match telemetry::run_exporter(&spool, &config) {
        Some(report) if report.failed() => 1,
        _ => 0,
    })
}

/// The configuration on stdin, when a process that started this one wrote it there (never
/// read from a terminal).
fn handed_over() -> Option<OtlpConfig> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return None;
    }
    let mut text = Vec::new();
    stdin.lock().take(1 << 20).read_to_end(&mut text).ok()?;
    serde_json::from_slice(&text).ok()
}
