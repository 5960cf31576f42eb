//! Request assembly (`Request`: path parameters, query, headers, JSON, form or raw body) and per-call options (`CallOptions`).

use openapi_conventions::headers;
use std::borrow::Cow;
use std::fmt::Display;

use percent_encoding::utf8_percent_encode;
use std::time::Duration;

use bytes::Bytes;

use crate::encoding::multipart;
use crate::encoding::params::encode_component;
use crate::encoding::params::{self, ParamStyle};
use crate::error::Error;
use crate::idempotency::{validate_client_request_id, validate_idempotency_key};
use crate::overrides::Overrides;
use crate::retry::RetryPolicy;
use crate::security::Requirement;
use crate::spec::OperationSpec;
use crate::spec::ParamIn;

/// Standard headers the runtime sets itself (auth, framing); with
/// [`headers::SET_BY_RUNTIME`] (signing, idempotency, correlation) a caller's extra header may
/// not replace them.
const RESERVED_HEADERS: &[&str] = &[
    "authorization",
    "content-length",
    "content-type",
    "host",
    "user-agent",
];

/// Per-call options exposed by the generated fluent builders.
#[derive(Clone, Debug, Default)]
pub struct CallOptions {
    idempotency_key: Option<String>,
    client_request_id: Option<String>,
    intent: Option<String>,
    operation_format: bool,
    timeout: Option<Duration>,
    attempt_timeout: Option<Duration>,
    retry_policy: Option<RetryPolicy>,
    headers: Vec<(String, String)>,
    /// The call's escape hatches (boxed: most calls have none).
    overrides: Option<Box<Overrides>>,
}

impl CallOptions {
    /// New default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses this `Idempotency-Key` instead of a generated one (validated before any I/O).
    pub fn set_idempotency_key(&mut self, key: impl Into<String>) {
        self.idempotency_key = Some(key.into());
    }

    /// Sends this `x-client-request-id` (validated before any I/O).
    pub fn set_client_request_id(&mut self, id: impl Into<String>) {
        self.client_request_id = Some(id.into());
    }

    /// Ties the call to the application's own identifier of what it does (an order line, a
    /// job id): never sent, kept in the write journal (feature `journal`) and handed back by
    /// recovery, so the application knows which of its intents a recovered write was.
    pub fn set_intent(&mut self, intent: impl Into<String>) {
        self.intent = Some(intent.into());
    }

    /// Sends `x-svc-response-format: operation` (canonical operation envelope).
    pub fn set_operation_format(&mut self, on: bool) {
        self.operation_format = on;
    }

    /// Sets the whole-call timeout of this call (retries and waits included).
    pub fn set_timeout(&mut self, whole_call: Duration) {
        self.timeout = Some(whole_call);
    }

    /// Sets the timeout of each HTTP attempt of this call.
    pub fn set_attempt_timeout(&mut self, per_attempt: Duration) {
        self.attempt_timeout = Some(per_attempt);
    }

    /// Uses this retry policy for this call instead of the client's.
    pub fn set_retry_policy(&mut self, policy: RetryPolicy) {
        self.retry_policy = Some(policy);
    }

    /// Adds a header to every attempt of this call (checked before any I/O: it may not be one
    /// the runtime sets itself, such as auth, signing or idempotency headers).
    pub fn add_header(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.headers.push((name.into(), value.into()));
    }

    /// The call's escape hatches (extra query parameters, extra body fields, a raw JSON body),
    /// created empty on first use.
    pub fn overrides_mut(&mut self) -> &mut Overrides {
        self.overrides.get_or_insert_with(Box::default)
    }

    /// The call's escape hatches, if any was set.
    pub fn overrides(&self) -> Option<&Overrides> {
        self.overrides.as_deref()
    }

    /// The caller's idempotency key, if any.
    pub fn idempotency_key(&self) -> Option<&str> {
        self.idempotency_key.as_deref()
    }

    /// The caller's client request id, if any.
    pub fn client_request_id(&self) -> Option<&str> {
        self.client_request_id.as_deref()
    }

    /// The application's intent, if any.
    pub fn intent(&self) -> Option<&str> {
        self.intent.as_deref()
    }

    /// Whether the canonical operation envelope is requested.
    pub fn operation_format(&self) -> bool {
        self.operation_format
    }

    /// The per-call whole-call timeout, if any.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The per-call attempt timeout, if any.
    pub fn attempt_timeout(&self) -> Option<Duration> {
        self.attempt_timeout
    }

    /// The per-call retry policy, if any.
    pub fn retry_policy(&self) -> Option<&RetryPolicy> {
        self.retry_policy.as_ref()
    }

    /// The caller's extra headers.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// Validates the options (before any I/O): key and correlation id formats, non-zero
    /// timeouts, a retry policy with at least one attempt, and extra headers that are valid and
    /// do not replace a header the runtime sets.
    pub fn validate(&self) -> Result<(), Error> {
        if let Some(key) = &self.idempotency_key {
            validate_idempotency_key(key)?;
        }
        if let Some(id) = &self.client_request_id {
            validate_client_request_id(id)?;
        }
        if self.timeout.is_some_and(|t| t.is_zero()) {
            return Err(Error::validation(
                "the call timeout must be greater than zero",
            ));
        }
        if self.attempt_timeout.is_some_and(|t| t.is_zero()) {
            return Err(Error::validation(
                "the attempt timeout must be greater than zero",
            ));
        }
        if let Some(policy) = &self.retry_policy {
            if policy.enabled && policy.max_attempts == 0 {
                return Err(Error::validation(
                    "the retry policy allows zero attempts: use RetryPolicy::disabled() for one",
                ));
            }
            if policy.max_backoff < policy.initial_backoff {
                return Err(Error::validation(
                    "the retry policy's max_backoff is below its initial_backoff",
                ));
            }
        }
        for (name, value) in &self.headers {
            let lower = name.to_ascii_lowercase();
            if RESERVED_HEADERS.contains(&lower.as_str())
                || headers::SET_BY_RUNTIME.contains(&lower.as_str())
            {
                return Err(Error::validation(format!(
                    "header `{name}` is set by the SDK itself (auth, signing, idempotency or framing) and cannot be added to a call"
                )));
            }
            if http::HeaderName::from_bytes(lower.as_bytes()).is_err() {
                return Err(Error::validation(format!("invalid header name `{name}`")));
            }
            if http::HeaderValue::from_str(value).is_err() {
                return Err(Error::validation(format!(
                    "invalid value for header `{name}`"
                )));
            }
        }
        Ok(())
    }
}

/// One request being assembled by generated code for an [`OperationSpec`].
///
/// A parameter or body that cannot be encoded does not stop the assembly: the first such
/// failure is kept, and the call fails with it ([`Error::Validation`]) before any I/O.
#[derive(Clone, Debug)]
pub struct Request {
    spec: &'static OperationSpec,
    /// Name (borrowed from the template when it is there) and encoded value.
    path_params: Vec<(Cow<'static, str>, String)>,
    query: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    body: Option<(Bytes, Cow<'static, str>)>,
    accept: Option<&'static str>,
    security: Option<&'static [Requirement]>,
    server: Option<&'static str>,
    error: Option<String>,
}

impl Request {
    /// Starts a request for `spec`.
    pub fn new(spec: &'static OperationSpec) -> Self {
        Self {
            spec,
            path_params: Vec::new(),
            query: Vec::new(),
            headers: Vec::new(),
            body: None,
            accept: None,
            security: None,
            server: None,
            error: None,
        }
    }

    /// Sets the `Accept` header: the media types the chosen response format reads
    /// (`text/csv`, `application/pdf, image/png`); `application/json` when never set.
    pub fn accept(&mut self, media_types: &'static str) {
        self.accept = Some(media_types);
    }

    /// The `Accept` header the call sends.
    pub fn accept_header(&self) -> &'static str {
        self.accept.unwrap_or("application/json")
    }

    /// Sets the operation's `security`: alternatives of schemes sent together (an empty one:
    /// none). Without it the client's bearer or signed credentials go on every request.
    pub fn security(&mut self, requirements: &'static [Requirement]) {
        self.security = Some(requirements);
    }

    /// Sends the request to the operation's own server (`servers` on the operation or its
    /// path, an absolute URL) instead of the client's base URL, unless
    /// [`Config::route_server`](crate::Config::route_server) routes that server elsewhere.
    pub fn server(&mut self, url: &'static str) {
        self.server = Some(url);
    }

    /// The operation's own server, if set.
    pub fn server_url(&self) -> Option<&'static str> {
        self.server
    }

    /// The operation's `security`, if set.
    pub fn security_requirements(&self) -> Option<&'static [Requirement]> {
        self.security
    }

    /// Whether [`Self::accept`] was called.
    pub fn accept_is_set(&self) -> bool {
        self.accept.is_some()
    }

    /// The message of the assembly's first encoding failure, if any: the call fails with it
    /// as [`Error::Validation`] before any I/O.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Keeps the first failure of the assembly.
    fn fail(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(match error {
                Error::Validation { message } => message,
                other => other.to_string(),
            });
        }
    }

    /// The operation.
    pub fn spec(&self) -> &'static OperationSpec {
        self.spec
    }

    /// Sets the path parameter `name` (its `{name}` in the template); the value is
    /// percent-encoded as one segment.
    pub fn path_param(&mut self, name: &str, value: &dyn Display) {
        self.path_params
            .push((template_name(self.spec.path, name), encoded(value)));
    }

    /// Adds parameter `name` of any shape (objects, lists, nested values) serialized by its
    /// OpenAPI `style` and `explode` (see [`ParamStyle`](crate::ParamStyle)); `null` adds nothing. A value that cannot
    /// be serialized so is kept as the request's [`error`](Self::error).
    pub fn param<T: serde::Serialize + ?Sized>(
        &mut self,
        location: ParamIn,
        name: &str,
        style: ParamStyle,
        explode: bool,
        value: &T,
    ) {
        let value = match serde_json::to_value(value) {
            Ok(value) => value,
            Err(e) => {
                return self.fail(Error::validation(format!(
                    "cannot serialize parameter `{name}`: {e}"
                )));
            }
        };
        match params::serialize(name, &value, location, style, explode) {
            Ok(pairs) => self.add_pairs(location, &value, explode, pairs),
            Err(e) => self.fail(e),
        }
    }

    /// Puts serialized parameter pairs where `location` says.
    fn add_pairs(
        &mut self,
        location: ParamIn,
        value: &serde_json::Value,
        explode: bool,
        pairs: Vec<(String, String)>,
    ) {
        match location {
            ParamIn::Query => self.query.extend(pairs),
            ParamIn::Path => self
                .path_params
                .extend(pairs.into_iter().map(|(n, v)| (Cow::Owned(n), v))),
            ParamIn::Header => self.headers.extend(pairs),
            ParamIn::Cookie => {
                for (name, text) in pairs {
                    // An exploded object is already `k=v; k2=v2`.
                    let cookie = if value.is_object() && explode {
                        text
                    } else {
                        format!("{name}={text}")
                    };
                    self.cookie(cookie);
                }
            }
        }
    }

    /// Adds parameter `name` whose value travels as its JSON text (`content: application/json`).
    pub fn json_param<T: serde::Serialize + ?Sized>(
        &mut self,
        location: ParamIn,
        name: &str,
        value: &T,
    ) {
        match serde_json::to_string(value) {
            Ok(text) => self.param(location, name, ParamStyle::Form, false, &text),
            Err(e) => self.fail(Error::validation(format!(
                "cannot serialize parameter `{name}`: {e}"
            ))),
        }
    }

    /// Adds `name=value` pairs to the `Cookie` header.
    fn cookie(&mut self, pair: String) {
        match self
            .headers
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case("cookie"))
        {
            Some((_, existing)) => {
                existing.push_str("; ");
                existing.push_str(&pair);
            }
            None => self.headers.push(("cookie".to_owned(), pair)),
        }
    }

    /// Adds the query parameter `name=value` (percent-encoded).
    pub fn query(&mut self, name: &str, value: &dyn Display) {
        self.query.push((name.to_owned(), encoded(value)));
    }

    /// Adds the query parameter `name=value` when `value` is set; `None` sends nothing.
    pub fn query_opt<T: Display>(&mut self, name: &str, value: Option<&T>) {
        if let Some(value) = value {
            self.query(name, value);
        }
    }

    /// Adds `name=v1,v2,…` (each value percent-encoded, literal commas). Nothing is added for an
    /// empty slice.
    pub fn query_csv<T: Display>(&mut self, name: &str, values: &[T]) {
        if values.is_empty() {
            return;
        }
        let joined = values
            .iter()
            .map(|v| encode_component(&v.to_string()))
            .collect::<Vec<_>>()
            .join(",");
        self.query.push((name.to_owned(), joined));
    }

    /// Adds a header. `Idempotency-Key` and `x-client-request-id` set here are treated like
    /// the [`CallOptions`] setters (validated, kept across retries).
    pub fn header(&mut self, name: &str, value: &dyn Display) {
        self.headers.push((name.to_owned(), value.to_string()));
    }

    /// Adds a header when `value` is set, as [`header`](Self::header); `None` sends nothing.
    pub fn header_opt<T: Display>(&mut self, name: &str, value: Option<&T>) {
        if let Some(value) = value {
            self.header(name, value);
        }
    }

    /// Serializes `body` as the JSON body (the exact bytes are then fixed for every attempt).
    pub fn json_body<B: serde::Serialize + ?Sized>(&mut self, body: &B) {
        match serde_json::to_vec(body) {
            Ok(bytes) => self.body = Some((Bytes::from(bytes), Cow::Borrowed("application/json"))),
            Err(e) => self.fail(Error::validation(format!(
                "cannot serialize the request body: {e}"
            ))),
        }
    }

    /// Serializes `body` as an `application/x-www-form-urlencoded` body: `key=value` pairs
    /// joined by `&`, percent-encoded, `None` fields left out, lists of scalars repeating the
    /// key, nested objects and lists in brackets (`a[b]=c`, `a[0][b]=c`). `body` must serialize
    /// as an object.
    pub fn form_body<B: serde::Serialize + ?Sized>(&mut self, body: &B) {
        let encoded = serde_json::to_value(body)
            .map_err(|e| {
                Error::validation(format!("cannot serialize the request body as a form: {e}"))
            })
            .and_then(|value| params::form(&value));
        match encoded {
            Ok(text) => {
                let form = Cow::Borrowed("application/x-www-form-urlencoded");
                self.body = Some((Bytes::from(text), form));
            }
            Err(e) => self.fail(e),
        }
    }

    /// Sets a raw body with its content type.
    pub fn raw_body(&mut self, body: impl Into<Bytes>, content_type: &'static str) {
        self.body = Some((body.into(), Cow::Borrowed(content_type)));
    }

    /// Serializes `body` (an object) as a `multipart/form-data` body, encoded once with a fresh
    /// boundary (see [`FilePart`](crate::FilePart) for file parts).
    pub fn multipart_body<B: serde::Serialize + ?Sized>(&mut self, body: &B) {
        let boundary = format!("sdk-{}", uuid::Uuid::new_v4().simple());
        let encoded = serde_json::to_value(body)
            .map_err(|e| Error::validation(format!("cannot serialize the multipart body: {e}")))
            .and_then(|value| multipart::encode(&value, &boundary));
        match encoded {
            Ok(bytes) => {
                let media = format!("multipart/form-data; boundary={boundary}");
                self.body = Some((bytes, Cow::Owned(media)));
            }
            Err(e) => self.fail(e),
        }
    }

    /// The body bytes and content type, if any.
    pub fn body(&self) -> Option<(&Bytes, &str)> {
        self.body.as_ref().map(|(b, c)| (b, c.as_ref()))
    }

    /// The body bytes and content type as set (a `'static` one borrowed).
    pub(crate) fn body_parts(&self) -> Option<&(Bytes, Cow<'static, str>)> {
        self.body.as_ref()
    }

    /// Extra headers, in insertion order.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The request with a call's escape hatches applied: query parameters replaced or added,
    /// the body replaced or its fields set (see [`Overrides`]).
    pub(crate) fn with_overrides(mut self, overrides: &Overrides) -> Result<Self, Error> {
        if let Some(message) = self.error.take() {
            return Err(Error::validation(message));
        }
        overrides.apply_to_query(&mut self.query);
        self.body = overrides.apply_to_body(self.body.take())?;
        Ok(self)
    }

    /// Renders the path (template with encoded parameters), without the query string.
    pub fn render_path(&self) -> Result<String, Error> {
        let mut out = String::with_capacity(self.path_len_hint());
        self.write_path(&mut out)?;
        Ok(out)
    }

    /// About how long the rendered path is (for one allocation of the right size).
    pub(crate) fn path_len_hint(&self) -> usize {
        self.spec.path.len() + self.path_params.iter().map(|(_, v)| v.len()).sum::<usize>()
    }

    /// About how long the rendered query is, `?` included.
    pub(crate) fn query_len_hint(&self) -> usize {
        self.query
            .iter()
            .map(|(n, v)| n.len() + v.len() + 2)
            .sum::<usize>()
    }

    /// Appends the rendered path to `out`.
    pub(crate) fn write_path(&self, out: &mut String) -> Result<(), Error> {
        let template = self.spec.path;
        let mut rest = template;
        while let Some((start, end)) = next_param(rest) {
            out.push_str(&rest[..start]);
            let end = end
                .ok_or_else(|| Error::validation(format!("malformed path template {template}")))?;
            let name = &rest[start + 1..end];
            let value = self
                .path_params
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| Error::validation(format!("missing path parameter `{name}`")))?;
            if value.is_empty() || value == "." || value == ".." {
                return Err(Error::validation(format!(
                    "path parameter `{name}` must not be empty, `.` or `..`"
                )));
            }
            out.push_str(value);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Ok(())
    }

    /// Renders the query string (without `?`), empty when there is none.
    pub fn render_query(&self) -> String {
        let mut out = String::new();
        self.write_query(&mut out);
        out
    }

    /// Appends the query string to `out` (nothing when there is none).
    pub(crate) fn write_query(&self, out: &mut String) {
        for (i, (name, value)) in self.query.iter().enumerate() {
            if i > 0 {
                out.push('&');
            }
            out.extend(utf8_percent_encode(name, params::COMPONENT));
            out.push('=');
            out.push_str(value);
        }
    }

    /// Path and query, e.g. `/items?limit=10`.
    pub fn path_and_query(&self) -> Result<String, Error> {
        let path = self.render_path()?;
        let query = self.render_query();
        Ok(if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        })
    }
}

/// `name` as a slice of `template` when `{name}` is in it (no allocation), else a copy.
fn template_name(template: &'static str, name: &str) -> Cow<'static, str> {
    let mut rest = template;
    while let Some((start, Some(end))) = next_param(rest) {
        if &rest[start + 1..end] == name {
            return Cow::Borrowed(&rest[start + 1..end]);
        }
        rest = &rest[end + 1..];
    }
    Cow::Owned(name.to_owned())
}

/// Where the next `{name}` of a path template is in `text`: its `{`, and its `}` if it is
/// closed. A plain byte scan: templates are short, and `str::find`'s searcher costs more than
/// the scan itself (measured in `BENCHMARKS.md`).
fn next_param(text: &str) -> Option<(usize, Option<usize>)> {
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|&b| b == b'{')?;
    let end = bytes[start..].iter().position(|&b| b == b'}');
    Some((start, end.map(|e| start + e)))
}

/// RFC 3986 unreserved bytes (what `params::COMPONENT` leaves as they are), by byte value: one
/// load per byte of a path parameter, about half the instructions of testing the ranges.
const UNRESERVED: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
        i += 1;
    }
    table
};

/// `value` formatted and percent-encoded as one component: one `String`, reused as it is when
/// nothing needs escaping (an id, a number, a name), else the encoded copy.
fn encoded(value: &dyn Display) -> String {
    let text = value.to_string();
    if text.bytes().all(|b| UNRESERVED[usize::from(b)]) {
        text
    } else {
        utf8_percent_encode(&text, params::COMPONENT).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Idempotency, Method};

    static SPEC: OperationSpec = OperationSpec {
        operation_id: "getRecord",
        method: Method::Get,
        path: "/zones/{name}/records/{id}",
        idempotency: Idempotency::None,
        operation_envelope: false,
    };

    #[test]
    fn form_body_encodes_flat_objects() {
        #[derive(serde::Serialize)]
        struct Form<'a> {
            client_id: uuid::Uuid,
            grant_type: &'a str,
            ttl: Option<u32>,
            note: Option<&'a str>,
        }
        let mut r = Request::new(&SPEC);
        r.form_body(&Form {
            client_id: uuid::Uuid::nil(),
            grant_type: "urn:ietf:params:oauth:grant-type:device_code",
            ttl: Some(60),
            note: None,
        });
        assert!(r.error().is_none());
        let (bytes, content_type) = r.body().unwrap();
        assert_eq!(content_type, "application/x-www-form-urlencoded");
        assert_eq!(
            std::str::from_utf8(bytes).unwrap(),
            "client_id=00000000-0000-0000-0000-000000000000\
             &grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&ttl=60"
        );

        #[derive(serde::Serialize)]
        struct Nested {
            items: Vec<u8>,
        }
        r.form_body(&Nested { items: vec![1, 2] });
        assert_eq!(r.body().unwrap().0.as_ref(), b"items=1&items=2");
        r.form_body(&[1, 2]);
        let err = r.error().expect("kept");
        assert!(err.contains("object of fields"), "{err}");
    }

    #[test]
    fn renders_path_and_query() {
        let mut r = Request::new(&SPEC);
        r.path_param("name", &"a b/c");
        r.path_param("id", &7);
        r.query("q", &"x&y=z");
        r.query_csv("tags", &["red", "blue"]);
        r.query_csv::<String>("empty", &[]);
        assert_eq!(
            r.path_and_query().unwrap(),
            "/zones/a%20b%2Fc/records/7?q=x%26y%3Dz&tags=red,blue"
        );
    }

    #[test]
    fn the_unreserved_fast_path_encodes_as_percent_encoding_does() {
        for text in [
            "",
            "abc-XYZ_0.9~",
            "a b",
            "a/b?c#d",
            "100%",
            "é",
            "\u{1F600}",
            "~-._",
            "+,;=",
        ] {
            assert_eq!(encoded(&text), encode_component(text), "{text:?}");
        }
        for byte in 0..=127u8 {
            let text = char::from(byte).to_string();
            assert_eq!(encoded(&text), encode_component(&text), "{byte}");
        }
    }

    #[test]
    fn rejects_missing_and_dot_segments() {
        let mut r = Request::new(&SPEC);
        r.path_param("name", &"example.com");
        assert!(r.render_path().is_err());
        r.path_param("id", &"..");
        assert!(r.render_path().is_err());
    }

    #[test]
    fn an_unclosed_template_brace_is_an_error_and_names_outside_it_are_copied() {
        static UNCLOSED: OperationSpec = OperationSpec {
            operation_id: "getRecord",
            method: Method::Get,
            path: "/zones/{name}/records/{id",
            idempotency: Idempotency::None,
            operation_envelope: false,
        };
        let mut r = Request::new(&UNCLOSED);
        r.path_param("name", &"example.com");
        r.path_param("id", &"7");
        assert!(matches!(r.path_params[0].0, Cow::Borrowed("name")));
        assert!(matches!(r.path_params[1].0, Cow::Owned(ref id) if id == "id"));
        let message = r.render_path().unwrap_err().to_string();
        assert!(message.contains("malformed path template"), "{message}");
    }

    #[test]
    fn options_validation() {
        let mut o = CallOptions::new();
        o.set_idempotency_key("short");
        assert!(o.validate().is_err());
        let mut o = CallOptions::new();
        o.set_client_request_id("-bad");
        assert!(o.validate().is_err());
        let mut o = CallOptions::new();
        o.set_idempotency_key("good-key-123");
        o.set_client_request_id("trace.1");
        assert!(o.validate().is_ok());
    }

    #[test]
    fn per_call_overrides_that_make_no_sense_are_refused() {
        let refused = |o: CallOptions| o.validate().unwrap_err().to_string();
        let mut o = CallOptions::new();
        o.set_timeout(Duration::ZERO);
        assert!(refused(o).contains("call timeout must be greater than zero"));
        let mut o = CallOptions::new();
        o.set_attempt_timeout(Duration::ZERO);
        assert!(refused(o).contains("attempt timeout must be greater than zero"));
        let mut o = CallOptions::new();
        o.set_retry_policy(RetryPolicy {
            max_attempts: 0,
            ..RetryPolicy::default()
        });
        assert!(refused(o).contains("zero attempts"));
        for clash in [
            "Idempotency-Key",
            "x-signature",
            "Authorization",
            "X-Api-Key",
        ] {
            let mut o = CallOptions::new();
            o.add_header(clash, "v");
            assert!(refused(o).contains("set by the SDK itself"), "{clash}");
        }
        let mut o = CallOptions::new();
        o.add_header("bad header", "v");
        assert!(refused(o).contains("invalid header name"));
        let mut o = CallOptions::new();
        o.add_header("x-trace", "line\nbreak");
        assert!(refused(o).contains("invalid value"));
        let mut o = CallOptions::new();
        o.set_timeout(Duration::from_secs(5));
        o.set_attempt_timeout(Duration::from_secs(1));
        o.set_retry_policy(RetryPolicy::disabled());
        o.add_header("x-trace", "abc");
        assert!(o.validate().is_ok());
    }
}
