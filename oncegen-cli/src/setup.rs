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
use crate::profile::Profile;
use crate::user_dirs::{self, Kind, Platform};
use crate::waiting::Notice;
use clap::ArgMatches;
use oncegen_runtime::Config;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The setting `name` (a variable of `prefix`): the environment's, else the profile's. The
/// credential is taken whole from one place: the environment when it sets any part of it.
pub fn lookup<'p>(prefix: &'p str, profile: &'p Profile) -> impl Fn(&str) -> Option<String> + 'p {
    lookup_from(prefix, profile, |name| std::env::var(name).ok())
}

fn lookup_from<'p>(
    prefix: &'p str,
    profile: &'p Profile,
    env: impl Fn(&str) -> Option<String> + 'p,
) -> impl Fn(&str) -> Option<String> + 'p {
    let set = move |name: &str| env(name).filter(|v| !v.trim().is_empty());
    move |name: &str| {
        let credential = ["BEARER", "KEY", "SECRET"].map(|s| format!("{prefix}_{s}"));
        if credential.iter().any(|c| c == name) {
            let from_env = credential.iter().any(|c| set(c).is_some());
            return if from_env {
                set(name)
            } else {
                profile.variable(prefix, name)
            };
        }
        set(name).or_else(|| profile.variable(prefix, name))
    }
}

/// The configuration from the variables of `prefix` and `profile`, the base URL replaced by
/// `base_url`; each wait before a retry said on stderr (`crate::waiting`).
pub fn config(prefix: &str, base_url: Option<&str>, profile: &Profile) -> Result<Config, Failure> {
    let bearer = format!("{prefix}_BEARER");
    let from_env = std::env::var(&bearer).is_ok_and(|v| !v.trim().is_empty());
    let given = lookup(prefix, profile)(&bearer);
    let source = if from_env {
        bearer
    } else {
        "the profile's `bearer`".to_owned()
    };
    check_bearer(&source, given.as_deref())?;
    let config = config_from(prefix, base_url, lookup(prefix, profile))?;
    Ok(config.hook(Arc::new(Notice)))
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

/// Refuses a bearer credential that no API could accept: not the `token68` of RFC 6750 (letters,
/// digits, `-._~+/`, then `=` padding), e.g. a pasted space or newline; naming `source`, never
/// the value. Any API's token passes (this contract's `<key prefix>.<secret>` is one form).
fn check_bearer(source: &str, bearer: Option<&str>) -> Result<(), Failure> {
    let Some(bearer) = bearer else {
        return Ok(());
    };
    let body = bearer.trim_end_matches('=');
    let token68 = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if token68 {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "{source} is not a bearer credential: expected letters, digits and -._~+/ with no \
         spaces or line breaks (the value is not shown)"
    )))
}

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
    prefix: &str,
    flag: Option<&str>,
    profile: &Profile,
) -> Result<String, Failure> {
    let path = journal_path_from(
        Platform::CURRENT,
        bin,
        prefix,
        flag,
        lookup(prefix, profile),
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
    use super::{check_bearer, config_from, journal_path_from, lookup_from};
    use crate::profile::Profile;
    use crate::user_dirs::Platform;

    #[test]
    fn the_environment_beats_the_profile_and_credentials_come_whole_from_one() {
        let profile = Profile {
            base_url: Some("http://profile".into()),
            bearer: Some("p.b".into()),
            journal: Some("postgres://db/j".into()),
            ..Profile::default()
        };
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let none = lookup_from("API", &profile, env(&[]));
        assert_eq!(none("API_BASE_URL").as_deref(), Some("http://profile"));
        assert_eq!(none("API_BEARER").as_deref(), Some("p.b"));
        assert_eq!(none("API_JOURNAL").as_deref(), Some("postgres://db/j"));
        let signed = lookup_from(
            "API",
            &profile,
            env(&[("API_KEY", "k"), ("API_SECRET", "s")]),
        );
        assert_eq!(
            signed("API_BEARER"),
            None,
            "the environment's credential replaces the profile's"
        );
        assert_eq!(signed("API_KEY").as_deref(), Some("k"));
        let url = lookup_from("API", &profile, env(&[("API_BASE_URL", "http://env")]));
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
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
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
