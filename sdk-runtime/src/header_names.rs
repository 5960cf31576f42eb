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
