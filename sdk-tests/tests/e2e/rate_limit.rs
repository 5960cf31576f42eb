//! A 429 storm: many concurrent tasks share one client against a sandbox with a small rate
//! budget. From the sandbox's request log timestamps: no request is sent before `Retry-After`
//! has elapsed, and after each 429 burst exactly one request (the probe) goes first — retries
//! after a 429 are never parallel.

use std::collections::BTreeMap;
use std::time::Duration;

use cloud_sandbox::{RequestRecord, SandboxConfig};
use customer_cloud_sdk::{CallBuilder, RetryPolicy};

use crate::harness::{Env, real_target_configured};

const TASKS: usize = 12;
const CALLS_PER_TASK: usize = 2;
/// Requests per one-second window per credential.
const BUDGET: u32 = 8;
/// Clock granularity allowed when comparing with `Retry-After` (timers never fire early; this
/// only absorbs rounding).
const GRANULARITY: Duration = Duration::from_millis(2);
/// Requests already on the wire when a 429 was answered may still arrive shortly after it; a
/// generous bound, far below the one-second `Retry-After`.
const IN_FLIGHT: Duration = Duration::from_millis(300);

fn responded(r: &RequestRecord) -> std::time::Instant {
    r.responded_at.expect("a 429 is always answered")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_storm_waits_for_retry_after_and_never_retries_in_parallel() {
    if real_target_configured() {
        eprintln!(
            "e2e: skipping the 429 storm against the real target: it needs the sandbox's rate limiter and request log"
        );
        return;
    }
    let env = Env::sandbox_with(SandboxConfig {
        rate_limit: Some((BUDGET, Duration::from_secs(1))),
        ..SandboxConfig::default()
    })
    .await;
    let client_attempts = storm(storm_client(&env)).await;

    let log: Vec<RequestRecord> = env
        .sb()
        .requests()
        .into_iter()
        .filter(|r| {
            r.client_request_id
                .as_deref()
                .is_some_and(|id| id.starts_with("storm-"))
        })
        .collect();
    let limited: Vec<&RequestRecord> = log.iter().filter(|r| r.status == 429).collect();
    assert!(!limited.is_empty(), "the storm hit the rate limit");
    assert!(log.iter().all(|r| r.status == 429 || r.succeeded()));
    assert_each_call_waits_for_retry_after(&log, &client_attempts);
    assert_the_client_waits_then_probes_alone(&log, &limited);
    let span = log.last().unwrap().received_at - log[0].received_at;
    println!(
        "429 storm: {} calls from {TASKS} tasks, {} requests, {} answered 429, over {span:.1?}",
        TASKS * CALLS_PER_TASK,
        log.len(),
        limited.len()
    );
}

/// One client (one 429 gate) for every task, as an application would share it, patient
/// enough to outlast the storm.
fn storm_client(env: &Env) -> customer_cloud_sdk::Client {
    customer_cloud_sdk::Client::new(
        env.config()
            .total_timeout(Duration::from_secs(60))
            .retry_policy(RetryPolicy {
                max_attempts: 40,
                initial_backoff: Duration::from_millis(5),
                max_backoff: Duration::from_millis(50),
                max_retry_after: Duration::from_secs(5),
                ..RetryPolicy::default()
            }),
    )
    .expect("client")
}

/// `TASKS` concurrent tasks each make `CALLS_PER_TASK` calls through `client`; returns each
/// call's client request id with the attempts the client reported for it.
async fn storm(client: customer_cloud_sdk::Client) -> BTreeMap<String, u32> {
    let mut tasks = Vec::new();
    for t in 0..TASKS {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            let mut attempts = Vec::new();
            for n in 0..CALLS_PER_TASK {
                let id = format!("storm-{t}-{n}");
                let r = client
                    .get_regions()
                    .limit(5)
                    .client_request_id(id.clone())
                    .send()
                    .await
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                attempts.push((id, r.meta().attempts));
            }
            attempts
        }));
    }
    let mut client_attempts = BTreeMap::new();
    for t in tasks {
        client_attempts.extend(t.await.expect("task"));
    }
    client_attempts
}

/// Per call: the server saw as many attempts as the client counted, the last succeeded, and
/// every attempt after a 429 arrived after its Retry-After.
fn assert_each_call_waits_for_retry_after(
    log: &[RequestRecord],
    client_attempts: &BTreeMap<String, u32>,
) {
    let mut by_call: BTreeMap<&str, Vec<&RequestRecord>> = BTreeMap::new();
    for r in log {
        by_call
            .entry(r.client_request_id.as_deref().unwrap())
            .or_default()
            .push(r);
    }
    assert_eq!(by_call.len(), TASKS * CALLS_PER_TASK);
    for (id, attempts) in &by_call {
        assert_eq!(
            attempts.len() as u32,
            client_attempts[*id],
            "{id}: the client's attempt count matches the server's log"
        );
        assert!(attempts.last().unwrap().succeeded(), "{id} ends in success");
        for pair in attempts.windows(2) {
            let (prev, next) = (pair[0], pair[1]);
            assert_eq!(prev.status, 429, "{id}: only 429s are retried here");
            let ra = Duration::from_secs(prev.retry_after.expect("Retry-After"));
            assert!(
                next.received_at + GRANULARITY >= responded(prev) + ra,
                "{id}: retry {:?} after the 429, Retry-After {ra:?}",
                next.received_at - responded(prev)
            );
        }
    }
}

/// Whole client: after each of the `limited` answers, nothing new goes out until Retry-After
/// has elapsed, and then one probe goes alone until it is answered.
fn assert_the_client_waits_then_probes_alone(log: &[RequestRecord], limited: &[&RequestRecord]) {
    for r in limited {
        let ra = Duration::from_secs(r.retry_after.expect("Retry-After"));
        let quiet_from = responded(r) + IN_FLIGHT;
        let quiet_until = responded(r) + ra;
        let early: Vec<_> = log
            .iter()
            .filter(|q| q.received_at >= quiet_from && q.received_at + GRANULARITY < quiet_until)
            .map(|q| q.client_request_id.clone())
            .collect();
        assert!(
            early.is_empty(),
            "requests sent before Retry-After elapsed: {early:?}"
        );
        let probe = log
            .iter()
            .find(|q| q.received_at >= quiet_from)
            .expect("the storm continues after each 429");
        let probe_done = probe.responded_at.expect("answered");
        let parallel: Vec<_> = log
            .iter()
            .filter(|q| q.received_at > probe.received_at && q.received_at < probe_done)
            .map(|q| q.client_request_id.clone())
            .collect();
        assert!(
            parallel.is_empty(),
            "requests sent while the probe {:?} was in flight: {parallel:?}",
            probe.client_request_id
        );
    }
}
