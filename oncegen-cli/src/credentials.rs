//! The credentials of the API's own security schemes (an API key in a header, query or cookie;
//! a user name and password; a bearer token), each under names the generator derives from the
//! scheme (`oncegen::surface::credentials`): a part is read from its flag, else the variable
//! `<PREFIX>_<VARIABLE>`, else the profile's `credentials` table (key: the variable in lower
//! case), and the scheme's credential is set on the client with `Config::scheme_credential`.
//! Values are never printed.

use crate::Failure;
use clap::{Arg, ArgMatches};
use oncegen_runtime::{Config, SchemeCredential, SchemeKind, SecurityScheme};

/// One security scheme's credential as the tool takes it.
pub struct Credential {
    /// The scheme, as the SDK declares it (`security_schemes::…`).
    pub scheme: &'static SecurityScheme,
    /// Its parts: one (a key or a token), or a user name and a password.
    pub parts: &'static [Part],
}

/// One value a credential is made of.
pub struct Part {
    /// The environment variable after the prefix (`API_KEY_AUTH`).
    pub variable: &'static str,
    /// The flag without `--` (`api-key-auth`).
    pub flag: &'static str,
}

impl Part {
    /// Its key in a profile's `credentials` table.
    pub fn profile_key(&self) -> String {
        self.variable.to_ascii_lowercase()
    }
}

impl Credential {
    /// What the credential is, for help and prompts (`the API key of scheme `ApiKeyAuth``).
    pub fn what(&self) -> String {
        let kind = match self.scheme.kind {
            SchemeKind::ApiKey { .. } => "the API key",
            SchemeKind::Basic => "the user name and password",
            SchemeKind::Bearer => "the bearer token",
        };
        format!("{kind} of security scheme `{}`", self.scheme.name)
    }

    /// What its part number `index` is: the user name or the password of a basic scheme
    /// (parts in that order), `None` for the one part of any other.
    pub fn part_role(&self, index: usize) -> Option<&'static str> {
        match (self.scheme.kind, index) {
            (SchemeKind::Basic, 0) => Some("user name"),
            (SchemeKind::Basic, _) => Some("password"),
            _ => None,
        }
    }
}

/// What the tools' help says after `$<PREFIX>_BEARER`: `, or $<PREFIX>_KEY and
/// $<PREFIX>_SECRET (signed requests)` when the API `signs`, then the same for each scheme.
pub fn help(prefix: &str, credentials: &[Credential], signs: bool) -> String {
    let signed = format!(", or ${prefix}_KEY and ${prefix}_SECRET (signed requests)");
    let signed = if signs { signed.as_str() } else { "" };
    let schemes: String = credentials
        .iter()
        .map(|c| {
            let names: Vec<String> = c
                .parts
                .iter()
                .map(|p| format!("${prefix}_{}", p.variable))
                .collect();
            format!(", or {} ({})", names.join(" and "), c.what())
        })
        .collect();
    format!("{signed}{schemes}")
}

/// The full names of the variables that hold credentials of `credentials`.
pub(crate) fn variables<'c>(
    prefix: &'c str,
    credentials: &'c [Credential],
) -> impl Iterator<Item = String> + 'c {
    credentials
        .iter()
        .flat_map(|c| c.parts)
        .map(move |p| format!("{prefix}_{}", p.variable))
}

/// A global flag per part (a value on the command line is visible to other users of the
/// machine in its process list: the help says to prefer the variable or the profile).
pub(crate) fn args<'c>(
    prefix: &'c str,
    credentials: &'c [Credential],
) -> impl Iterator<Item = Arg> + 'c {
    credentials.iter().flat_map(move |c| {
        c.parts.iter().enumerate().map(move |(i, p)| {
            let part = c
                .part_role(i)
                .map_or_else(String::new, |role| format!(" (the {role})"));
            Arg::new(p.flag)
                .long(p.flag)
                .value_name("VALUE")
                .value_parser(clap::builder::NonEmptyStringValueParser::new())
                .global(true)
                .help(format!(
                    "Send {}{part} [default: ${prefix}_{}, else the profile's]; prefer the variable: a flag's value shows in the process list",
                    c.what(),
                    p.variable
                ))
        })
    })
}

/// The credential flags given in `matches`, by full variable name.
pub(crate) fn given(
    prefix: &str,
    credentials: &[Credential],
    matches: &ArgMatches,
) -> Vec<(String, String)> {
    credentials
        .iter()
        .flat_map(|c| c.parts)
        .filter_map(|p| {
            let value = matches.try_get_one::<String>(p.flag).ok().flatten()?;
            Some((format!("{prefix}_{}", p.variable), value.clone()))
        })
        .collect()
}

/// `config` with the credential of every scheme whose parts `lookup` gives (by full variable
/// name). A user name without its password, or the reverse, is refused, naming both.
pub(crate) fn apply(
    mut config: Config,
    prefix: &str,
    credentials: &[Credential],
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Config, Failure> {
    for credential in credentials {
        let names: Vec<String> = credential
            .parts
            .iter()
            .map(|p| format!("{prefix}_{}", p.variable))
            .collect();
        let values: Vec<Option<String>> = names.iter().map(|n| lookup(n)).collect();
        if values.iter().all(Option::is_none) {
            continue;
        }
        let chosen = match (credential.scheme.kind, values.as_slice()) {
            (SchemeKind::Basic, [Some(user), Some(password)]) => {
                SchemeCredential::basic(user.clone(), password.clone())
            }
            (SchemeKind::ApiKey { .. }, [Some(key)]) => SchemeCredential::api_key(key.clone()),
            (SchemeKind::Bearer, [Some(token)]) => {
                check_bearer(&names[0], Some(token))?;
                SchemeCredential::bearer(token.clone())
            }
            _ => {
                return Err(Failure::usage(format!(
                    "{} go together (as variables, flags or the profile's)",
                    names.join(" and ")
                )));
            }
        };
        config = config.scheme_credential(credential.scheme, chosen);
    }
    Ok(config)
}

/// Refuses a bearer credential that no API could accept: not the `token68` of RFC 6750 (letters,
/// digits, `-._~+/`, then `=` padding), e.g. a pasted space or newline; naming `source`, never
/// the value. Any API's token passes (this contract's `<key prefix>.<secret>` is one form).
pub(crate) fn check_bearer(source: &str, bearer: Option<&str>) -> Result<(), Failure> {
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

#[cfg(test)]
mod tests {
    use super::{Credential, Part, apply};
    use oncegen_runtime::{Config, SchemeKind, SecurityScheme};

    static ADMIN: SecurityScheme = SecurityScheme {
        name: "Admin",
        kind: SchemeKind::Basic,
    };
    static CREDENTIALS: &[Credential] = &[Credential {
        scheme: &ADMIN,
        parts: &[
            Part {
                variable: "ADMIN_USERNAME",
                flag: "admin-username",
            },
            Part {
                variable: "ADMIN_PASSWORD",
                flag: "admin-password",
            },
        ],
    }];

    #[test]
    fn a_user_name_needs_its_password() {
        let lookup = |set: &'static [&'static str]| {
            move |name: &str| set.contains(&name).then(|| "s3cr3t".to_owned())
        };
        let both = apply(
            Config::new("http://a"),
            "API",
            CREDENTIALS,
            lookup(&["API_ADMIN_USERNAME", "API_ADMIN_PASSWORD"]),
        );
        assert!(format!("{:?}", both.unwrap()).contains("Admin"));
        let none = apply(Config::new("http://a"), "API", CREDENTIALS, lookup(&[]));
        assert!(!format!("{:?}", none.unwrap()).contains("Admin"));
        let half = apply(
            Config::new("http://a"),
            "API",
            CREDENTIALS,
            lookup(&["API_ADMIN_USERNAME"]),
        );
        let message = half.unwrap_err().message;
        assert!(
            message.starts_with("API_ADMIN_USERNAME and API_ADMIN_PASSWORD go together"),
            "{message}"
        );
        assert!(!message.contains("s3cr3t"), "{message}");
    }
}
