//! Hooks see every attempt: retries, resends, reconciliation lookups and transport failures.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oncegen_runtime::hooks::{AttemptInfo, AttemptOutcome, Hook};
use oncegen_runtime::{CallOptions, Client, Config, Request, RetryPolicy};
use serde_json::Value;

mod common;

use common::{LIST, config, create_request, flaky_server, with_key};

/// Counts attempts and keeps what it saw of each.
#[derive(Debug, Default)]
struct Counting {
    before: AtomicU64,
    seen: Mutex<Vec<(String, u32, Option<u16>)>>,
}

impl Hook for Counting {
    fn before_send(&self, _attempt: &AttemptInfo<'_>) {
        self.before.fetch_add(1, Ordering::SeqCst);
    }

    fn after_response(&self, attempt: &AttemptInfo<'_>, outcome: &AttemptOutcome<'_>) {
        self.seen.lock().unwrap().push((
            attempt.operation_id.to_owned(),
            attempt.attempt,
            outcome.status(),
        ));
    }
}

#[tokio::test]
async fn a_counting_hook_sees_every_attempt() {
    let server = flaky_server().await;
    let hook = Arc::new(Counting::default());
    let client = Client::new(config(&server).hook(hook.clone())).unwrap();
    client
        .execute::<Value>(create_request(), with_key("hooked-write-1"))
        .await
        .unwrap();
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    let received = server.received_requests().await.unwrap().len();
    assert_eq!(received, 5);
    assert_eq!(hook.before.load(Ordering::SeqCst), 5);
    let seen = hook.seen.lock().unwrap().clone();
    let expected = [
        ("createThing", 1, Some(503)),
        ("getOperations", 1, Some(404)),
        ("createThing", 2, Some(201)),
        ("listThings", 1, Some(500)),
        ("listThings", 2, Some(200)),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(op, n, s)| ((*op).to_owned(), *n, *s))
        .collect();
    assert_eq!(seen, expected);

    // Attempts that never got an answer are seen too.
    let hook = Arc::new(Counting::default());
    let unreachable = Config::new("http://127.0.0.1:1")
        .retry_policy(RetryPolicy {
            max_attempts: 2,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(2),
            ..RetryPolicy::default()
        })
        .hook(hook.clone());
    Client::new(unreachable)
        .unwrap()
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(hook.before.load(Ordering::SeqCst), 2);
    let seen = hook.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|(_, _, status)| status.is_none()));
}
