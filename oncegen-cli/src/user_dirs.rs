//! Where a tool keeps its files on each platform: its configuration (the profiles) and its
//! state (the write journal), each in a directory named after the tool inside:
//!
//! | platform | configuration | state |
//! | --- | --- | --- |
//! | Linux and other Unix | `$XDG_CONFIG_HOME`, else `~/.config` | `$XDG_STATE_HOME`, else `~/.local/state` |
//! | macOS | `~/Library/Application Support` | `~/Library/Application Support` |
//! | Windows | `%APPDATA%` | `%LOCALAPPDATA%` |
//!
//! An XDG variable counts only when it is an absolute path (the XDG Base Directory
//! specification ignores a relative one). These are the `dirs` crate's rules; they are written
//! here as a pure function of the platform and the environment, as Go's `os.UserConfigDir`
//! decides it, so that every platform's rule is tested on any machine: `dirs` asks the
//! operating system (the Windows known-folder API) and cannot be tested off its platform.

use std::path::PathBuf;

/// A family of platforms with one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux, the BSDs and other Unix: the XDG Base Directory specification.
    Xdg,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

impl Platform {
    /// The platform this binary runs on.
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else if cfg!(target_os = "macos") {
        Platform::MacOs
    } else {
        Platform::Xdg
    };
}

/// What a directory holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Settings the user writes (the profiles).
    Config,
    /// State the tool keeps between runs (the write journal).
    State,
}

/// The directory of `bin`'s files of `kind` on `platform`, from the environment `lookup`;
/// `None` when the variables it comes from are not set ([`needs`] names them).
pub fn directory(
    platform: Platform,
    kind: Kind,
    bin: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Option<PathBuf> {
    let set = |name: &str| lookup(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = || set("HOME");
    let base = match (platform, kind) {
        (Platform::Xdg, _) => {
            let (variable, default) = match kind {
                Kind::Config => ("XDG_CONFIG_HOME", ".config"),
                Kind::State => ("XDG_STATE_HOME", ".local/state"),
            };
            set(variable)
                .filter(|p| p.is_absolute())
                .or_else(|| home().map(|h| h.join(default)))
        }
        (Platform::MacOs, _) => home().map(|h| h.join("Library/Application Support")),
        (Platform::Windows, Kind::Config) => set("APPDATA"),
        (Platform::Windows, Kind::State) => set("LOCALAPPDATA"),
    }?;
    Some(base.join(bin))
}

/// The variables [`directory`] reads on `platform` for `kind`, for an error saying what to set.
pub fn needs(platform: Platform, kind: Kind) -> &'static str {
    match (platform, kind) {
        (Platform::Xdg, Kind::Config) => "XDG_CONFIG_HOME or HOME",
        (Platform::Xdg, Kind::State) => "XDG_STATE_HOME or HOME",
        (Platform::MacOs, _) => "HOME",
        (Platform::Windows, Kind::Config) => "APPDATA",
        (Platform::Windows, Kind::State) => "LOCALAPPDATA",
    }
}

/// The rule of the table above, for help texts (one text on every platform).
pub const HELP: &str = "Files: profiles in <configuration directory>/<bin>/config.toml (owner-only), the write journal in <state directory>/<bin>/journal. Linux: $XDG_CONFIG_HOME (else ~/.config) and $XDG_STATE_HOME (else ~/.local/state); macOS: ~/Library/Application Support for both; Windows: %APPDATA% and %LOCALAPPDATA%.";

#[cfg(test)]
mod tests {
    use super::{Kind, Platform, directory};
    use std::path::PathBuf;

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn dir(
        platform: Platform,
        kind: Kind,
        vars: &'static [(&'static str, &'static str)],
    ) -> Option<PathBuf> {
        directory(platform, kind, "cloud", env(vars))
    }

    #[test]
    fn xdg_platforms_honour_absolute_xdg_variables_else_home() {
        let all = &[
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_STATE_HOME", "/s"),
            ("HOME", "/h"),
            ("APPDATA", "/a"),
        ];
        assert_eq!(
            dir(Platform::Xdg, Kind::Config, all),
            Some("/c/cloud".into())
        );
        assert_eq!(
            dir(Platform::Xdg, Kind::State, all),
            Some("/s/cloud".into())
        );
        let home = &[
            ("HOME", "/h"),
            ("XDG_CONFIG_HOME", "relative"),
            ("XDG_STATE_HOME", ""),
        ];
        assert_eq!(
            dir(Platform::Xdg, Kind::Config, home),
            Some("/h/.config/cloud".into())
        );
        assert_eq!(
            dir(Platform::Xdg, Kind::State, home),
            Some("/h/.local/state/cloud".into())
        );
        assert_eq!(dir(Platform::Xdg, Kind::Config, &[]), None);
    }

    #[test]
    fn macos_uses_application_support_and_ignores_xdg() {
        let vars = &[
            ("HOME", "/Users/u"),
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_STATE_HOME", "/s"),
        ];
        for kind in [Kind::Config, Kind::State] {
            assert_eq!(
                dir(Platform::MacOs, kind, vars),
                Some("/Users/u/Library/Application Support/cloud".into())
            );
        }
        assert_eq!(
            dir(Platform::MacOs, Kind::Config, &[("XDG_CONFIG_HOME", "/c")]),
            None
        );
    }

    #[test]
    fn windows_uses_appdata_for_configuration_and_localappdata_for_state() {
        let vars = &[
            ("APPDATA", r"C:\Users\u\AppData\Roaming"),
            ("LOCALAPPDATA", r"C:\Users\u\AppData\Local"),
            ("HOME", "/h"),
            ("XDG_CONFIG_HOME", "/c"),
        ];
        assert_eq!(
            dir(Platform::Windows, Kind::Config, vars),
            Some(PathBuf::from(r"C:\Users\u\AppData\Roaming").join("cloud"))
        );
        assert_eq!(
            dir(Platform::Windows, Kind::State, vars),
            Some(PathBuf::from(r"C:\Users\u\AppData\Local").join("cloud"))
        );
        assert_eq!(dir(Platform::Windows, Kind::State, &[("HOME", "/h")]), None);
    }
}
