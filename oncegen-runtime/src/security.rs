//! Credentials for a document's `securitySchemes`: each scheme as data ([`SecurityScheme`],
//! one `static` per scheme in a generated crate), the credential a caller sets once per client
//! ([`SchemeCredential`], through [`Config::scheme_credential`](crate::Config::scheme_credential)),
//! and which requirement of an operation's `security` is sent ([`choose`]).

use std::fmt;

use crate::spec::ParamIn;
use oncegen_codec::Secret;

/// A security scheme of the document (`components.securitySchemes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecurityScheme {
    /// Its key under `securitySchemes`: what credentials are set under.
    pub name: &'static str,
    /// How its credential travels.
    pub kind: SchemeKind,
}

/// How a scheme's credential travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemeKind {
    /// `type: apiKey`: the key as it is, in a header, query parameter or cookie.
    ApiKey {
        /// `in`.
        location: ParamIn,
        /// `name`: the header, parameter or cookie.
        param: &'static str,
    },
    /// `type: http, scheme: basic`: `Authorization: Basic base64(user:password)`.
    Basic,
    /// `type: http, scheme: bearer`, `oauth2` and `openIdConnect`: `Authorization: Bearer <token>`
    /// with a token the caller obtained (the SDK runs no OAuth flow).
    Bearer,
}

/// One requirement of an operation's `security`: schemes sent together (empty: none).
pub type Requirement = &'static [&'static SecurityScheme];

/// The credential of one scheme. `Debug` never shows the secret.
#[derive(Clone)]
pub enum SchemeCredential {
    /// An API key.
    ApiKey(Secret),
    /// A user name and password.
    Basic {
        /// The user name.
        username: String,
        /// The password.
        password: Secret,
    },
    /// A bearer token.
    Bearer(Secret),
}

impl SchemeCredential {
    /// An API key credential.
    pub fn api_key(key: impl Into<Secret>) -> Self {
        SchemeCredential::ApiKey(key.into())
    }

    /// A basic-auth credential.
    pub fn basic(username: impl Into<String>, password: impl Into<Secret>) -> Self {
        SchemeCredential::Basic {
            username: username.into(),
            password: password.into(),
        }
    }

    /// A bearer token (also for `oauth2` and `openIdConnect` schemes).
    pub fn bearer(token: impl Into<Secret>) -> Self {
        SchemeCredential::Bearer(token.into())
    }
}

impl fmt::Debug for SchemeCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemeCredential::ApiKey(_) => f.write_str("ApiKey([REDACTED])"),
            SchemeCredential::Basic { username, .. } => {
                write!(
                    f,
                    "Basic {{ username: {username:?}, password: [REDACTED] }}"
                )
            }
            SchemeCredential::Bearer(_) => f.write_str("Bearer([REDACTED])"),
        }
    }
}

/// The requirement to send: the first whose every scheme `has` a credential for (an empty
/// requirement always qualifies: the operation may go unauthenticated). `None` when no
/// requirement can be met: nothing scheme-specific is sent and the server decides.
pub fn choose(
    requirements: &[Requirement],
    has: impl Fn(&SecurityScheme) -> bool,
) -> Option<Requirement> {
    requirements
        .iter()
        .find(|r| r.iter().all(|s| has(s)))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    static KEY: SecurityScheme = SecurityScheme {
        name: "key",
        kind: SchemeKind::ApiKey {
            location: ParamIn::Header,
            param: "x-token",
        },
    };
    static BASIC: SecurityScheme = SecurityScheme {
        name: "basic",
        kind: SchemeKind::Basic,
    };

    static BOTH: &[Requirement] = &[&[&KEY, &BASIC], &[&BASIC], &[]];
    static KEY_ONLY: &[Requirement] = &[&[&KEY]];

    #[test]
    fn the_first_requirement_that_can_be_met_is_chosen() {
        let both = BOTH;
        assert_eq!(choose(both, |_| true), Some(both[0]));
        assert_eq!(choose(both, |s| s.name == "basic"), Some(both[1]));
        assert_eq!(choose(both, |_| false), Some(both[2]));
        assert_eq!(choose(KEY_ONLY, |_| false), None);
    }

    #[test]
    fn debug_hides_secrets() {
        let shown = format!(
            "{:?} {:?} {:?}",
            SchemeCredential::api_key("k-hunter2"),
            SchemeCredential::basic("ann", "p-hunter2"),
            SchemeCredential::bearer("t-hunter2")
        );
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("ann"), "{shown}");
    }
}
