//! `hooks validate [FILE]... [-c FILE]... [--json]`: loads the configs as `hooks run` would and reports
//! every problem of every file at once, each as `file:line:col: error: ...` with the source
//! line and a hint.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
use hooks::config::{Diagnostic, Severity};
use serde_json::{Value, json};

use super::render::{Style, plural};
use crate::cli::{ConfigArgs, ValidateArgs};

mod checks;

/// What validating found.
#[derive(Debug, Default)]
struct Report {
    /// The files loaded (only when every file loaded).
    files: Vec<Value>,
    /// How many hooks the files define, in all.
    hooks: usize,
    /// Errors and warnings, in the order found.
    diagnostics: Vec<Diagnostic>,
    /// Problems that are not about one config (an executor that cannot be built).
    other_errors: Vec<String>,
}

impl Report {
    fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count() + self.other_errors.len()
    }

    fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| !d.is_error()).count()
    }
}

/// Validates; exit 0 when every file loads (warnings are printed, and do not fail), 1 when
/// any has an error.
pub fn run(args: &ValidateArgs) -> Result<u8> {
    let config = ConfigArgs {
        config: args
            .config
            .config
            .iter()
            .chain(&args.files)
            .cloned()
            .collect(),
        ..args.config.clone()
    };
    let args = &ValidateArgs {
        files: Vec::new(),
        config,
        json: args.json,
    };
    let report = match super::engine(&args.config) {
        Ok(engine) => {
            let loaded = engine.loaded();
            if !loaded.broken.is_empty() {
                // What `hooks run` skips or blocks on is an error here, with every problem.
                return finish(
                    args,
                    &Report {
                        diagnostics: loaded
                            .broken
                            .iter()
                            .flat_map(|b| b.error.diagnostics().iter().cloned())
                            .collect(),
                        ..Report::default()
                    },
                );
            }
            let mut diagnostics = super::render::warnings(&loaded);
            diagnostics.extend(checks::warnings(
                &loaded,
                &super::project_dir(&args.config)?,
            ));
            Report {
                files: loaded.files.iter().map(super::list::file_json).collect(),
                hooks: loaded.hooks.hooks().len(),
                diagnostics,
                other_errors: Vec::new(),
            }
        }
        Err(e) => match e.downcast::<hooks::Error>() {
            Ok(hooks::Error::Config(e)) => Report {
                diagnostics: e.diagnostics().to_vec(),
                ..Report::default()
            },
            Ok(other) => Report {
                other_errors: vec![other.to_string()],
                ..Report::default()
            },
            // Not a config problem (the current directory is unreadable, say).
            Err(other) => return Err(other),
        },
    };
    finish(args, &report)
}

/// Prints `report`; its exit code.
fn finish(args: &ValidateArgs, report: &Report) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&to_json(report))?)?;
    } else {
        write!(out, "{}", human(Style::stdout(), report))?;
    }
    Ok(if report.errors() > 0 { 1 } else { 0 })
}

/// A diagnostic kind as a snake_case word (`unknown_key`).
fn kind_name(d: &Diagnostic) -> String {
    let debug = format!("{:?}", d.kind);
    let mut out = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// One diagnostic as JSON (documented in `docs/cli.md`).
pub fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({
        "severity": match d.severity {
            Severity::Error => "error",
            _ => "warning",
        },
        "kind": kind_name(d),
        "file": d.file.as_ref().map(|p| p.display().to_string()),
        "line": d.line,
        "column": d.column,
        "message": d.message,
        "hint": d.hint,
        "rendered": d.to_string(),
    })
}

fn to_json(report: &Report) -> Value {
    let mut diagnostics: Vec<Value> = report.diagnostics.iter().map(diagnostic_json).collect();
    diagnostics.extend(report.other_errors.iter().map(|message| {
        json!({
            "severity": "error", "kind": "engine", "file": null, "line": null,
            "column": null, "message": message, "hint": null, "rendered": format!("error: {message}"),
        })
    }));
    json!({
        "valid": report.errors() == 0,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "files": report.files,
        "hooks": report.hooks,
        "diagnostics": diagnostics,
    })
}

fn human(style: Style, report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let text = d.to_string();
        let (head, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let head = if d.is_error() {
            style.red(head)
        } else {
            style.yellow(head)
        };
        let _ = writeln!(out, "{head}");
        if !rest.is_empty() {
            let _ = writeln!(out, "{rest}");
        }
    }
    for message in &report.other_errors {
        let _ = writeln!(out, "{}", style.red(&format!("error: {message}")));
    }
    let (errors, warnings) = (report.errors(), report.warnings());
    if errors > 0 {
        let _ = writeln!(
            out,
            "{}",
            style.red(&format!(
                "invalid: {errors} error{}, {warnings} warning{}",
                plural(errors),
                plural(warnings)
            ))
        );
    } else if report.files.is_empty() {
        let _ = writeln!(out, "no config files found");
    } else {
        let _ = writeln!(
            out,
            "{}",
            style.green(&format!(
                "valid: {} file{}, {} hook{}, {warnings} warning{}",
                report.files.len(),
                plural(report.files.len()),
                report.hooks,
                plural(report.hooks),
                plural(warnings)
            ))
        );
    }
    out
}
