//! The transport header names every call reads or sets, as parsed `HeaderName`s: a name given
//! as `&str` is parsed and validated again on every lookup or insert.

use http::HeaderName;
use openapi_conventions::headers;

/// `x-request-id`.
pub(crate) const REQUEST_ID: HeaderName = HeaderName::from_static(headers::REQUEST_ID);
/// `Idempotency-Key`.
pub(crate) const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static(headers::IDEMPOTENCY_KEY);
/// `x-client-request-id`.
pub(crate) const CLIENT_REQUEST_ID: HeaderName =
    HeaderName::from_static(headers::CLIENT_REQUEST_ID);
/// `x-svc-response-format`.
pub(crate) const RESPONSE_FORMAT: HeaderName = HeaderName::from_static(headers::RESPONSE_FORMAT);
/// `x-api-key` (signed mode).
pub(crate) const API_KEY: HeaderName = HeaderName::from_static(headers::API_KEY);
/// `x-ts` (signed mode).
pub(crate) const TIMESTAMP: HeaderName = HeaderName::from_static(headers::TIMESTAMP);
/// `x-nonce` (signed mode).
pub(crate) const NONCE: HeaderName = HeaderName::from_static(headers::NONCE);
/// `x-content-sha256` (signed mode).
pub(crate) const CONTENT_SHA256: HeaderName = HeaderName::from_static(headers::CONTENT_SHA256);
/// `x-signature` (signed mode).
pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static(headers::SIGNATURE);
