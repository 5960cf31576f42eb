//! Classify: what one attempt's result says about the request, as a pure function of the
//! result (no policy, no budget, no I/O). [`decide`](crate::engine::decision::decide) turns it into an action.

use std::time::Duration;

use http::HeaderMap;

use crate::error::ApiError;
use crate::profile::ApiProfile;
use crate::rate_limit::RateLimitInfo;
use crate::transport::{HttpResponse, TransportError, TransportErrorKind};

/// What an attempt's result says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// 2xx with a JSON (or empty) body.
    Success,
    /// 2xx that is not what the API sends: a non-JSON content type. Often an edge or proxy
    /// answered; the origin may or may not have run it. (A JSON content type whose body does
    /// not decode is found when decoding: [`Error::Decode`](crate::Error::Decode), which keeps
    /// the idempotency key of a write: a 2xx from the API means it was applied.)
    Garbled,
    /// 3xx: not processed here, and never followed.
    Redirect,
    /// 429: rejected before processing; wait (`Retry-After`, else the headers' reset) and resend.
    RateLimited {
        /// The advertised wait, if any.
        wait: Option<Duration>,
    },
    /// An error code the API's profile marks for an automatic identical resend (e.g. "still in
    /// progress"): not processed yet.
    RetryCode {
        /// `Retry-After`, if any.
        wait: Option<Duration>,
    },
    /// Any other 4xx: a final answer (HTTP: the request was not performed). With a JSON body;
    /// or with any body from an API that declares no JSON error envelope.
    Rejected,
    /// 5xx, or a 4xx whose body is not JSON from an API that declares a JSON error envelope
    /// (something in front of it answered): the server may have processed it.
    ServerError,
    /// The connection could not be established: certainly not delivered.
    NotDelivered,
    /// No complete answer (reset, truncated body, timeout): may have been processed.
    Lost {
        /// Whether the attempt timed out.
        timeout: bool,
    },
    /// The body exceeded the cap on a 2xx, 3xx or 4xx (a 5xx counts as [`Class::ServerError`]).
    TooLarge {
        /// The status line that arrived.
        status: u16,
    },
}

/// Classifies an attempt's result, the same for reads and writes (the body of a 2xx is parsed
/// once, when it is decoded).
pub(crate) fn classify(
    result: &Result<HttpResponse, TransportError>,
    profile: &ApiProfile,
) -> Class {
    let response = match result {
        Ok(response) => response,
        Err(e) => return classify_failure(e),
    };
    match response.status {
        200..=299 if well_formed(response) => Class::Success,
        200..=299 => Class::Garbled,
        300..=399 => Class::Redirect,
        429 => Class::RateLimited {
            wait: RateLimitInfo::from_headers(&response.headers).suggested_wait(),
        },
        status => {
            let api = ApiError::from_response(response, Default::default(), &profile.error_body);
            if profile.retries_automatically(&api.code) {
                Class::RetryCode {
                    wait: api.retry_after,
                }
            } else if status >= 500 || (!api.is_json() && profile.declares_error_envelope()) {
                Class::ServerError
            } else {
                Class::Rejected
            }
        }
    }
}

fn classify_failure(e: &TransportError) -> Class {
    match e.kind {
        TransportErrorKind::Connect => Class::NotDelivered,
        TransportErrorKind::Timeout => Class::Lost { timeout: true },
        TransportErrorKind::BodyTooLarge => match e.status {
            Some(status) if status < 500 => Class::TooLarge { status },
            _ => Class::ServerError,
        },
        _ => Class::Lost { timeout: false },
    }
}

/// A 2xx is well formed when its body is empty or its content type (if any) is JSON.
fn well_formed(response: &HttpResponse) -> bool {
    json_content_type(&response.headers) || response.body.iter().all(u8::is_ascii_whitespace)
}

/// Whether `Content-Type` is absent or names JSON (`application/json`, `…+json`).
fn json_content_type(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(http::header::CONTENT_TYPE) else {
        return true;
    };
    value.to_str().is_ok_and(crate::encoding::body::is_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ErrorBody;
    use bytes::Bytes;
    use http::HeaderValue;

    static PROFILE: ApiProfile = ApiProfile {
        automatic_retry_codes: &["in_progress"],
        caller_retry_codes: &[],
        lookup: None,
        error_body: ErrorBody {
            code: &["/error/code"],
            message: &["/error/message"],
            request_id: &[],
            field_errors: &[],
            details: &[],
        },
    };

    fn response(
        status: u16,
        content_type: Option<&'static str>,
        body: &'static str,
    ) -> HttpResponse {
        let mut headers = HeaderMap::new();
        if let Some(ct) = content_type {
            headers.insert(http::header::CONTENT_TYPE, HeaderValue::from_static(ct));
        }
        HttpResponse {
            status,
            headers,
            body: Bytes::from_static(body.as_bytes()),
        }
    }

    fn with_header(mut r: HttpResponse, name: &'static str, value: &'static str) -> HttpResponse {
        r.headers.insert(name, HeaderValue::from_static(value));
        r
    }

    const JSON: Option<&str> = Some("application/json");

    /// One kind of answer: what it is, the attempt's result, its class (the same for a read
    /// and a write: [`classify`] is not told the method).
    type Row = (&'static str, Result<HttpResponse, TransportError>, Class);

    /// Asserts the class of every row.
    fn check(rows: Vec<Row>) {
        for (what, result, class) in rows {
            assert_eq!(classify(&result, &PROFILE), class, "{what}");
        }
    }

    fn secs(s: u64) -> Option<Duration> {
        Some(Duration::from_secs(s))
    }

    #[test]
    fn every_kind_of_2xx() {
        check(vec![
            (
                "2xx JSON",
                Ok(response(201, JSON, r#"{"id":1}"#)),
                Class::Success,
            ),
            ("2xx empty", Ok(response(204, None, "")), Class::Success),
            (
                "2xx problem+json",
                Ok(response(
                    200,
                    Some("application/problem+json; charset=utf-8"),
                    "{}",
                )),
                Class::Success,
            ),
            (
                "2xx JSON without content type",
                Ok(response(200, None, "[]")),
                Class::Success,
            ),
            (
                "2xx HTML",
                Ok(response(200, Some("text/html"), "<html></html>")),
                Class::Garbled,
            ),
            (
                // The API's own answer: decoding finds the broken body and reports
                // `Error::Decode`, which keeps a write's key; a write is never resent for it.
                "2xx broken JSON with a JSON content type",
                Ok(response(200, JSON, r#"{"id":"#)),
                Class::Success,
            ),
        ]);
    }

    #[test]
    fn every_kind_of_3xx_4xx_and_5xx() {
        let retry_after = |r, s| Ok(with_header(r, "retry-after", s));
        check(vec![
            (
                "3xx",
                Ok(with_header(
                    response(307, None, ""),
                    "location",
                    "https://elsewhere.example/x",
                )),
                Class::Redirect,
            ),
            (
                "429 with Retry-After",
                retry_after(
                    response(429, JSON, r#"{"error":{"code":"slow_down"}}"#),
                    "3",
                ),
                Class::RateLimited { wait: secs(3) },
            ),
            (
                "429 with RateLimit-Reset only",
                Ok(with_header(response(429, None, ""), "ratelimit-reset", "7")),
                Class::RateLimited { wait: secs(7) },
            ),
            (
                "automatic retry code",
                retry_after(
                    response(409, JSON, r#"{"error":{"code":"in_progress"}}"#),
                    "1",
                ),
                Class::RetryCode { wait: secs(1) },
            ),
            (
                "other 4xx JSON",
                Ok(response(422, JSON, r#"{"error":{"code":"bad_field"}}"#)),
                Class::Rejected,
            ),
            (
                "4xx HTML from an edge, the API's errors being JSON",
                Ok(response(403, Some("text/html"), "<html>denied</html>")),
                Class::ServerError,
            ),
            (
                "5xx JSON",
                Ok(response(503, JSON, r#"{"error":{"code":"down"}}"#)),
                Class::ServerError,
            ),
            (
                "5xx HTML",
                Ok(response(502, Some("text/html"), "<html/>")),
                Class::ServerError,
            ),
        ]);
    }

    #[test]
    fn every_kind_of_failure() {
        let failure = |kind, status: Option<u16>| {
            let e = TransportError::new(kind, "x");
            Err(match status {
                Some(s) => e.with_status(s),
                None => e,
            })
        };
        check(vec![
            (
                "connect failure",
                failure(TransportErrorKind::Connect, None),
                Class::NotDelivered,
            ),
            (
                "timeout",
                failure(TransportErrorKind::Timeout, None),
                Class::Lost { timeout: true },
            ),
            (
                "reset or truncated body",
                failure(TransportErrorKind::Other, Some(200)),
                Class::Lost { timeout: false },
            ),
            (
                "oversized 2xx body",
                failure(TransportErrorKind::BodyTooLarge, Some(200)),
                Class::TooLarge { status: 200 },
            ),
            (
                "oversized 5xx body",
                failure(TransportErrorKind::BodyTooLarge, Some(500)),
                Class::ServerError,
            ),
        ]);
    }

    /// An API that declares no JSON error envelope may answer its errors in any format
    /// (`oai-tictactoe.yaml` documents `400` as `text/html`): a 4xx is its final answer, a 5xx
    /// still leaves the outcome open.
    #[test]
    fn without_an_error_envelope_a_non_json_4xx_is_final() {
        let taken = Ok(response(400, Some("text/html"), "Square is not empty."));
        assert_eq!(classify(&taken, &ApiProfile::NONE), Class::Rejected);
        let plain = Ok(response(404, Some("text/plain"), "no such board"));
        assert_eq!(classify(&plain, &ApiProfile::NONE), Class::Rejected);
        let down = Ok(response(502, Some("text/html"), "<html/>"));
        assert_eq!(classify(&down, &ApiProfile::NONE), Class::ServerError);
        assert_eq!(classify(&taken, &PROFILE), Class::ServerError);
    }

    #[test]
    fn without_a_profile_no_code_is_resent() {
        let r = Ok(response(409, JSON, r#"{"error":{"code":"in_progress"}}"#));
        assert_eq!(classify(&r, &ApiProfile::NONE), Class::Rejected);
    }
}
