//! Credentials and the write journal: where a command's client comes from.
//!
//! Credentials come from the environment variables of the SDK's prefix (`<PREFIX>_BASE_URL`,
//! `<PREFIX>_BEARER`, or `<PREFIX>_KEY` and `<PREFIX>_SECRET`; see
//! `oncegen_runtime::Config::from_env_with_prefix`), else from the profile
//! ([`crate::profile`]); the base URL also from `--base-url`. They are never printed: the SDK
//! keeps them out of its errors and `Debug`.
//!
//! Every write is journaled: `--journal PATH|URL`, else `<PREFIX>_JOURNAL`, else the profile's
//! `journal`, else the file `journal` in the tool's state directory ([`crate::user_dirs`]:
//! `$XDG_STATE_HOME/<bin>`, else `~/.local/state/<bin>`, on Linux); a `postgres://` URL selects
//! the PostgreSQL journal shared with other machines.

use crate::Failure;
use crate::credentials::{self, Credential, check_bearer};
use crate::profile::Profile;
use crate::user_dirs::{self, Kind, Platform};
use crate::waiting::Notice;
use clap::ArgMatches;
use oncegen_runtime::Config;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Where a command's settings come from, strongest first: its credential flags, the
/// environment (the variables of `prefix`), the profile.
pub struct Sources<'a> {
    /// The SDK's prefix of variables (`<PREFIX>_BASE_URL`, …).
    pub prefix: &'a str,
    /// The chosen profile.
    pub profile: &'a Profile,
    /// The API's scheme credentials ([`crate::credentials`]).
    pub credentials: &'a [Credential],
    /// The API has a scheme the client's signed mode sends: `<PREFIX>_KEY` and
    /// `<PREFIX>_SECRET` are read (otherwise they are not this API's and are ignored).
    pub signs: bool,
    /// The credential flags given, by full variable name (`Sources::with_flags`).
    pub flags: Vec<(String, String)>,
}

impl<'a> Sources<'a> {
    /// Settings from the environment and `profile` only (no flags), for an API with
    /// `credentials` that `signs` or not.
    pub fn new(
        prefix: &'a str,
        profile: &'a Profile,
        (credentials, signs): (&'a [Credential], bool),
    ) -> Self {
        Sources {
            prefix,
            profile,
            credentials,
            signs,
            flags: Vec::new(),
        }
    }

    /// These sources with the credential flags of `matches`.
    pub(crate) fn with_flags(mut self, matches: &ArgMatches) -> Self {
        self.flags = credentials::given(self.prefix, self.credentials, matches);
        self
    }

    /// The setting `name` (a variable of the prefix): a flag's, else the environment's, else
    /// the profile's. A credential is taken whole from one place: the flags and the
    /// environment when they set any part of any credential, else the profile.
    pub fn lookup(&self) -> impl Fn(&str) -> Option<String> + '_ {
        lookup_from(self, |name| std::env::var(name).ok())
    }

    /// The client's configuration, the base URL replaced by `base_url`; each wait before a
    /// retry said on stderr (`crate::waiting`).
    pub fn config(&self, base_url: Option<&str>) -> Result<Config, Failure> {
        let prefix = self.prefix;
        let bearer = format!("{prefix}_BEARER");
        let from_env = std::env::var(&bearer).is_ok_and(|v| !v.trim().is_empty());
        let source = if from_env {
            bearer.clone()
        } else {
            "the profile's `bearer`".to_owned()
        };
        let lookup = self.lookup();
        check_bearer(&source, lookup(&bearer).as_deref())?;
        let config = config_from(prefix, base_url, &lookup)?;
        let config = credentials::apply(config, prefix, self.credentials, &lookup)?;
        Ok(config.hook(Arc::new(Notice)))
    }
}

fn lookup_from<'s>(
    sources: &'s Sources<'_>,
    env: impl Fn(&str) -> Option<String> + 's,
) -> impl Fn(&str) -> Option<String> + 's {
    let prefix = sources.prefix;
    let given = move |name: &str| {
        let flag = sources.flags.iter().find(|(n, _)| n == name);
        flag.map(|(_, v)| v.clone())
            .or_else(|| env(name))
            .filter(|v| !v.trim().is_empty())
    };
    let signed = ["KEY", "SECRET"].map(|s| format!("{prefix}_{s}"));
    let credential: Vec<String> = std::iter::once(format!("{prefix}_BEARER"))
        .chain(signed.iter().filter(|_| sources.signs).cloned())
        .chain(credentials::variables(prefix, sources.credentials))
        .collect();
    move |name: &str| {
        if !sources.signs && signed.iter().any(|s| s == name) {
            return None;
        }
        if credential.iter().any(|c| c == name) {
            let from_env = credential.iter().any(|c| given(c).is_some());
            return if from_env {
                given(name)
            } else {
                sources.profile.variable(prefix, name)
            };
        }
        given(name).or_else(|| sources.profile.variable(prefix, name))
    }
}

/// `config` with the timeouts `leaf` gives (`--read-timeout`, `--total-timeout`), else the
/// variables `<PREFIX>_READ_TIMEOUT` and `<PREFIX>_TOTAL_TIMEOUT` (whole seconds, at least 1),
/// else the SDK's defaults.
pub(crate) fn timeouts(
    mut config: Config,
    prefix: &str,
    leaf: &ArgMatches,
) -> Result<Config, Failure> {
    if let Some(read) = seconds(leaf, READ_TIMEOUT, &format!("{prefix}_READ_TIMEOUT"))? {
        config = config.attempt_timeout(read);
    }
    if let Some(total) = seconds(leaf, TOTAL_TIMEOUT, &format!("{prefix}_TOTAL_TIMEOUT"))? {
        config = config.total_timeout(total);
    }
    Ok(config)
}

/// The seconds of flag `id`, else of the variable `name` (an error naming it unless a whole
/// number of at least 1).
fn seconds(leaf: &ArgMatches, id: &str, name: &str) -> Result<Option<Duration>, Failure> {
    if let Some(flag) = leaf.get_one::<u64>(id) {
        return Ok(Some(Duration::from_secs(*flag)));
    }
    let Some(text) = std::env::var(name).ok().filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    match text.trim().parse::<u64>() {
        Ok(secs) if secs >= 1 => Ok(Some(Duration::from_secs(secs))),
        _ => Err(Failure::usage(format!(
            "{name}={text}: expected a whole number of seconds, at least 1"
        ))),
    }
}

/// The flag of one HTTP attempt's limit (`--read-timeout SECS`).
pub(crate) const READ_TIMEOUT: &str = "read-timeout";
/// The flag of a whole call's limit (`--total-timeout SECS`).
pub(crate) const TOTAL_TIMEOUT: &str = "total-timeout";

fn config_from(
    prefix: &str,
    base_url: Option<&str>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Config, Failure> {
    let base_name = format!("{prefix}_BASE_URL");
    Config::from_lookup_with_prefix(prefix, |name| match base_url {
        Some(url) if name == base_name => Some(url.to_owned()),
        _ => lookup(name),
    })
    .map_err(|e| Failure::usage(format!("{e} (or pass --base-url)")))
}

/// Where the journal is: `flag`, else `<PREFIX>_JOURNAL`, else the user's state directory.
/// A file path, or a `postgres://` URL ([`crate::journal::open`]).
pub fn journal_location(
    bin: &str,
    sources: &Sources<'_>,
    flag: Option<&str>,
) -> Result<String, Failure> {
    let path = journal_path_from(
        Platform::CURRENT,
        bin,
        sources.prefix,
        flag,
        sources.lookup(),
    )?;
    path.into_os_string().into_string().map_err(|p| {
        Failure::usage(format!(
            "the journal location is not UTF-8: {}",
            p.display()
        ))
    })
}

fn journal_path_from(
    platform: Platform,
    bin: &str,
    prefix: &str,
    flag: Option<&str>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<PathBuf, Failure> {
    if let Some(path) = flag {
        return Ok(path.into());
    }
    if let Some(path) = lookup(&format!("{prefix}_JOURNAL")).filter(|p| !p.is_empty()) {
        return Ok(path.into());
    }
    let state = user_dirs::directory(platform, Kind::State, bin, lookup).ok_or_else(|| {
        Failure::usage(format!(
            "no state directory for the write journal: set {}, {prefix}_JOURNAL or --journal",
            user_dirs::needs(platform, Kind::State)
        ))
    })?;
    Ok(state.join("journal"))
}

#[cfg(test)]
mod tests {
    use super::{Sources, config_from, journal_path_from, lookup_from};
    use crate::credentials::{Credential, Part, check_bearer};
    use crate::profile::Profile;
    use crate::user_dirs::Platform;
    use oncegen_runtime::{ParamIn, SchemeKind, SecurityScheme};

    static TOKEN: SecurityScheme = SecurityScheme {
        name: "ApiKeyAuth",
        kind: SchemeKind::ApiKey {
            location: ParamIn::Header,
            param: "x-token",
        },
    };
    static CREDENTIALS: &[Credential] = &[Credential {
        scheme: &TOKEN,
        parts: &[Part {
            variable: "API_KEY_AUTH",
            flag: "api-key-auth",
        }],
    }];

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name: &str| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn the_environment_beats_the_profile_and_credentials_come_whole_from_one() {
        let profile = Profile {
            base_url: Some("http://profile".into()),
            bearer: Some("p.b".into()),
            journal: Some("postgres://db/j".into()),
            credentials: [("api_key_auth".to_owned(), "p-token".to_owned())].into(),
            ..Profile::default()
        };
        let sources = Sources::new("API", &profile, (CREDENTIALS, true));
        let none = lookup_from(&sources, env(&[]));
        assert_eq!(none("API_BASE_URL").as_deref(), Some("http://profile"));
        assert_eq!(none("API_BEARER").as_deref(), Some("p.b"));
        assert_eq!(none("API_API_KEY_AUTH").as_deref(), Some("p-token"));
        assert_eq!(none("API_JOURNAL").as_deref(), Some("postgres://db/j"));
        let signed = lookup_from(&sources, env(&[("API_KEY", "k"), ("API_SECRET", "s")]));
        for replaced in ["API_BEARER", "API_API_KEY_AUTH"] {
            assert_eq!(
                signed(replaced),
                None,
                "the environment's credential replaces the profile's"
            );
        }
        assert_eq!(signed("API_KEY").as_deref(), Some("k"));
        let scheme = lookup_from(&sources, env(&[("API_API_KEY_AUTH", "e-token")]));
        assert_eq!(scheme("API_BEARER"), None);
        assert_eq!(scheme("API_API_KEY_AUTH").as_deref(), Some("e-token"));
        let flagged = Sources {
            flags: vec![("API_API_KEY_AUTH".into(), "f-token".into())],
            ..Sources::new("API", &profile, (CREDENTIALS, true))
        };
        let flag = lookup_from(&flagged, env(&[("API_API_KEY_AUTH", "e-token")]));
        assert_eq!(flag("API_API_KEY_AUTH").as_deref(), Some("f-token"));
        assert_eq!(
            flag("API_BEARER"),
            None,
            "a flag's credential replaces the profile's"
        );
        let unsigned = Sources::new("API", &profile, (CREDENTIALS, false));
        let other_api = lookup_from(&unsigned, env(&[("API_KEY", "k"), ("API_SECRET", "s")]));
        assert_eq!(
            other_api("API_KEY"),
            None,
            "an API that signs nothing reads no key"
        );
        assert_eq!(other_api("API_BEARER").as_deref(), Some("p.b"));
        let url = lookup_from(&sources, env(&[("API_BASE_URL", "http://env")]));
        assert_eq!(url("API_BASE_URL").as_deref(), Some("http://env"));
    }
    use std::path::PathBuf;

    #[test]
    fn a_bearer_credential_is_a_token68() {
        assert!(check_bearer("API_BEARER", None).is_ok());
        for any_api in ["ck_live.s3cr3t", "ghp_s3cr3t", "eyJ.s3cr3t.x", "s3cr3t=="] {
            assert!(
                check_bearer("API_BEARER", Some(any_api)).is_ok(),
                "{any_api}"
            );
        }
        for malformed in [
            "",
            "ck_live.s3cr3t\n",
            "ck live.s3cr3t",
            "Bearer s3cr3t",
            "s3cr3t\"",
        ] {
            let refused = check_bearer("API_BEARER", Some(malformed)).unwrap_err();
            assert!(
                refused.message.starts_with("API_BEARER is not"),
                "{}",
                refused.message
            );
            assert!(!refused.message.contains("s3cr3t"), "{}", refused.message);
        }
    }

    #[test]
    fn the_journal_is_the_flag_then_the_variable_then_the_state_directory() {
        let path =
            |flag, vars| journal_path_from(Platform::Xdg, "cloud", "API", flag, env(vars)).unwrap();
        assert_eq!(path(Some("j"), &[("API_JOURNAL", "x")]), PathBuf::from("j"));
        assert_eq!(path(None, &[("API_JOURNAL", "x")]), PathBuf::from("x"));
        assert_eq!(
            path(None, &[("XDG_STATE_HOME", "/s"), ("HOME", "/h")]),
            PathBuf::from("/s/cloud/journal")
        );
        assert_eq!(
            path(None, &[("HOME", "/h")]),
            PathBuf::from("/h/.local/state/cloud/journal")
        );
        assert_eq!(
            journal_path_from(
                Platform::Windows,
                "cloud",
                "API",
                None,
                env(&[("LOCALAPPDATA", "/l"), ("XDG_STATE_HOME", "/s")])
            )
            .unwrap(),
            PathBuf::from("/l/cloud/journal")
        );
        let none = journal_path_from(Platform::Xdg, "cloud", "API", None, env(&[])).unwrap_err();
        assert!(
            none.message.contains("XDG_STATE_HOME or HOME"),
            "{}",
            none.message
        );
    }

    #[test]
    fn base_url_flag_replaces_the_variable() {
        let config = config_from("API", Some("http://flag"), |n| {
            (n == "API_BASE_URL").then(|| "http://env".to_owned())
        })
        .unwrap();
        assert_eq!(config.get_base_url(), "http://flag");
        let missing = config_from("API", None, |_| None).unwrap_err();
        assert!(
            missing.message.contains("API_BASE_URL"),
            "{}",
            missing.message
        );
    }
}
