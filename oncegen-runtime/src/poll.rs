//! Waiting: a generic poller ([`poll_until`]) and status-driven waiting ([`wait`]) on any read
//! whose spec says how its status settles ([`PollSpec`], generated from `x-poll`).

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::time::Instant;

use crate::config::WaitPolicy;
use crate::error::{Error, PolledOutcome};
use crate::poll_spec::{PollSpec, Settled};
use crate::response::Response;

/// Reads with `fetch` until the subject settles by `spec`, and returns the subject decoded as
/// `S`. Errors: [`Error::OperationFailed`] for a final failure; [`Error::OperationOutcomeUnknown`]
/// when an unknown status lasts longer than `policy.unknown_patience`; [`Error::WaitTimeout`]
/// after `policy.max_wait`; any error of `fetch`.
pub async fn wait<B, S, F, Fut>(
    spec: &PollSpec,
    policy: &WaitPolicy,
    target: &str,
    fetch: F,
) -> Result<S, Error>
where
    B: Serialize,
    S: DeserializeOwned,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Response<B>, Error>>,
{
    let mut unknown_since: Option<Instant> = None;
    let outcome = |status, subject| {
        Box::new(PolledOutcome {
            target: target.to_owned(),
            status,
            subject,
        })
    };
    let subject = poll_until(policy, target, fetch, |response: Response<B>| {
        let body = serde_json::to_value(response.body()).map_err(|e| {
            Error::validation(format!("{target}: cannot read the polled body: {e}"))
        })?;
        let subject = spec.subject_of(&body).clone();
        match spec.classify(&subject) {
            Settled::Succeeded => Ok(Poll::Ready(subject)),
            Settled::Failed(status) => Err(Error::OperationFailed(outcome(status, subject))),
            Settled::Unknown(status) => {
                let since = *unknown_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= policy.unknown_patience {
                    return Err(Error::OperationOutcomeUnknown(outcome(
                        Some(status),
                        subject,
                    )));
                }
                Ok(Poll::Pending(Some(status)))
            }
            Settled::Pending(status) => {
                unknown_since = None;
                Ok(Poll::Pending(status))
            }
        }
    })
    .await?;
    serde_json::from_value(subject).map_err(|e| {
        Error::validation(format!(
            "{target}: the settled subject does not decode: {e}"
        ))
    })
}

/// The first string (or number, as text) found at one of `pointers` in `value` serialized as
/// JSON: where a receipt carries the id to wait on.
pub fn find_id<T: Serialize>(value: &T, pointers: &[&str]) -> Option<String> {
    let value = serde_json::to_value(value).ok()?;
    pointers.iter().find_map(|p| match value.pointer(p)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// One observation of a polled resource.
#[derive(Clone, Debug, PartialEq)]
pub enum Poll<T> {
    /// Final: stop polling with this value.
    Ready(T),
    /// Not final yet; the observed status, if any.
    Pending(Option<String>),
}

/// Generic poller: calls `fetch`, hands the result to `decide`, and sleeps with exponential
/// backoff (`policy.initial_interval` doubling up to `policy.max_interval`) until `decide` says
/// [`Poll::Ready`], returns an error, or `policy.max_wait` passes ([`Error::WaitTimeout`]).
///
/// Use it for resources whose final state only the caller can judge, e.g. with a generated
/// request builder: `poll_until(&policy, "dnssec", || builder.clone().send(), |r| ...)`.
pub async fn poll_until<S, T, F, Fut, D>(
    policy: &WaitPolicy,
    target: &str,
    mut fetch: F,
    mut decide: D,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<S, Error>>,
    D: FnMut(S) -> Result<Poll<T>, Error>,
{
    let start = Instant::now();
    let mut interval = policy.initial_interval;
    loop {
        let observed = fetch().await?;
        let last_status = match decide(observed)? {
            Poll::Ready(value) => return Ok(value),
            Poll::Pending(status) => status,
        };
        if start.elapsed() + interval > policy.max_wait {
            return Err(Error::WaitTimeout {
                target: target.to_owned(),
                last_status,
            });
        }
        tokio::time::sleep(interval).await;
        interval = (interval * 2).min(policy.max_interval);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const WITH_DONE: PollSpec = PollSpec {
        subject: "/job",
        status: "state",
        done: Some("finished"),
        pending: &[],
        succeeded: &["ok"],
        failed: &["bad", "stopped"],
        unknown: &["lost"],
    };

    const PENDING_ONLY: PollSpec = PollSpec {
        subject: "",
        status: "state",
        done: None,
        pending: &["busy"],
        succeeded: &[],
        failed: &[],
        unknown: &[],
    };

    #[test]
    fn classify_with_a_done_member() {
        let c = |v| WITH_DONE.classify(&v);
        assert_eq!(
            c(json!({"state": "queued", "finished": false})),
            Settled::Pending(Some("queued".into()))
        );
        assert_eq!(
            c(json!({"state": "ok", "finished": true})),
            Settled::Succeeded
        );
        assert_eq!(
            c(json!({"state": "stopped", "finished": true})),
            Settled::Failed(Some("stopped".into()))
        );
        assert_eq!(c(json!({"state": "lost"})), Settled::Unknown("lost".into()));
        // A final status the spec does not list as success is not a success.
        assert_eq!(
            c(json!({"state": "odd", "finished": true})),
            Settled::Failed(Some("odd".into()))
        );
        // Without the done member, a listed final status decides.
        assert_eq!(c(json!({"state": "ok"})), Settled::Succeeded);
        assert_eq!(
            c(json!({"state": "queued"})),
            Settled::Pending(Some("queued".into()))
        );
    }

    #[test]
    fn classify_by_pending_statuses() {
        let c = |v| PENDING_ONLY.classify(&v);
        assert_eq!(
            c(json!({"state": "busy"})),
            Settled::Pending(Some("busy".into()))
        );
        assert_eq!(c(json!({"state": "anything"})), Settled::Succeeded);
        assert_eq!(c(json!({})), Settled::Pending(None));
    }

    #[test]
    fn subject_and_ids() {
        let body = json!({"job": {"id": 7}, "job_id": "j7"});
        assert_eq!(WITH_DONE.subject_of(&body), &json!({"id": 7}));
        assert_eq!(PENDING_ONLY.subject_of(&body), &body);
        assert_eq!(find_id(&body, &["/job/id", "/job_id"]), Some("7".into()));
        assert_eq!(find_id(&body, &["/nope", "/job_id"]), Some("j7".into()));
        assert_eq!(find_id(&body, &["/nope"]), None);
    }
}
