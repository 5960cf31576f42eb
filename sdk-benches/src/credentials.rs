//! The benchmark's credentials and the signed-mode headers the hand-written twins compute, shared
//! by both twins (`requests` on reqwest, `raw_hyper` on hyper).

use oncegen_runtime::signing::{
    CANONICAL_PREFIX, content_sha256, hmac_sha256_base64, new_nonce, unix_timestamp,
};

/// Bearer credential used by the GET paths.
pub const BEARER: &str = "ccs_bench01.s3cr3t-bearer-value-for-benchmarks";
/// Signed-mode key and secret used by the POST paths.
pub const API_KEY: &str = "ccs_bench02";
/// Signed-mode secret.
pub const API_SECRET: &str = "s3cr3t-hmac-key-for-benchmarks-0123456789";

/// The header values of a signed `POST /v1/dns/zones` that the hand-written twins compute for
/// each call: a fresh idempotency key, then the timestamp, nonce, body hash and signature.
pub struct Signed {
    /// `idempotency-key`.
    pub key: String,
    /// `x-ts`.
    pub ts: String,
    /// `x-nonce`.
    pub nonce: String,
    /// `x-content-sha256`.
    pub hash: String,
    /// `x-signature`.
    pub signature: String,
}

impl Signed {
    /// Signs `body` with [`API_SECRET`] as the runtime's signed mode does.
    pub fn new(body: &[u8]) -> Self {
        let key = uuid::Uuid::new_v4().hyphenated().to_string();
        let ts = unix_timestamp();
        let nonce = new_nonce();
        let hash = content_sha256(body);
        let canonical = format!("{CANONICAL_PREFIX}\nPOST\n/v1/dns/zones\n{ts}\n{nonce}\n{hash}");
        let signature = hmac_sha256_base64(API_SECRET.as_bytes(), canonical.as_bytes());
        Self {
            key,
            ts,
            nonce,
            hash,
            signature,
        }
    }
}
