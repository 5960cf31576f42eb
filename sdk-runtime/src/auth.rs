//! Credentials on the wire: the bearer header, built once, or signed mode's five headers,
//! computed for every attempt (fresh `x-ts` and `x-nonce`).

use openapi_conventions::headers;
use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, HeaderValue};

use crate::config::{Config, Credentials};
use crate::error::Error;
use crate::secret::Secret;
use crate::signing::{Signer, SigningInput, content_sha256, new_nonce, unix_timestamp};

/// How one client authenticates its attempts.
pub(crate) enum Auth {
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
        f.write_str(match self {
            Auth::None => "Auth::None",
            Auth::Bearer(_) => "Auth::Bearer([REDACTED])",
            Auth::Signed { .. } => "Auth::Signed([REDACTED])",
        })
    }
}

impl Auth {
    /// Checks and encodes `config`'s credentials once (configuration errors).
    pub fn new(config: &Config) -> Result<Self, Error> {
        Ok(match &config.credentials {
            Credentials::None => Auth::None,
            Credentials::Bearer(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose_secret()))
                    .map_err(|_| {
                        Error::config("the bearer credential is not a valid header value")
                    })?;
                value.set_sensitive(true);
                Auth::Bearer(value)
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
                Auth::Signed {
                    api_key,
                    secret: secret.clone(),
                    signer: config.signer.clone(),
                }
            }
        })
    }

    /// Adds this attempt's credential headers. `target` is the path and query as sent (base
    /// prefix included). A signer output that is not a valid header value is a local failure:
    /// [`Error::Validation`], raised before anything is sent.
    pub fn apply(
        &self,
        headers: &mut HeaderMap,
        method: &str,
        target: &str,
        body: &[u8],
    ) -> Result<(), Error> {
        match self {
            Auth::None => {}
            Auth::Bearer(value) => {
                headers.insert(http::header::AUTHORIZATION, value.clone());
            }
            Auth::Signed {
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
                headers.insert(headers::API_KEY, api_key.clone());
                headers.insert(headers::TIMESTAMP, value("timestamp", &timestamp)?);
                headers.insert(headers::NONCE, value("nonce", &nonce)?);
                headers.insert(headers::CONTENT_SHA256, value("content hash", &hash)?);
                headers.insert(headers::SIGNATURE, signature);
            }
        }
        Ok(())
    }
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
            .apply(&mut HeaderMap::new(), "POST", "/x", b"{}")
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
        auth.apply(&mut headers, "GET", "/x", b"").unwrap();
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
