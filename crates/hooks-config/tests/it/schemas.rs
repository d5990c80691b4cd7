//! The generated JSON Schemas: committed files are fresh, and every example config
//! validates against its dialect's schema (and bad ones do not).

use std::path::{Path, PathBuf};

use hooks_config::core::Dialect;
use hooks_config::{load_file, parse_value, schema_files};
use serde_json::Value;

use crate::support::{examples, options};

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

#[test]
fn committed_schemas_are_fresh() {
    let dir = schemas_dir();
    let mut stale = Vec::new();
    for file in schema_files() {
        let path = dir.join(file.name);
        match std::fs::read_to_string(&path) {
            Ok(text) if text == file.text => {}
            _ => stale.push(file.name),
        }
    }
    let expected: Vec<&str> = schema_files().iter().map(|f| f.name).collect();
    let extra: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".schema.json") && !expected.contains(&n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "schemas/ is stale (out of date: {stale:?}, not generated: {extra:?}): run `cargo xtask codegen`"
    );
}

#[test]
fn generated_schemas_are_stable_and_marked() {
    for file in schema_files() {
        assert_eq!(
            file.text,
            schema_files()
                .into_iter()
                .find(|f| f.name == file.name)
                .unwrap()
                .text
        );
        let value: Value = serde_json::from_str(&file.text).unwrap();
        assert!(value["$comment"].as_str().unwrap().contains("do not edit"));
        assert!(value["title"].is_string(), "{}", file.name);
    }
}

fn validator(dialect: Dialect) -> jsonschema::Validator {
    let name = format!("{}.schema.json", dialect.as_str());
    let file = schema_files().into_iter().find(|f| f.name == name).unwrap();
    let schema: Value = serde_json::from_str(&file.text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn config_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            config_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| ["yaml", "yml", "toml", "json", "md"].contains(&e.to_str().unwrap()))
        {
            out.push(path);
        }
    }
}

#[test]
fn every_example_config_validates_against_its_schema() {
    let mut files = Vec::new();
    config_files(&examples(), &mut files);
    files.sort();
    assert!(files.len() >= 13, "{files:?}");
    for path in files {
        let dialect = load_file(&path, &options()).unwrap().dialect;
        let text = std::fs::read_to_string(&path).unwrap();
        let value = parse_value(&text, Some(&path), None).unwrap();
        let errors: Vec<String> = validator(dialect)
            .iter_errors(&value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{} ({dialect}): {errors:?}",
            path.display()
        );
    }
}

#[test]
fn the_schemas_reject_what_the_loaders_reject() {
    let cases = [
        (
            Dialect::Native,
            "hooks.yaml",
            "hooks:\n  - event: Stop\n    command: a\n    timout: 5\n",
        ),
        (Dialect::Fabro, "run.toml", "version = 1\n"),
        (
            Dialect::Fabro,
            "run.toml",
            "[[run.hooks]]\nevent = \"run_start\"\nscript = \"a\"\ntimeout_ms = 5\n",
        ),
        (
            Dialect::Autohand,
            "config.json",
            r#"{"hooks": {"hooks": [{"event": "stop"}]}}"#,
        ),
        (
            Dialect::Claude,
            "settings.json",
            // (An unknown type is a warning for the loader, which skips the hook, as
            // Claude Code does; a value of the wrong type is an error for both.)
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": 5}]}]}}"#,
        ),
        (
            Dialect::Echo,
            "echo-agent.yaml",
            "hooks:\n  Stop:\n    - hooks:\n        - type: agent\n          prompt: p\n",
        ),
    ];
    for (dialect, name, text) in cases {
        let value = parse_value(text, Some(Path::new(name)), None).unwrap();
        assert!(!validator(dialect).is_valid(&value), "{name}: {text}");
        assert!(hooks_config::load_str(text, Some(Path::new(name)), &options()).is_err());
    }
}
