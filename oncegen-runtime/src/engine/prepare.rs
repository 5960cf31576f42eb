//! A call ready to be sent any number of times: URL, headers, idempotency key and body bytes
//! fixed once, every local check done (a failure here is a validation error: nothing was sent).

use openapi_conventions::headers;
use std::borrow::Cow;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue};
use tokio::time::Instant;

use crate::auth::endpoint::Endpoint;
use crate::config::Config;
use crate::error::{Error, ErrorContext};
use crate::header_names;
use crate::idempotency::{
    generate_idempotency_key, validate_client_request_id, validate_idempotency_key,
};
use crate::rate_limit::RateLimitInfo;
use crate::request::{CallOptions, Request};
use crate::retry::RetryPolicy;
use crate::security::Requirement;
use crate::spec::Method;

/// A prepared call.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// Operation id (logs, errors, spans).
    pub operation_id: Cow<'static, str>,
    /// HTTP method.
    pub method: Method,
    /// Path template of the operation (the span's `url.template`).
    pub template: Cow<'static, str>,
    /// Where the call goes.
    pub url: CallUrl,
    /// Headers of every attempt, credentials excepted.
    pub headers: Headers,
    /// Exact body bytes.
    pub body: Bytes,
    /// The `Idempotency-Key`, fixed for the whole call.
    pub idempotency_key: Option<String>,
    /// The `x-client-request-id`, if any.
    pub client_request_id: Option<String>,
    /// The application's intent (journaled, never sent).
    #[cfg(feature = "journal")]
    pub intent: Option<String>,
    /// The operation's own server, before routing (journaled: recovery sends the write there
    /// again); `None`: the base URL.
    #[cfg(feature = "journal")]
    pub server: Option<Cow<'static, str>>,
    /// End of the whole call: none until its clock starts ([`Self::start_clock`]).
    pub deadline: Option<Instant>,
    /// Length of the whole call (`deadline` counts from when the clock started).
    pub total: Option<Duration>,
    /// Limit of one attempt.
    pub attempt_timeout: Option<Duration>,
    /// Retry policy of this call.
    pub policy: RetryPolicy,
    /// The operation's `security` (`None`: the client's bearer or signed credentials only).
    pub security: Option<&'static [Requirement]>,
}

/// What every call of one client shares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Defaults<'a> {
    pub config: &'a Config,
    pub endpoint: &'a Endpoint,
}

impl Prepared {
    /// Starts the call's clock: its deadline counts from now. Done once, where the call
    /// starts (its first poll), not when it is prepared: one clock read per call.
    pub(crate) fn start_clock(&mut self) {
        self.deadline = deadline(self.total);
    }

    /// Whether the call reads a JSON body (the default `Accept`), so that a 2xx in another
    /// media type is a garbled answer; a call asking for text or bytes takes any 2xx body.
    pub fn expects_json(&self) -> bool {
        self.headers.accept.as_bytes() == b"application/json"
    }

    /// Validates and assembles `request` with `options`: the request's own encoding failure
    /// first, then keys and ids checked, a key generated for writes that send one, headers
    /// encoded.
    pub fn new(request: &Request, options: &CallOptions, d: Defaults<'_>) -> Result<Self, Error> {
        let overridden;
        let request = match options.overrides() {
            None => request,
            Some(overrides) => {
                overridden = request.clone().with_overrides(overrides)?;
                &overridden
            }
        };
        if let Some(message) = request.error() {
            return Err(Error::validation(message));
        }
        options.validate()?;
        let url = match request.server_url() {
            None => CallUrl::of_request(d.endpoint, request)?,
            Some(server) => CallUrl::of_request(&Endpoint::for_server(server, d.config)?, request)?,
        };
        let spec = request.spec();
        let CallerHeaders {
            extra,
            mut idempotency_key,
            client_request_id,
        } = CallerHeaders::of(request, options)?;
        if spec.idempotency.sends_key() && idempotency_key.is_none() {
            idempotency_key = Some(generate_idempotency_key());
        }
        // Generated code passes only visible ASCII; anything else asks for any type.
        let accept =
            static_value(request.accept_header()).unwrap_or(HeaderValue::from_static("*/*"));
        let (body, content_type) = match request.body_parts() {
            Some((bytes, content_type)) => (bytes.clone(), Some(content_type.clone())),
            None => (Bytes::new(), None),
        };
        let call = Call {
            operation_id: Cow::Borrowed(spec.operation_id),
            method: spec.method,
            template: Cow::Borrowed(spec.path),
            url,
            accept,
            extra,
            body,
            content_type,
            idempotency_key,
            client_request_id,
        };
        let mut prepared = Self::assemble(call, options, d)?;
        prepared.security = request.security_requirements();
        #[cfg(feature = "journal")]
        {
            prepared.server = request.server_url().map(Cow::Borrowed);
        }
        Ok(prepared)
    }

    /// The call's identity, for errors.
    pub fn context(&self, attempts: u32) -> ErrorContext {
        ErrorContext {
            operation_id: Some(self.operation_id.clone().into_owned()),
            method: Some(self.method),
            path: Some(self.url.path().to_owned()),
            idempotency_key: self.idempotency_key.clone(),
            client_request_id: self.client_request_id.clone(),
            request_id: None,
            rate_limit: RateLimitInfo::default(),
            attempts,
        }
    }

    /// Whether the call is a write (not a safe method).
    pub fn is_write(&self) -> bool {
        self.method.is_write()
    }

    /// The prepared call of `call`'s parts with the options and the client's defaults.
    pub(crate) fn assemble(
        call: Call,
        options: &CallOptions,
        d: Defaults<'_>,
    ) -> Result<Self, Error> {
        let Call {
            operation_id,
            method,
            template,
            url,
            accept,
            extra,
            body,
            content_type,
            idempotency_key,
            client_request_id,
        } = call;
        let key_value = match &idempotency_key {
            Some(key) => Some(header_value(headers::IDEMPOTENCY_KEY, key)?),
            None => None,
        };
        let client_request_id_value = match &client_request_id {
            Some(id) => Some(header_value(headers::CLIENT_REQUEST_ID, id)?),
            None => None,
        };
        let content_type = match content_type {
            Some(content_type) => Some(content_type_value(content_type)?),
            None => None,
        };
        let headers = Headers {
            accept,
            extra,
            idempotency_key: key_value,
            client_request_id: client_request_id_value,
            operation_format: options.operation_format(),
            content_type,
        };
        let total = options.timeout().or(d.config.timeouts.total);
        Ok(Self {
            operation_id,
            method,
            template,
            url,
            headers,
            body,
            idempotency_key,
            client_request_id,
            #[cfg(feature = "journal")]
            intent: options.intent().map(str::to_owned),
            #[cfg(feature = "journal")]
            server: None,
            deadline: None,
            total,
            attempt_timeout: options.attempt_timeout().or(d.config.timeouts.attempt),
            policy: options.retry_policy().unwrap_or(&d.config.retry).clone(),
            security: None,
        })
    }
}

/// The end of a call of length `total` starting now (a limit too far to represent is none).
fn deadline(total: Option<Duration>) -> Option<Instant> {
    total.and_then(|t| Instant::now().checked_add(t))
}

/// The parts of a call before the client's defaults are added: `extra` are the request's and
/// the options' own headers, in order.
pub(crate) struct Call {
    pub operation_id: Cow<'static, str>,
    pub method: Method,
    pub template: Cow<'static, str>,
    pub url: CallUrl,
    pub accept: HeaderValue,
    pub extra: Vec<(HeaderName, HeaderValue)>,
    pub body: Bytes,
    pub content_type: Option<Cow<'static, str>>,
    pub idempotency_key: Option<String>,
    pub client_request_id: Option<String>,
}

/// The headers the caller set (the request's, then the options'), with the idempotency key
/// and client request id taken out of them: the options' own win over the request's headers.
struct CallerHeaders {
    extra: Vec<(HeaderName, HeaderValue)>,
    idempotency_key: Option<String>,
    client_request_id: Option<String>,
}

impl CallerHeaders {
    /// Checks and encodes the caller's headers of `request` and `options`.
    #[inline]
    fn of(request: &Request, options: &CallOptions) -> Result<Self, Error> {
        let mut idempotency_key = options.idempotency_key().map(str::to_owned);
        let mut client_request_id = options.client_request_id().map(str::to_owned);
        let mut extra = Vec::new();
        for (name, value) in request.headers() {
            let lower = name.to_ascii_lowercase();
            match lower.as_str() {
                headers::IDEMPOTENCY_KEY => {
                    validate_idempotency_key(value)?;
                    idempotency_key.get_or_insert_with(|| value.clone());
                    continue;
                }
                headers::CLIENT_REQUEST_ID => {
                    validate_client_request_id(value)?;
                    client_request_id.get_or_insert_with(|| value.clone());
                    continue;
                }
                _ => {}
            }
            extra.push((header_name(name)?, header_value(name, value)?));
        }
        for (name, value) in options.headers() {
            extra.push((header_name(name)?, header_value(name, value)?));
        }
        Ok(Self {
            extra,
            idempotency_key,
            client_request_id,
        })
    }
}

/// The headers of every attempt, credentials excepted, as their parts: each attempt builds its
/// map once from them, sized for its credentials too, rather than cloning a prepared map.
#[derive(Clone, Debug)]
pub(crate) struct Headers {
    /// `Accept`.
    pub accept: HeaderValue,
    /// The request's and the call options' own headers, in order (most calls have none).
    pub extra: Vec<(HeaderName, HeaderValue)>,
    /// `Idempotency-Key`.
    pub idempotency_key: Option<HeaderValue>,
    /// `x-client-request-id`.
    pub client_request_id: Option<HeaderValue>,
    /// Whether `x-svc-response-format: operation` is sent.
    pub operation_format: bool,
    /// `Content-Type`.
    pub content_type: Option<HeaderValue>,
}

impl Headers {
    /// The map of one attempt, with room for `room` more headers (its credentials). The
    /// runtime's own headers go first, the caller's after them, then the ones the call fixes
    /// (each replacing a caller's header of the same name): the wire order is stable.
    pub fn to_map(&self, user_agent: &HeaderValue, room: usize) -> HeaderMap {
        let fixed = [
            self.idempotency_key.is_some(),
            self.client_request_id.is_some(),
            self.operation_format,
            self.content_type.is_some(),
        ];
        let len = 2 + self.extra.len() + fixed.iter().filter(|set| **set).count();
        // Room too for what the HTTP stack adds (`Host`), so that the map never grows.
        let mut map = HeaderMap::with_capacity(len + room + 1);
        map.insert(http::header::USER_AGENT, user_agent.clone());
        map.insert(http::header::ACCEPT, self.accept.clone());
        for (name, value) in &self.extra {
            map.append(name.clone(), value.clone());
        }
        if let Some(key) = &self.idempotency_key {
            map.insert(header_names::IDEMPOTENCY_KEY, key.clone());
        }
        if let Some(id) = &self.client_request_id {
            map.insert(header_names::CLIENT_REQUEST_ID, id.clone());
        }
        if self.operation_format {
            map.insert(
                header_names::RESPONSE_FORMAT,
                HeaderValue::from_static(headers::RESPONSE_FORMAT_OPERATION),
            );
        }
        if let Some(content_type) = &self.content_type {
            map.insert(http::header::CONTENT_TYPE, content_type.clone());
        }
        map
    }
}

/// A call's absolute URL in one buffer (base URL, path, query), with the parts the call also
/// needs as ranges of it: the signed target (base prefix, path and query) and the API path.
#[derive(Clone, Debug)]
pub(crate) struct CallUrl {
    text: String,
    /// Start of the base URL's path prefix: the signed target runs from here to the end.
    signed_from: usize,
    /// Start of the API path (after the base URL): the target runs from here to the end.
    path_from: usize,
    /// End of the API path (start of `?query`, or the end).
    path_to: usize,
}

impl CallUrl {
    /// The URL of `request` against `endpoint`, rendered once.
    pub fn of_request(endpoint: &Endpoint, request: &Request) -> Result<Self, Error> {
        let base = &endpoint.base;
        let mut text =
            String::with_capacity(base.len() + request.path_len_hint() + request.query_len_hint());
        text.push_str(base);
        request.write_path(&mut text)?;
        let path_to = text.len();
        text.push('?');
        request.write_query(&mut text);
        if text.len() == path_to + 1 {
            text.truncate(path_to);
        }
        Ok(Self::from_parts(endpoint, text, path_to))
    }

    /// The URL of `target` (API path and query as sent) against `endpoint`.
    #[cfg(feature = "journal")]
    pub fn of_target(endpoint: &Endpoint, target: &str) -> Self {
        let text = format!("{}{target}", endpoint.base);
        let path_to = endpoint.base.len() + target.find('?').unwrap_or(target.len());
        Self::from_parts(endpoint, text, path_to)
    }

    fn from_parts(endpoint: &Endpoint, text: String, path_to: usize) -> Self {
        // `Endpoint::new` refuses a query or fragment, so the base ends with its path prefix.
        debug_assert!(endpoint.base.ends_with(&endpoint.base_path));
        Self {
            text,
            signed_from: endpoint.base.len() - endpoint.base_path.len(),
            path_from: endpoint.base.len(),
            path_to,
        }
    }

    /// The absolute URL.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Base prefix, path and query: what is signed.
    pub fn signed_target(&self) -> &str {
        &self.text[self.signed_from..]
    }

    /// API path as sent, without base prefix or query.
    pub fn path(&self) -> &str {
        &self.text[self.path_from..self.path_to]
    }

    /// API path and query as sent, without base prefix (what a journal replays).
    #[cfg(feature = "journal")]
    pub fn target(&self) -> &str {
        &self.text[self.path_from..]
    }
}

fn header_name(name: &str) -> Result<HeaderName, Error> {
    HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes())
        .map_err(|_| Error::validation(format!("invalid header name `{name}`")))
}

/// A `'static` header value, without a copy when it is visible ASCII; `None` if invalid.
fn static_value(text: &'static str) -> Option<HeaderValue> {
    // The default `Accept` of nearly every call: one comparison, not a test per byte.
    const JSON: &str = "application/json";
    if text == JSON {
        return Some(HeaderValue::from_static(JSON));
    }
    // What `HeaderValue::from_static` accepts (it panics on anything else).
    if text.bytes().all(|b| b == b'\t' || (32..127).contains(&b)) {
        Some(HeaderValue::from_static(text))
    } else {
        HeaderValue::from_str(text).ok()
    }
}

/// The `Content-Type` of a body: without a copy when it is a `'static` visible ASCII text.
fn content_type_value(content_type: Cow<'static, str>) -> Result<HeaderValue, Error> {
    let value = match content_type {
        Cow::Borrowed(text) => static_value(text),
        Cow::Owned(text) => HeaderValue::from_str(&text).ok(),
    };
    value.ok_or_else(|| Error::validation("invalid value for header `content-type`"))
}

fn header_value(name: &str, value: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_str(value)
        .map_err(|_| Error::validation(format!("invalid value for header `{name}`")))
}
