//! Named profiles in a configuration file, and `<bin> configure`, which writes one.
//!
//! The file is `config.toml` in the tool's configuration directory ([`crate::user_dirs`]:
//! `$XDG_CONFIG_HOME/<bin>`, else `~/.config/<bin>`, on Linux; `~/Library/Application
//! Support/<bin>` on macOS; `%APPDATA%\<bin>` on Windows), written owner-only (0600, its directory 0700) through a temporary file and a rename. A
//! profile holds `base_url`, the credential (`bearer`, or `key` and `secret`, or the API's own
//! schemes' in `credentials`) and `journal`
//! (a path or a `postgres://` URL). The profile is `--profile`, else `<PREFIX>_PROFILE`, else
//! `default`; a flag beats the environment, which beats the profile (credentials as a whole:
//! any credential variable set replaces the profile's credential). Secrets are never printed.

use crate::user_dirs::{self, Kind, Platform};
use crate::{Failure, exit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One profile.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The API's base URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// Bearer credential.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer: Option<String>,
    /// Signed-mode key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Signed-mode secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The write journal: a path or a `postgres://` URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    /// The credentials of the API's own security schemes, by the variable after the prefix in
    /// lower case (`api_key_auth`; [`crate::credentials`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub credentials: BTreeMap<String, String>,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("base_url", &self.base_url)
            .field("credential", &self.credential_kind())
            .finish_non_exhaustive()
    }
}

impl Profile {
    /// Which credential it holds, never the credential.
    pub fn credential_kind(&self) -> &'static str {
        match (&self.bearer, &self.key, &self.secret) {
            (Some(_), _, _) => "bearer",
            (None, Some(_), Some(_)) => "signed",
            _ if !self.credentials.is_empty() => "scheme",
            _ => "none",
        }
    }

    /// The value the environment variable `<prefix>_<suffix>` would have.
    pub fn variable(&self, prefix: &str, name: &str) -> Option<String> {
        let suffix = name.strip_prefix(prefix)?.strip_prefix('_')?;
        match suffix {
            "BASE_URL" => self.base_url.clone(),
            "BEARER" => self.bearer.clone(),
            "KEY" => self.key.clone(),
            "SECRET" => self.secret.clone(),
            "JOURNAL" => self.journal.clone(),
            scheme => self.credentials.get(&scheme.to_ascii_lowercase()).cloned(),
        }
    }
}

/// The configuration file: profiles by name.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Profiles by name.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// Where the configuration file is for `bin` on this platform (`lookup` reads the
/// environment); `None` when the variables of [`user_dirs::needs`] are not set.
pub fn path(bin: &str, lookup: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    user_dirs::directory(Platform::CURRENT, Kind::Config, bin, lookup)
        .map(|dir| dir.join("config.toml"))
}

fn config_failure(path: &Path, what: impl std::fmt::Display) -> Failure {
    Failure {
        code: exit::USAGE,
        message: format!("configuration file {}: {what}", path.display()),
        settled_key: None,
    }
}

/// Reads the file at `path`; a missing file is an empty one.
pub fn read(path: &Path) -> Result<File, Failure> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map_err(|e| config_failure(path, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(File::default()),
        Err(e) => Err(config_failure(path, e)),
    }
}

/// Writes `file` to `path` owner-only, replacing it atomically.
pub fn write(path: &Path, file: &File) -> Result<(), Failure> {
    let failed = |e: std::io::Error| config_failure(path, e);
    let text = toml::to_string(file).map_err(|e| config_failure(path, e))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(failed)?;
    let temporary = path.with_extension("toml.tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut out = options.open(&temporary).map_err(failed)?;
    out.write_all(text.as_bytes()).map_err(failed)?;
    out.sync_all().map_err(failed)?;
    drop(out);
    std::fs::rename(&temporary, path).map_err(failed)
}

/// The profile `name` of the file for `bin` (an empty one when neither exists, unless the
/// name was asked for explicitly).
pub fn load(
    bin: &str,
    name: Option<&str>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Profile, Failure> {
    let Some(path) = path(bin, &lookup) else {
        return Ok(Profile::default());
    };
    let file = read(&path)?;
    match name {
        None => Ok(file.profiles.get("default").cloned().unwrap_or_default()),
        Some(name) => file.profiles.get(name).cloned().ok_or_else(|| {
            Failure::usage(format!(
                "no profile `{name}` in {} (`{bin} configure --profile {name}` writes one)",
                path.display()
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{File, Profile, load, path, read, write};

    #[test]
    fn profiles_round_trip_owner_only_and_never_show_secrets() {
        let dir = std::env::temp_dir().join(format!("oncegen-cli-profile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let home = dir.to_str().unwrap().to_owned();
        // The configuration directory's variable on every platform.
        let lookup = move |name: &str| {
            ["XDG_CONFIG_HOME", "HOME", "APPDATA"]
                .contains(&name)
                .then(|| home.clone())
        };
        let file_path = path("t", &lookup).unwrap();
        let mut file = File::default();
        let profile = Profile {
            base_url: Some("http://x".into()),
            bearer: Some("p.s3cret".into()),
            ..Profile::default()
        };
        file.profiles.insert("work".into(), profile.clone());
        write(&file_path, &file).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file_path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(read(&file_path).unwrap().profiles["work"], profile);
        assert_eq!(load("t", Some("work"), &lookup).unwrap(), profile);
        assert_eq!(load("t", None, &lookup).unwrap(), Profile::default());
        assert!(
            load("t", Some("home"), &lookup)
                .unwrap_err()
                .message
                .contains("`home`")
        );
        assert!(!format!("{profile:?}").contains("s3cret"));
        assert_eq!(
            profile.variable("API", "API_BEARER").as_deref(),
            Some("p.s3cret")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
