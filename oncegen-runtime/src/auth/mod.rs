//! Credentials on the wire: the bearer header, built once, or signed mode's five headers,
//! computed for every attempt (fresh `x-ts` and `x-nonce`), and the scheme credentials an
//! operation's security requirement asks for (the schemes as data are [`security`], signed mode's
//! `Signer` is [`signing`], both below the config); `endpoint` is the base URL, and the rule
//! that keeps credentials off cleartext links.

use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, HeaderName, HeaderValue};

use crate::config::{Config, Credentials};
use crate::error::Error;
use crate::header_names;
use crate::spec::ParamIn;
use oncegen_codec::Secret;

use crate::security::{self, Requirement, SchemeCredential, SchemeKind, SecurityScheme};
use crate::signing::{Signer, SigningInput, content_sha256, new_nonce, unix_timestamp};

pub(crate) mod endpoint;

/// How one client authenticates its attempts: its bearer or signed mode, and the credentials of
/// the document's security schemes.
pub(crate) struct Auth {
    mode: Mode,
    schemes: Vec<SchemeAuth>,
}

/// One security scheme's credential, encoded once.
struct SchemeAuth {
    name: &'static str,
    placement: Placement,
    /// Sent on every operation whose `security` does not say it needs none
    /// ([`Config::scheme_credential_everywhere`]).
    everywhere: bool,
}

/// Where an encoded scheme credential goes.
enum Placement {
    /// A header (API key, `Authorization: Basic …` or `Bearer …`), marked sensitive.
    Header(HeaderName, HeaderValue),
    /// A query parameter: `name=value`, percent-encoded.
    Query(String),
    /// A cookie: `name=value`.
    Cookie(String),
}

/// The query parameters an attempt adds for the credentials (`name=value&…`); the caller
/// appends it to the URL and must never show it.
#[derive(Default)]
pub(crate) struct CredentialQuery(pub String);

impl fmt::Debug for CredentialQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CredentialQuery([REDACTED])")
    }
}

/// The client's own mode.
enum Mode {
    /// No credentials.
    None,
    /// One copy of `Bearer <token>` in a header value marked sensitive (never shown by `Debug`).
    Bearer(HeaderValue),
    /// Signed mode.
    Signed {
        api_key: HeaderValue,
        secret: Secret,
        signer: Arc<dyn Signer>,
    },
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.mode {
            Mode::None => "Auth::None",
            Mode::Bearer(_) => "Auth::Bearer([REDACTED])",
            Mode::Signed { .. } => "Auth::Signed([REDACTED])",
        })?;
        let names: Vec<&str> = self.schemes.iter().map(|s| s.name).collect();
        write!(f, " + schemes {names:?} ([REDACTED])")
    }
}

impl Auth {
    /// Checks and encodes `config`'s credentials once (configuration errors).
    pub fn new(config: &Config) -> Result<Self, Error> {
        let schemes = config
            .schemes
            .iter()
            .map(|(scheme, credential)| {
                let mut auth = scheme_auth(scheme, credential)?;
                auth.everywhere = config.schemes_everywhere.contains(&scheme.name);
                Ok(auth)
            })
            .collect::<Result<_, Error>>()?;
        Ok(Auth {
            mode: Self::mode(config)?,
            schemes,
        })
    }

    fn mode(config: &Config) -> Result<Mode, Error> {
        Ok(match &config.credentials {
            Credentials::None => Mode::None,
            Credentials::Bearer(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose_secret()))
                    .map_err(|_| {
                        Error::config("the bearer credential is not a valid header value")
                    })?;
                value.set_sensitive(true);
                Mode::Bearer(value)
            }
            Credentials::Signed { api_key, secret } => {
                let api_key = HeaderValue::from_str(api_key)
                    .ok()
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| {
                        Error::config(
                            "the signed-mode API key is empty or not a valid header value",
                        )
                    })?;
                Mode::Signed {
                    api_key,
                    secret: secret.clone(),
                    signer: config.signer.clone(),
                }
            }
        })
    }

    /// How many headers [`Self::apply`] may add at most (room to leave in an attempt's map).
    pub fn header_room(&self) -> usize {
        let mode = match self.mode {
            Mode::None => 0,
            Mode::Bearer(_) => 1,
            Mode::Signed { .. } => 5,
        };
        // Each scheme adds a header, or its share of one `Cookie`.
        mode + self.schemes.len()
    }

    /// Adds this attempt's credentials: the client's mode (unless the operation's `security`
    /// says it needs none), then the scheme credentials of the first requirement of `security`
    /// that can be met, and those set for every operation; returns the query parameters to
    /// append. `target` is the path and query as sent (base prefix included). A signer output
    /// that is not a valid header value is a local failure: [`Error::Validation`], raised before
    /// anything is sent. An operation that sends no credential though it does not say it needs
    /// none is logged at debug level (`operation`: its id).
    pub fn apply(
        &self,
        headers: &mut HeaderMap,
        (method, operation): (&str, &str),
        target: &str,
        body: &[u8],
        security: Option<&[Requirement]>,
    ) -> Result<CredentialQuery, Error> {
        let unauthenticated = security.is_some_and(|r| r.iter().all(|r| r.is_empty()));
        if !unauthenticated {
            self.apply_mode(headers, method, target, body)?;
        }
        if self.schemes.is_empty() {
            // No scheme credentials (the usual client): what follows would choose none.
            if !unauthenticated && matches!(self.mode, Mode::None) {
                nothing_sent(operation);
            }
            return Ok(CredentialQuery::default());
        }
        let sent = self.schemes_to_send(security, unauthenticated);
        if !unauthenticated && sent.is_empty() && matches!(self.mode, Mode::None) {
            nothing_sent(operation);
        }
        place(headers, sent)
    }

    /// The scheme credentials an attempt sends: those of the first requirement of `security`
    /// that can be met, then those set for every operation (none when `unauthenticated`).
    fn schemes_to_send(
        &self,
        security: Option<&[Requirement]>,
        unauthenticated: bool,
    ) -> Vec<&SchemeAuth> {
        let bearer_mode = matches!(self.mode, Mode::Bearer(_));
        let own = |name: &str| self.schemes.iter().find(|s| s.name == name);
        let chosen = security.and_then(|requirements| {
            security::choose(requirements, |scheme| {
                own(scheme.name).is_some() || (bearer_mode && scheme.kind == SchemeKind::Bearer)
            })
        });
        // A bearer scheme the client's bearer mode already covers has no own credential.
        let mut sent: Vec<&SchemeAuth> = chosen
            .unwrap_or_default()
            .iter()
            .filter_map(|scheme| own(scheme.name))
            .collect();
        if !unauthenticated {
            for auth in self.schemes.iter().filter(|s| s.everywhere) {
                if !sent.iter().any(|s| s.name == auth.name) {
                    sent.push(auth);
                }
            }
        }
        sent
    }

    fn apply_mode(
        &self,
        headers: &mut HeaderMap,
        method: &str,
        target: &str,
        body: &[u8],
    ) -> Result<(), Error> {
        match &self.mode {
            Mode::None => {}
            Mode::Bearer(value) => {
                headers.insert(http::header::AUTHORIZATION, value.clone());
            }
            Mode::Signed {
                api_key,
                secret,
                signer,
            } => {
                let timestamp = unix_timestamp();
                let nonce = new_nonce();
                let hash = content_sha256(body);
                let input = SigningInput {
                    method,
                    path_and_query: target,
                    timestamp: &timestamp,
                    nonce: &nonce,
                    content_sha256: &hash,
                    body,
                };
                let signature = signer.sign(secret.expose_secret().as_bytes(), &input);
                let value = |what: &str, s: &str| {
                    HeaderValue::from_str(s).map_err(|_| {
                        Error::validation(format!(
                            "the signed-mode {what} is not a valid header value"
                        ))
                    })
                };
                let mut signature = value("signature", &signature)?;
                signature.set_sensitive(true);
                headers.insert(header_names::API_KEY, api_key.clone());
                headers.insert(header_names::TIMESTAMP, value("timestamp", &timestamp)?);
                headers.insert(header_names::NONCE, value("nonce", &nonce)?);
                headers.insert(header_names::CONTENT_SHA256, value("content hash", &hash)?);
                headers.insert(header_names::SIGNATURE, signature);
            }
        }
        Ok(())
    }
}

/// Encodes one scheme credential; a credential of the wrong kind for its scheme, or one that
/// cannot travel in a header, is a configuration error.
/// Puts `sent` where each scheme's credential travels: headers, cookies (joined with any
/// cookie already set), and the query pairs returned.
fn place(headers: &mut HeaderMap, sent: Vec<&SchemeAuth>) -> Result<CredentialQuery, Error> {
    let mut query = CredentialQuery::default();
    let mut cookies = Vec::new();
    for auth in sent {
        match &auth.placement {
            Placement::Header(name, value) => {
                headers.insert(name.clone(), value.clone());
            }
            Placement::Query(pair) => {
                if !query.0.is_empty() {
                    query.0.push('&');
                }
                query.0.push_str(pair);
            }
            Placement::Cookie(pair) => cookies.push(pair.as_str()),
        }
    }
    if !cookies.is_empty() {
        let mut all: Vec<String> = headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_owned))
            .collect();
        all.extend(cookies.iter().map(|c| (*c).to_owned()));
        let mut value = HeaderValue::from_str(&all.join("; "))
            .map_err(|_| Error::validation("a cookie credential is not a valid header value"))?;
        value.set_sensitive(true);
        headers.insert(http::header::COOKIE, value);
    }
    Ok(query)
}

/// Logs (debug) that `operation` goes without a credential.
fn nothing_sent(operation: &str) {
    tracing::debug!(
        operation,
        "no credential sent: the operation's `security` names no scheme with a credential set \
         (Config::scheme_credential_everywhere sends one on every operation)"
    );
}

fn scheme_auth(
    scheme: &SecurityScheme,
    credential: &SchemeCredential,
) -> Result<SchemeAuth, Error> {
    let wrong = || {
        Error::config(format!(
            "the credential set for security scheme `{}` is of the wrong kind ({credential:?} for {:?})",
            scheme.name, scheme.kind
        ))
    };
    let placement = match (scheme.kind, credential) {
        (SchemeKind::ApiKey { location, param }, SchemeCredential::ApiKey(key)) => {
            api_key_placement(scheme.name, location, param, key.expose_secret())?
                .ok_or_else(wrong)?
        }
        (SchemeKind::Basic, SchemeCredential::Basic { username, password }) => {
            use base64::Engine as _;
            let pair = format!("{username}:{}", password.expose_secret());
            let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
            authorization(scheme.name, format!("Basic {encoded}"))?
        }
        (SchemeKind::Bearer, SchemeCredential::Bearer(token)) => {
            authorization(scheme.name, format!("Bearer {}", token.expose_secret()))?
        }
        _ => return Err(wrong()),
    };
    Ok(SchemeAuth {
        name: scheme.name,
        placement,
        everywhere: false,
    })
}

/// Where an API key goes: a header, a query parameter or a cookie named `param`; `None` for
/// a location that cannot carry one (a path).
fn api_key_placement(
    scheme: &str,
    location: ParamIn,
    param: &str,
    key: &str,
) -> Result<Option<Placement>, Error> {
    Ok(Some(match location {
        ParamIn::Header => Placement::Header(
            HeaderName::from_bytes(param.to_ascii_lowercase().as_bytes())
                .map_err(|_| Error::config(format!("`{param}` is not a valid header name")))?,
            sensitive(scheme, key.to_owned())?,
        ),
        ParamIn::Query => Placement::Query(format!("{}={}", urlencoding(param), urlencoding(key))),
        ParamIn::Cookie => {
            sensitive(scheme, format!("{param}={key}"))?;
            Placement::Cookie(format!("{param}={key}"))
        }
        ParamIn::Path => return Ok(None),
    }))
}

/// An `Authorization` header carrying `value`.
fn authorization(scheme: &str, value: String) -> Result<Placement, Error> {
    Ok(Placement::Header(
        http::header::AUTHORIZATION,
        sensitive(scheme, value)?,
    ))
}

/// `text` as a header value marked sensitive, or an error naming the scheme when it is not a
/// valid header value.
fn sensitive(scheme: &str, text: String) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::from_str(&text).map_err(|_| {
        Error::config(format!(
            "the credential of security scheme `{scheme}` is not a valid header value"
        ))
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// Percent-encodes a query component.
fn urlencoding(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::DefaultSigner;

    #[derive(Debug)]
    struct BrokenSigner;

    impl Signer for BrokenSigner {
        fn sign(&self, _secret: &[u8], _input: &SigningInput<'_>) -> String {
            "line\nbreak".into()
        }
    }

    #[test]
    fn a_signature_that_cannot_be_encoded_is_a_validation_error() {
        let config = Config::new("http://127.0.0.1:1")
            .signed("key", "secret")
            .signer(Arc::new(BrokenSigner));
        let auth = Auth::new(&config).unwrap();
        let err = auth
            .apply(&mut HeaderMap::new(), ("POST", "op"), "/x", b"{}", None)
            .unwrap_err();
        assert!(matches!(err, Error::Validation { .. }), "{err:?}");
        assert!(err.to_string().contains("signature"), "{err}");
    }

    #[test]
    fn signed_headers_and_redacted_debug() {
        let config = Config::new("http://127.0.0.1:1")
            .signed("key-1", "hunter2-secret")
            .signer(Arc::new(DefaultSigner));
        let auth = Auth::new(&config).unwrap();
        let mut headers = HeaderMap::new();
        auth.apply(&mut headers, ("GET", "op"), "/x", b"", None)
            .unwrap();
        for name in [
            "x-api-key",
            "x-ts",
            "x-nonce",
            "x-content-sha256",
            "x-signature",
        ] {
            assert!(headers.contains_key(name), "{name}");
        }
        assert!(!format!("{auth:?}").contains("hunter2"));
        let bearer = Auth::new(&Config::new("http://127.0.0.1:1").bearer("p.hunter2")).unwrap();
        assert!(!format!("{bearer:?}").contains("hunter2"));
        assert!(Auth::new(&Config::new("http://127.0.0.1:1").signed("", "s")).is_err());
    }
}
