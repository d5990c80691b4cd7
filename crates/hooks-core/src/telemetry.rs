//! The engine's own telemetry settings (a native config file's `telemetry:` section):
//! where OpenTelemetry export goes and what it includes. Plain data: config reads and
//! merges them, exec's OTLP encoder combines them with the `OTEL_*` variables.

use std::fmt;

/// What one layer's config files say about OpenTelemetry export (`None`, or an empty list:
/// not said). Only the user and managed layers may set them.
///
/// Its `Debug` shows header names, never their values (they often hold an API key).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TelemetrySettings {
    /// `enabled`: `false` turns export off, `true` turns it on where a lower source turned
    /// it off (`OTEL_SDK_DISABLED=true` under a managed `enabled: true`).
    pub enabled: Option<bool>,
    /// `endpoint`: the collector's base URL (`/v1/traces` and `/v1/metrics` appended).
    pub endpoint: Option<String>,
    /// `headers`: sent with each request to this layer's endpoint, in written order.
    pub headers: Vec<(String, String)>,
    /// `service_name`: the resource's `service.name`.
    pub service_name: Option<String>,
    /// `resource_attributes`: more resource attributes, in written order.
    pub resource_attributes: Vec<(String, String)>,
    /// `export_commands`: whether hook spans carry the hook's command text (secrets
    /// masked). Off unless a config turns it on.
    pub export_commands: Option<bool>,
}

impl TelemetrySettings {
    /// Whether nothing is said.
    pub fn is_empty(&self) -> bool {
        *self == TelemetrySettings::default()
    }

    /// These settings with `higher`'s over them: each value `higher` gives wins, and its
    /// headers and resource attributes replace these of the same key.
    pub fn overlay(&mut self, higher: &TelemetrySettings) {
        let TelemetrySettings {
            enabled,
            endpoint,
            headers,
            service_name,
            resource_attributes,
            export_commands,
        } = higher;
        self.enabled = enabled.or(self.enabled);
        self.endpoint = endpoint.clone().or(self.endpoint.take());
        self.service_name = service_name.clone().or(self.service_name.take());
        self.export_commands = export_commands.or(self.export_commands);
        set_pairs(&mut self.headers, headers);
        set_pairs(&mut self.resource_attributes, resource_attributes);
    }
}

/// Puts `pairs` into `into`, each replacing the value of its key or appended.
pub fn set_pairs(into: &mut Vec<(String, String)>, pairs: &[(String, String)]) {
    for (key, value) in pairs {
        match into.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1.clone_from(value),
            None => into.push((key.clone(), value.clone())),
        }
    }
}

impl fmt::Debug for TelemetrySettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("TelemetrySettings")
            .field("enabled", &self.enabled)
            .field("endpoint", &self.endpoint)
            .field("headers", &headers)
            .field("service_name", &self.service_name)
            .field("resource_attributes", &self.resource_attributes)
            .field("export_commands", &self.export_commands)
            .finish()
    }
}

/// The telemetry settings in force after merging: the user layer's and the managed
/// layer's, kept apart because the `OTEL_*` variables rank between them (managed policy
/// over the environment, the environment over the user's files).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TelemetryLayers {
    /// The user's own files' settings.
    pub user: TelemetrySettings,
    /// Managed policy's settings.
    pub managed: TelemetrySettings,
}

impl TelemetryLayers {
    /// Whether no config file says anything about telemetry.
    pub fn is_empty(&self) -> bool {
        self.user.is_empty() && self.managed.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_higher_layer_wins_value_by_value_and_key_by_key() {
        let mut low = TelemetrySettings {
            endpoint: Some("http://low".to_owned()),
            service_name: Some("low".to_owned()),
            headers: pairs(&[("a", "1"), ("b", "2")]),
            export_commands: Some(true),
            ..TelemetrySettings::default()
        };
        low.overlay(&TelemetrySettings {
            endpoint: Some("http://high".to_owned()),
            headers: pairs(&[("b", "3"), ("c", "4")]),
            enabled: Some(false),
            ..TelemetrySettings::default()
        });
        assert_eq!(
            low,
            TelemetrySettings {
                enabled: Some(false),
                endpoint: Some("http://high".to_owned()),
                headers: pairs(&[("a", "1"), ("b", "3"), ("c", "4")]),
                service_name: Some("low".to_owned()),
                resource_attributes: Vec::new(),
                export_commands: Some(true),
            }
        );
    }

    #[test]
    fn debug_never_shows_a_header_value() {
        let settings = TelemetrySettings {
            headers: pairs(&[("authorization", "Bearer s3cr3t")]),
            ..TelemetrySettings::default()
        };
        let shown = format!("{settings:?}");
        assert!(shown.contains("authorization") && !shown.contains("s3cr3t"));
    }
}
