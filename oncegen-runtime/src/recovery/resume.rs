//! A journaled write as a call again ([`prepared`]: same key, method, path and query, headers,
//! content type and body) and its journaled answer as a response again ([`response`]).

use std::borrow::Cow;

use http::{HeaderMap, HeaderName, HeaderValue};

use crate::auth::endpoint::Endpoint;
use crate::engine::prepare::{Call, CallUrl, Defaults, Prepared};
use crate::error::Error;
use crate::request::CallOptions;
use crate::transport::HttpResponse;
use crate::write::journal::{JournaledWrite, StoredResponse};

/// The journaled answer as a response again.
pub(crate) fn response(stored: &StoredResponse) -> HttpResponse {
    let mut headers = HeaderMap::new();
    for (name, value) in &stored.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.append(name, value);
        }
    }
    HttpResponse {
        status: stored.status,
        headers,
        body: stored.body.clone(),
    }
}

/// A journaled write as a call again: same key, method, path and query, headers, content type
/// and body.
pub(crate) fn prepared(write: &JournaledWrite, d: Defaults<'_>) -> Result<Prepared, Error> {
    let mut options = CallOptions::new();
    if let Some(intent) = &write.intent {
        options.set_intent(intent.clone());
    }
    // This client's `User-Agent` (added per attempt); a journaled `Accept` stays, else the
    // write reads JSON.
    let mut accept = None;
    let mut extra = Vec::with_capacity(write.headers.len());
    for (name, value) in &write.headers {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Error::validation(format!("journaled header name `{name}` is invalid")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| Error::validation(format!("journaled value of `{name}` is invalid")))?;
        match name {
            http::header::USER_AGENT => {}
            http::header::ACCEPT if accept.is_none() => accept = Some(value),
            _ => extra.push((name, value)),
        }
    }
    let own_server;
    let endpoint = match &write.server {
        None => d.endpoint,
        Some(server) => {
            own_server = Endpoint::for_server(server, d.config)?;
            &own_server
        }
    };
    let mut prepared = Prepared::assemble(
        Call {
            operation_id: Cow::Owned(write.operation_id.clone()),
            method: write.method,
            template: Cow::Owned(write.path().to_owned()),
            url: CallUrl::of_target(endpoint, &write.target),
            accept: accept.unwrap_or(HeaderValue::from_static("application/json")),
            extra,
            body: write.body.clone(),
            content_type: write.content_type.clone().map(Cow::Owned),
            idempotency_key: Some(write.key.clone()),
            client_request_id: write.client_request_id.clone(),
        },
        &options,
        d,
    )?;
    prepared.server = write.server.clone().map(Cow::Owned);
    Ok(prepared)
}
