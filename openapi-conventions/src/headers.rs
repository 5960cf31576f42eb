//! Header names of the transport conventions the runtime implements and the sandbox serves
//! (lowercase, as HTTP/2 writes them).

/// Fixes one logical write across retries.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// The caller's correlation label.
pub const CLIENT_REQUEST_ID: &str = "x-client-request-id";
/// The server's id of a response.
pub const REQUEST_ID: &str = "x-request-id";
/// Asks for the canonical operation envelope (value [`RESPONSE_FORMAT_OPERATION`]).
pub const RESPONSE_FORMAT: &str = "x-svc-response-format";
/// The value of [`RESPONSE_FORMAT`] that asks for the envelope.
pub const RESPONSE_FORMAT_OPERATION: &str = "operation";
/// Signed mode: the API key.
pub const API_KEY: &str = "x-api-key";
/// Signed mode: the Unix timestamp of the attempt.
pub const TIMESTAMP: &str = "x-ts";
/// Signed mode: the nonce of the attempt.
pub const NONCE: &str = "x-nonce";
/// Signed mode: the Base64 SHA-256 of the body bytes.
pub const CONTENT_SHA256: &str = "x-content-sha256";
/// Signed mode: the signature.
pub const SIGNATURE: &str = "x-signature";

/// The headers the runtime sets itself on every call that needs them: a generated method never
/// takes them as parameters, and a caller's extra header may not replace them.
pub const SET_BY_RUNTIME: &[&str] = &[
    IDEMPOTENCY_KEY,
    CLIENT_REQUEST_ID,
    RESPONSE_FORMAT,
    API_KEY,
    TIMESTAMP,
    NONCE,
    CONTENT_SHA256,
    SIGNATURE,
];
