//! Authentication: the two modes (signed canonical string and bearer), credential status,
//! scopes per the spec's security requirements, and the `allowed_cidrs` IP policy.

use openapi_conventions::headers;
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::errors::ApiError;

/// How a credential authenticates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `x-api-key` + `x-ts` + `x-nonce` + `x-content-sha256` + `x-signature`.
    Signed,
    /// `Authorization: Bearer <prefix>.<secret>`.
    Bearer,
}

impl Mode {
    /// `signed` or `bearer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Signed => "signed",
            Mode::Bearer => "bearer",
        }
    }

    /// The security scheme name the spec uses for this mode.
    pub fn scheme(self) -> &'static str {
        match self {
            Mode::Signed => "SignedAuth",
            Mode::Bearer => "BearerAuth",
        }
    }
}

/// An API credential known to the sandbox (the secret included).
#[derive(Clone, Debug)]
pub struct Credential {
    /// Credential uuid.
    pub id: uuid::Uuid,
    /// Display name.
    pub name: String,
    /// Public key prefix (`x-api-key` value, or the part before the dot of a bearer token).
    pub prefix: String,
    /// Secret (HMAC key in signed mode; after the dot in bearer mode).
    pub secret: String,
    /// Mode.
    pub mode: Mode,
    /// Granted scopes.
    pub scopes: Vec<String>,
    /// Allowed source CIDRs; empty means any source.
    pub allowed_cidrs: Vec<String>,
    /// Enabled flag.
    pub enabled: bool,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Expiry.
    pub expires_at: DateTime<Utc>,
    /// Revocation time.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Last use.
    pub last_used_at: Option<DateTime<Utc>>,
    /// Last source IP.
    pub last_used_ip: Option<String>,
}

impl Credential {
    /// The bearer token `<prefix>.<secret>`.
    pub fn bearer_token(&self) -> String {
        format!("{}.{}", self.prefix, self.secret)
    }

    /// The public JSON item (never the secret).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "name": self.name,
            "prefix": self.prefix,
            "mode": self.mode.as_str(),
            "enabled": self.enabled,
            "created_at": self.created_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            "expires_at": self.expires_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            "revoked_at": self.revoked_at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            "last_used_at": self.last_used_at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            "last_used_ip": self.last_used_ip,
            "scopes": self.scopes,
            "allowed_cidrs": self.allowed_cidrs,
        })
    }
}

/// Accepted clock skew of `x-ts` (the reference does not publish one).
pub const CLOCK_SKEW_SECS: i64 = 300;

/// Base64 SHA-256 of `body`.
pub fn content_sha256(body: &[u8]) -> String {
    B64.encode(Sha256::digest(body))
}

/// The default canonical string the SDK runtime signs (docs/runtime-surface.md).
pub fn canonical_string(
    method: &str,
    path_and_query: &str,
    ts: &str,
    nonce: &str,
    content_sha: &str,
) -> String {
    format!(
        "CCS1-HMAC-SHA256\n{}\n{path_and_query}\n{ts}\n{nonce}\n{content_sha}",
        method.to_ascii_uppercase()
    )
}

/// Base64 HMAC-SHA256 of `message` keyed by `secret`.
pub fn sign(secret: &str, message: &str) -> String {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(message.as_bytes());
    B64.encode(mac.finalize().into_bytes())
}

/// Signed-mode headers for a request (what a signing client sends); handy in tests.
pub fn signed_headers(
    cred: &Credential,
    method: &str,
    path_and_query: &str,
    body: &[u8],
) -> Vec<(String, String)> {
    let ts = Utc::now().timestamp().to_string();
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    let sha = content_sha256(body);
    let sig = sign(
        &cred.secret,
        &canonical_string(method, path_and_query, &ts, &nonce, &sha),
    );
    vec![
        (headers::API_KEY.into(), cred.prefix.clone()),
        (headers::TIMESTAMP.into(), ts),
        (headers::NONCE.into(), nonce),
        (headers::CONTENT_SHA256.into(), sha),
        (headers::SIGNATURE.into(), sig),
    ]
}

/// The credential store and the seen-nonce set.
#[derive(Debug, Default)]
pub struct AuthStore {
    /// Credentials by prefix.
    pub credentials: Vec<Credential>,
    nonces: HashSet<(uuid::Uuid, String)>,
}

/// What the authenticator needs from one request.
pub struct AuthInput<'a> {
    /// Uppercase method.
    pub method: &'a str,
    /// Path and query exactly as received.
    pub path_and_query: &'a str,
    /// Headers.
    pub headers: &'a http::HeaderMap,
    /// Exact body bytes.
    pub body: &'a [u8],
    /// Source IP.
    pub peer: IpAddr,
}

fn header<'a>(headers: &'a http::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl AuthStore {
    /// Adds a credential.
    pub fn insert(&mut self, c: Credential) {
        self.credentials.retain(|x| x.prefix != c.prefix);
        self.credentials.push(c);
    }

    /// Authenticates a request: mode, status, signature, nonce and IP policy.
    pub fn authenticate(&mut self, input: &AuthInput<'_>) -> Result<Credential, ApiError> {
        let h = input.headers;
        let cred = if let Some(auth) = header(h, "authorization") {
            let token = auth
                .strip_prefix("Bearer ")
                .or_else(|| auth.strip_prefix("bearer "))
                .ok_or_else(|| ApiError::unauthorized("Unsupported Authorization scheme."))?;
            let (prefix, secret) = token
                .split_once('.')
                .ok_or_else(|| ApiError::unauthorized("Malformed bearer token."))?;
            let cred = self.find(prefix)?;
            if cred.mode != Mode::Bearer {
                return Err(ApiError::unauthorized(
                    "This credential cannot be used in bearer mode.",
                ));
            }
            if !constant_eq(cred.secret.as_bytes(), secret.as_bytes()) {
                return Err(ApiError::unauthorized("Invalid credentials."));
            }
            cred
        } else if let Some(key) = header(h, headers::API_KEY) {
            let cred = self.find(key)?;
            if cred.mode != Mode::Signed {
                return Err(ApiError::unauthorized(
                    "This credential cannot be used in signed mode.",
                ));
            }
            self.verify_signature(&cred, input)?;
            cred
        } else {
            return Err(ApiError::unauthorized("Credentials are missing."));
        };
        check_status(&cred)?;
        if !ip_allowed(&cred.allowed_cidrs, input.peer) {
            return Err(ApiError::new(
                403,
                "ip_blocked",
                "The source IP is outside the credential's allowlist.",
            ));
        }
        if let Some(c) = self.credentials.iter_mut().find(|c| c.id == cred.id) {
            c.last_used_at = Some(Utc::now());
            c.last_used_ip = Some(input.peer.to_string());
        }
        Ok(cred)
    }

    fn find(&self, prefix: &str) -> Result<Credential, ApiError> {
        self.credentials
            .iter()
            .find(|c| c.prefix == prefix)
            .cloned()
            .ok_or_else(|| ApiError::unauthorized("Invalid credentials."))
    }

    fn verify_signature(
        &mut self,
        cred: &Credential,
        input: &AuthInput<'_>,
    ) -> Result<(), ApiError> {
        let h = input.headers;
        let get = |name: &str, min: usize, max: usize| -> Result<&str, ApiError> {
            let v = header(h, name).ok_or_else(|| {
                ApiError::invalid_signature(&format!("Header {name} is missing."))
            })?;
            if (min..=max).contains(&v.len()) {
                Ok(v)
            } else {
                Err(ApiError::invalid_signature(&format!(
                    "Header {name} must be {min} to {max} characters."
                )))
            }
        };
        let ts = get(headers::TIMESTAMP, 1, 20)?;
        let nonce = get(headers::NONCE, 8, 200)?;
        let sha = get(headers::CONTENT_SHA256, 10, 200)?;
        let sig = get(headers::SIGNATURE, 10, 300)?;
        let ts_num: i64 = ts
            .parse()
            .map_err(|_| ApiError::invalid_signature("x-ts is not a Unix timestamp."))?;
        if (Utc::now().timestamp() - ts_num).abs() > CLOCK_SKEW_SECS {
            return Err(ApiError::invalid_signature(
                "x-ts is outside the accepted clock skew.",
            ));
        }
        if sha != content_sha256(input.body) {
            return Err(ApiError::invalid_signature(
                "x-content-sha256 does not match the body.",
            ));
        }
        let expected = sign(
            &cred.secret,
            &canonical_string(input.method, input.path_and_query, ts, nonce, sha),
        );
        if !constant_eq(expected.as_bytes(), sig.as_bytes()) {
            return Err(ApiError::invalid_signature(
                "The signature does not verify.",
            ));
        }
        if !self.nonces.insert((cred.id, nonce.to_owned())) {
            return Err(ApiError::invalid_signature("The nonce was already used."));
        }
        Ok(())
    }
}

fn check_status(cred: &Credential) -> Result<(), ApiError> {
    if !cred.enabled {
        return Err(ApiError::unauthorized("The credential is disabled."));
    }
    if cred.revoked_at.is_some() {
        return Err(ApiError::unauthorized("The credential is revoked."));
    }
    if cred.expires_at <= Utc::now() {
        return Err(ApiError::unauthorized("The credential is expired."));
    }
    Ok(())
}

/// Checks the credential's scopes against the operation's security requirements
/// (alternatives; each lists the scopes required together).
pub fn check_scopes(
    cred: &Credential,
    security: &[HashMap<String, Vec<String>>],
) -> Result<(), ApiError> {
    let granted: HashSet<&str> = cred.scopes.iter().map(String::as_str).collect();
    let mut any_for_scheme = false;
    for req in security {
        let scopes = req.get(cred.mode.scheme()).or_else(|| {
            if req.len() == 1 {
                req.values().next()
            } else {
                None
            }
        });
        let Some(scopes) = scopes else { continue };
        any_for_scheme = true;
        if scopes.iter().all(|s| granted.contains(s.as_str())) {
            return Ok(());
        }
    }
    if !any_for_scheme {
        return Ok(());
    }
    let needed: Vec<String> = security
        .iter()
        .flat_map(|r| r.values().flatten().cloned())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    Err(ApiError::new(
        403,
        "scope_denied",
        format!(
            "The credential lacks a required scope ({}).",
            needed.join(", ")
        ),
    ))
}

fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `ip` is inside one of `cidrs` (empty list: any IP).
pub fn ip_allowed(cidrs: &[String], ip: IpAddr) -> bool {
    cidrs.is_empty() || cidrs.iter().any(|c| cidr_contains(c, ip))
}

fn cidr_contains(cidr: &str, ip: IpAddr) -> bool {
    let (net, bits) = match cidr.split_once('/') {
        Some((n, b)) => (n, b.parse::<u32>().ok()),
        None => (cidr, None),
    };
    let Ok(net) = net.parse::<IpAddr>() else {
        return false;
    };
    let ip = match (net, ip) {
        (IpAddr::V4(_), IpAddr::V6(v6)) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        _ => ip,
    };
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(i)) => {
            let bits = bits.unwrap_or(32).min(32);
            let mask = if bits == 0 {
                0
            } else {
                u32::MAX << (32 - bits)
            };
            u32::from(n) & mask == u32::from(i) & mask
        }
        (IpAddr::V6(n), IpAddr::V6(i)) => {
            let bits = bits.unwrap_or(128).min(128);
            let mask = if bits == 0 {
                0
            } else {
                u128::MAX << (128 - bits)
            };
            u128::from(n) & mask == u128::from(i) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidr_matching() {
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(ip_allowed(&[], lo));
        assert!(ip_allowed(&["127.0.0.0/8".into()], lo));
        assert!(!ip_allowed(&["203.0.113.0/24".into()], lo));
        assert!(ip_allowed(&["::1/128".into()], "::1".parse().unwrap()));
    }

    #[test]
    fn canonical_string_layout() {
        let s = canonical_string("post", "/v1/x?a=1", "1", "nonce123", "sha");
        assert_eq!(s, "CCS1-HMAC-SHA256\nPOST\n/v1/x?a=1\n1\nnonce123\nsha");
        assert_eq!(
            content_sha256(b""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }
}
