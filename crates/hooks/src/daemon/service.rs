//! The user service that starts the daemon at login and restarts it (`hooks daemon
//! install`): a systemd user unit on Linux, a launchd agent on macOS.

use std::path::{Path, PathBuf};

/// The systemd user unit's name.
pub const SYSTEMD_UNIT: &str = "agentic-hooks.service";

/// The launchd agent's label (and its file's name, with `.plist`).
pub const LAUNCHD_LABEL: &str = "dev.agentic-hooks.daemon";

/// A service file: where it goes, what it holds, and the command that turns it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceFile {
    /// The file's path.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// The command that loads it and starts the daemon now.
    pub enable: String,
    /// The command that stops the daemon and unloads it.
    pub disable: String,
}

/// The service file of this system for the daemon run as `program daemon run`, in the
/// user's home `home` (systemd's user directory under `config_dir`, the XDG config
/// directory); `None` on a system with neither systemd nor launchd.
pub fn service_file(program: &Path, home: &Path, config_dir: &Path) -> Option<ServiceFile> {
    if cfg!(target_os = "macos") {
        Some(launchd(program, home))
    } else if cfg!(target_os = "linux") {
        Some(systemd(program, config_dir))
    } else {
        None
    }
}

/// The systemd user unit.
pub fn systemd(program: &Path, config_dir: &Path) -> ServiceFile {
    let path = config_dir.join("systemd/user").join(SYSTEMD_UNIT);
    let text = format!(
        "[Unit]\n\
         Description=agentic-hooks resident engine (hooks daemon)\n\
         Documentation={}/blob/main/docs/daemon.md\n\
         \n\
         [Service]\n\
         ExecStart={} daemon run\n\
         Restart=always\n\
         RestartSec=1\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n",
        env!("CARGO_PKG_REPOSITORY"),
        systemd_quoted(program)
    );
    ServiceFile {
        path,
        text,
        enable: format!(
            "systemctl --user daemon-reload && systemctl --user enable --now {SYSTEMD_UNIT}"
        ),
        disable: format!("systemctl --user disable --now {SYSTEMD_UNIT}"),
    }
}

/// The launchd agent.
pub fn launchd(program: &Path, home: &Path) -> ServiceFile {
    let path = home
        .join("Library/LaunchAgents")
        .join(format!("{LAUNCHD_LABEL}.plist"));
    let text = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>{LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
    <string>{}</string>
    <string>daemon</string>
    <string>run</string>
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
</dict>
</plist>
"#,
        xml_escaped(&program.display().to_string())
    );
    let shown = path.display();
    ServiceFile {
        enable: format!("launchctl load -w {shown}"),
        disable: format!("launchctl unload -w {shown}"),
        path,
        text,
    }
}

/// `program` as one word of a systemd command line: quoted, with `\`, `"`, `%` and `$`
/// escaped.
fn systemd_quoted(program: &Path) -> String {
    let mut out = String::from("\"");
    for c in program.display().to_string().chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '%' => out.push_str("%%"),
            '$' => out.push_str("$$"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

fn xml_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_runs_the_daemon_of_the_program_quoted() {
        let unit = systemd(Path::new("/opt/my hooks/100%/hooks"), Path::new("/c"));
        assert_eq!(
            unit.path,
            Path::new("/c/systemd/user/agentic-hooks.service")
        );
        assert!(
            unit.text
                .contains("ExecStart=\"/opt/my hooks/100%%/hooks\" daemon run\n"),
            "{}",
            unit.text
        );
        assert!(unit.text.contains("Restart=always"));
    }

    #[test]
    fn the_agent_runs_the_daemon_kept_alive() {
        let agent = launchd(Path::new("/usr/local/bin/hooks"), Path::new("/Users/u"));
        assert_eq!(
            agent.path,
            Path::new("/Users/u/Library/LaunchAgents/dev.agentic-hooks.daemon.plist")
        );
        assert!(agent.text.contains("<string>/usr/local/bin/hooks</string>"));
        assert!(agent.text.contains("<key>KeepAlive</key>\n  <true/>"));
    }
}
