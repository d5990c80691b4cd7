//! Parsing YAML, TOML and JSON text into the positioned [`Node`] tree.
//!
//! Each format has its own small module; YAML goes through `serde-saphyr` in `yaml.rs`
//! only, so that changing the YAML library touches one file.

mod json;
mod toml_text;
pub(crate) mod yaml;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::source::Source;
use crate::tree::Node;

/// The deepest nesting of lists and tables accepted in any format. Configs nest a few
/// levels; the limit keeps hostile input from exhausting the stack.
pub(crate) const MAX_DEPTH: usize = 32;

/// A config file's syntax.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// YAML (also SKILL.md frontmatter).
    Yaml,
    /// TOML.
    Toml,
    /// JSON.
    Json,
}

impl Format {
    /// The format a file name implies: `.yaml`/`.yml`/`.md` (frontmatter), `.toml`, `.json`.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "yaml" | "yml" | "md" => Some(Format::Yaml),
            "toml" => Some(Format::Toml),
            "json" | "jsonc" => Some(Format::Json),
            _ => None,
        }
    }

    /// Guesses the format of text with no telling file name: JSON if it starts with `{`,
    /// TOML if it parses as TOML, YAML otherwise.
    pub(crate) fn sniff(text: &str) -> Format {
        let trimmed = text.trim_start();
        if trimmed.starts_with('{') {
            Format::Json
        } else if ::toml::de::DeTable::parse(text).is_ok() && !trimmed.is_empty() {
            Format::Toml
        } else {
            Format::Yaml
        }
    }

    /// The lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::Toml => "toml",
            Format::Json => "json",
        }
    }
}

/// Parses `src` as `format`. Syntax errors, nesting deeper than [`MAX_DEPTH`] and YAML
/// alias bombs are errors with the line and column where they were found.
pub(crate) fn parse(src: &Source, format: Format) -> Result<Node, Error> {
    match format {
        Format::Yaml => yaml::parse(src),
        Format::Toml => toml_text::parse(src),
        Format::Json => json::parse(src),
    }
}
