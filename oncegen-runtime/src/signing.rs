//! Signed-mode authentication: the `Signer` trait, the default canonical string and header values.
//!
//! The reference (5.1) fixes the five headers but does not publish the string that is signed nor
//! the accepted clock skew. [`DefaultSigner`] signs [`canonical_string`] (documented in
//! `docs/runtime-surface.md`); when the provider publishes its scheme, plug another [`Signer`]
//! into [`Config::signer`](crate::Config::signer) without regenerating the SDK.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// First line of the default canonical string.
pub const CANONICAL_PREFIX: &str = "CCS1-HMAC-SHA256";

/// What a [`Signer`] signs for one HTTP attempt.
#[derive(Clone, Copy, Debug)]
pub struct SigningInput<'a> {
    /// Uppercase HTTP method.
    pub method: &'a str,
    /// Path and query exactly as sent, e.g. `/items?limit=10`.
    pub path_and_query: &'a str,
    /// `x-ts` value (Unix seconds).
    pub timestamp: &'a str,
    /// `x-nonce` value.
    pub nonce: &'a str,
    /// `x-content-sha256` value (Base64 SHA-256 of the exact body bytes).
    pub content_sha256: &'a str,
    /// The exact body bytes sent (empty for bodyless requests).
    pub body: &'a [u8],
}

/// Computes the `x-signature` value of a signed-mode request.
pub trait Signer: Send + Sync + fmt::Debug {
    /// Returns the `x-signature` header value for `input`, keyed by the credential `secret`.
    fn sign(&self, secret: &[u8], input: &SigningInput<'_>) -> String;
}

/// The default signer: Base64 HMAC-SHA256 of [`canonical_string`].
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultSigner;

impl Signer for DefaultSigner {
    fn sign(&self, secret: &[u8], input: &SigningInput<'_>) -> String {
        hmac_sha256_base64(secret, canonical_string(input).as_bytes())
    }
}

/// The default canonical string: these lines joined by `\n`, no trailing newline:
/// `CCS1-HMAC-SHA256`, method (uppercase), path and query as sent, `x-ts`, `x-nonce`,
/// `x-content-sha256`.
pub fn canonical_string(input: &SigningInput<'_>) -> String {
    [
        CANONICAL_PREFIX,
        &input.method.to_ascii_uppercase(),
        input.path_and_query,
        input.timestamp,
        input.nonce,
        input.content_sha256,
    ]
    .join("\n")
}

/// Base64 (standard, padded) of the SHA-256 of `body`: the `x-content-sha256` value.
pub fn content_sha256(body: &[u8]) -> String {
    STANDARD.encode(Sha256::digest(body))
}

/// Base64 (standard, padded) of HMAC-SHA256(`key`, `message`).
pub fn hmac_sha256_base64(key: &[u8], message: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC accepts keys of any length");
    mac.update(message);
    STANDARD.encode(mac.finalize().into_bytes())
}

/// A fresh nonce from the thread-local CSPRNG: 24 random bytes, URL-safe Base64 (32 characters).
pub fn new_nonce() -> String {
    let mut bytes = [0u8; 24];
    rand::fill(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The current Unix time in seconds, as sent in `x-ts`.
pub fn unix_timestamp() -> String {
    chrono::Utc::now().timestamp().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_body_hash() {
        assert_eq!(
            content_sha256(b""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }

    #[test]
    fn hmac_known_vector() {
        // RFC 4231 test case 2.
        let mac = hmac_sha256_base64(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            mac,
            STANDARD.encode([
                0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95,
                0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9,
                0x64, 0xec, 0x38, 0x43,
            ])
        );
    }

    #[test]
    fn canonical_layout() {
        let input = SigningInput {
            method: "post",
            path_and_query: "/items?limit=10",
            timestamp: "1700000000",
            nonce: "abcdefgh",
            content_sha256: "hash",
            body: b"",
        };
        assert_eq!(
            canonical_string(&input),
            "CCS1-HMAC-SHA256\nPOST\n/items?limit=10\n1700000000\nabcdefgh\nhash"
        );
    }

    #[test]
    fn nonce_shape() {
        let a = new_nonce();
        let b = new_nonce();
        assert_ne!(a, b);
        assert!((8..=200).contains(&a.len()));
    }
}
