//! `hooks otel-flush` (hidden): the detached exporter that `hooks bridge` and `hooks run`
//! start when export is on; it posts the spooled records (`hooks::telemetry`).

use anyhow::Result;
use hooks::telemetry::{self, OtlpConfig, Spool};

/// Posts the user's spool to the collector of this environment's `OTEL_*` variables, until
/// it stays empty (see [`telemetry::run_exporter`]); exit 0 when another exporter runs or
/// export is off, 1 when a post failed (the records stay spooled).
pub fn flush() -> Result<u8> {
    let (Some(config), Some(spool)) = (OtlpConfig::from_env()?, Spool::user()) else {
        return Ok(0);
    };
    Ok(match telemetry::run_exporter(&spool, &config) {
        Some(report) if report.failed() => 1,
        _ => 0,
    })
}
