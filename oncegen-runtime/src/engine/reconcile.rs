//! Reconciliation of a write whose outcome is unknown: the lookup request the API's
//! [`OperationLookup`] describes, and what its answer means. The client sends the lookup as an
//! ordinary read (retried like any read, within the write's deadline) and then lets
//! [`decide::after_lookup`](crate::engine::decision::decide::after_lookup) choose between a resend and
//! [`Error::WriteOutcomeUnknown`].

use serde_json::Value;

use crate::engine::decision::decide::Lookup;
use crate::error::{Error, Reconciliation};
use crate::profile::OperationLookup;
use crate::request::Request;
use crate::spec::Method;
use crate::transport::HttpResponse;

/// The lookup of the write `method path` sent with `key`.
pub(crate) fn lookup_request(
    lookup: &OperationLookup,
    key: &str,
    method: Method,
    path: &str,
) -> Request {
    let mut request = Request::new(lookup.spec);
    request.query(lookup.idempotency_key, &key);
    request.query(lookup.method, &method.as_str());
    request.query(lookup.path, &path);
    request
}

/// What the lookup's final answer (after its own retries) says.
pub(crate) fn read_answer(
    lookup: &OperationLookup,
    answer: Result<HttpResponse, Error>,
) -> Reconciliation {
    match answer {
        Ok(response) => {
            let body: Value = serde_json::from_slice(&response.body).unwrap_or(Value::Null);
            let operation_id = body
                .pointer(lookup.found_id)
                .and_then(Value::as_str)
                .map(str::to_owned);
            Reconciliation::Recorded { operation_id }
        }
        Err(Error::Api(api)) if api.code == lookup.not_found => Reconciliation::NotFound,
        Err(Error::Api(api)) if api.code == lookup.ambiguous => Reconciliation::Ambiguous,
        Err(Error::Api(api)) if api.code == lookup.expired => Reconciliation::Expired,
        Err(e) => Reconciliation::Failed {
            message: e.to_string(),
        },
    }
}

/// How the decision reads a reconciliation.
pub(crate) fn as_lookup(found: &Reconciliation) -> Lookup {
    match found {
        Reconciliation::Recorded { .. } => Lookup::Recorded,
        Reconciliation::NotFound => Lookup::NotFound,
        _ => Lookup::Inconclusive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ApiError, ErrorContext};
    use crate::spec::{Idempotency, OperationSpec};
    use bytes::Bytes;
    use http::HeaderMap;

    static FIND: OperationSpec = OperationSpec {
        operation_id: "findWrite",
        method: Method::Get,
        path: "/writes",
        idempotency: Idempotency::None,
        operation_envelope: false,
    };

    const LOOKUP: OperationLookup = OperationLookup {
        spec: &FIND,
        idempotency_key: "key",
        method: "verb",
        path: "target",
        found_id: "/found/id",
        not_found: "nothing_here",
        ambiguous: "too_many",
        expired: "too_old",
    };

    fn api(code: &str) -> Result<HttpResponse, Error> {
        Err(Error::Api(Box::new(ApiError {
            status: 404,
            code: code.into(),
            retryable_code: false,
            message: "m".into(),
            request_id: None,
            field_errors: None,
            details: None,
            retry_after: None,
            body: None,
            body_text: None,
            context: ErrorContext::default(),
        })))
    }

    #[test]
    fn request_names_key_method_and_path() {
        let r = lookup_request(&LOOKUP, "key-0001", Method::Post, "/a b");
        assert_eq!(
            r.path_and_query().unwrap(),
            "/writes?key=key-0001&verb=POST&target=%2Fa%20b"
        );
    }

    #[test]
    fn answers() {
        let found = Ok(HttpResponse {
            status: 200,
            headers: HeaderMap::new(),
            body: Bytes::from_static(br#"{"found":{"id":"w1"}}"#),
        });
        assert_eq!(
            read_answer(&LOOKUP, found),
            Reconciliation::Recorded {
                operation_id: Some("w1".into())
            }
        );
        assert_eq!(
            read_answer(&LOOKUP, api("nothing_here")),
            Reconciliation::NotFound
        );
        assert_eq!(
            read_answer(&LOOKUP, api("too_many")),
            Reconciliation::Ambiguous
        );
        assert_eq!(
            read_answer(&LOOKUP, api("too_old")),
            Reconciliation::Expired
        );
        assert!(matches!(
            read_answer(&LOOKUP, api("other")),
            Reconciliation::Failed { .. }
        ));
        let timeout = Err(Error::Timeout {
            context: Box::default(),
        });
        assert!(matches!(
            read_answer(&LOOKUP, timeout),
            Reconciliation::Failed { .. }
        ));
        assert_eq!(as_lookup(&Reconciliation::NotFound), Lookup::NotFound);
        assert_eq!(as_lookup(&Reconciliation::Expired), Lookup::Inconclusive);
    }
}
