//! A call's side of the [journal](crate::write::journal): which calls are recorded and what
//! settles an entry (how a journaled write becomes a call again is `recovery`'s).

use openapi_conventions::headers;

use http::HeaderName;

use crate::engine::client::Inner;
use crate::engine::prepare::Prepared;
use crate::error::Error;
use crate::transport::HttpResponse;
use crate::write::journal::{JournaledWrite, Settlement, StoredResponse, WriteJournal};

/// Headers a journaled write gets again from the call itself.
const DERIVED: [HeaderName; 5] = [
    http::header::USER_AGENT,
    http::header::ACCEPT,
    http::header::CONTENT_TYPE,
    HeaderName::from_static(headers::IDEMPOTENCY_KEY),
    HeaderName::from_static(headers::CLIENT_REQUEST_ID),
];

/// Runs `step` of `p`'s journal entry within the call's deadline (`total_timeout`): `None` when
/// the deadline passed first, whatever the journal was waiting for.
async fn by_deadline<T>(p: &Prepared, step: impl Future<Output = T>) -> Option<T> {
    match p.deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, step).await.ok(),
        None => Some(step.await),
    }
}

/// Records `p` before its first attempt when it is a write with a key (others are not
/// journaled: without a key a write cannot be settled), within the call's deadline: a record
/// not committed by then fails the call, and nothing is sent.
pub(crate) async fn record(
    journal: &dyn WriteJournal,
    p: &Prepared,
    client: &Inner,
) -> Result<(), Error> {
    let Some(key) = &p.idempotency_key else {
        return Ok(());
    };
    // The headers as the first attempt sends them, credentials excepted.
    let headers = p.headers.to_map(&client.user_agent, 0);
    let write = JournaledWrite {
        key: key.clone(),
        operation_id: p.operation_id.clone().into_owned(),
        method: p.method,
        target: p.url.target().to_owned(),
        server: p.server.as_deref().map(str::to_owned),
        content_type: headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body: p.body.clone(),
        client_request_id: p.client_request_id.clone(),
        intent: p.intent.clone(),
        headers: headers
            .iter()
            .filter(|(name, _)| !DERIVED.contains(name))
            .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
            .collect(),
        base_url: Some(client.config.get_base_url().to_owned()),
        credential: client.credential_id.clone(),
    };
    match by_deadline(p, journal.record(&write)).await {
        Some(recorded) => recorded.map_err(|e| Error::Journal {
            message: e.to_string(),
        }),
        None => Err(Error::Journal {
            message: "the write journal did not record the write within the call's deadline \
                      (total_timeout); nothing was sent"
                .to_owned(),
        }),
    }
}

/// Records the outcome of `p` when `result` is definite (the accepted response, or the error
/// and the final answer that came with it, if any); an unknown outcome leaves the entry open.
/// The entry stays until the application acknowledges it. A failed settlement, or one not
/// done within the call's deadline, is only logged: recovery settles the entry again with the
/// same key, and the call's answer never waits past its deadline.
pub(crate) async fn settle(
    journal: &dyn WriteJournal,
    p: &Prepared,
    result: Result<&HttpResponse, &Error>,
    answer: Option<&HttpResponse>,
) {
    let (Some(key), Some(settlement)) = (&p.idempotency_key, settlement(result, answer)) else {
        return;
    };
    match by_deadline(p, journal.settle(key, &settlement)).await {
        Some(Ok(())) => {}
        Some(Err(e)) => tracing::warn!(error = %e, "the write journal could not record an outcome"),
        None => tracing::warn!(
            "the write journal did not record an outcome within the call's deadline; recovery \
             settles the entry"
        ),
    }
}

/// How a call's result settles its journal entry, `None` while the outcome is unknown.
fn settlement(
    result: Result<&HttpResponse, &Error>,
    answer: Option<&HttpResponse>,
) -> Option<Settlement> {
    match (result, answer) {
        (Ok(response), _) => Some(Settlement::Answered(stored(response))),
        (Err(Error::ResponseTooLarge { status, .. }), _) if (200..300).contains(status) => {
            Some(Settlement::AppliedUnread { status: *status })
        }
        // Unknown; or applied without its answer, which recovery can still fetch (same key).
        (
            Err(Error::WriteOutcomeUnknown(_) | Error::WriteApplied { .. } | Error::Journal { .. }),
            _,
        ) => None,
        // Rejected or redirected, with the answer that says so.
        (Err(_), Some(answer)) => Some(Settlement::Answered(stored(answer))),
        // Certainly never processed.
        (Err(e), None) => Some(Settlement::NotApplied {
            reason: e.to_string(),
        }),
    }
}

/// A response as the journal keeps it.
pub(crate) fn stored(response: &HttpResponse) -> StoredResponse {
    StoredResponse {
        status: response.status,
        headers: response
            .headers
            .iter()
            .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
            .collect(),
        body: response.body.clone(),
    }
}
