//! The writer process of the PostgreSQL crash tests (this test binary again, running
//! [`pg_writer_child`]): one of several processes sharing one [`PostgresJournal`] and one
//! application state (a file every writer appends to), as replicas of an application share a
//! database.
//!
//! It does what `customer-cloud-sdk/README.md` asks of an application in a fleet: every write carries its
//! intent and an SDK-generated key; it recovers (taking over the entries of writers that died),
//! records each outcome in the shared state, then acknowledges it; it sends a new write only
//! for an intent with no outcome, and leaves to recovery an intent the journal refuses (held
//! under another key). While the database is down it waits and tries again: nothing is sent
//! unjournaled.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use oncegen_runtime::{Config, Error, PostgresJournal, RetryPolicy};

use super::writer::{AppState, Intent, Lane, say, send, var};
use crate::harness::fast;
use crate::writes::Plan;

pub const ENV_DATABASE_URL: &str = "CRASH_WRITER_DATABASE_URL";

/// How long a writer's entries stay its own without renewal (takeover of a killed writer's
/// entries does not wait for it: its sessions close with it).
pub const LEASE: Duration = Duration::from_secs(5);

/// How long a writer waits for the database before it gives up (a restart takes seconds).
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `attempt` until it succeeds, for [`PATIENCE`] (the database may be restarting).
async fn patiently<T, E: std::fmt::Display, F: Future<Output = Result<T, E>>>(
    what: &str,
    mut attempt: impl FnMut() -> F,
) -> T {
    let started = Instant::now();
    loop {
        match attempt().await {
            Ok(value) => return value,
            Err(e) if started.elapsed() < PATIENCE => {
                say(format_args!("waiting ({what}): {e}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

/// Records an applied write's outcome in the shared state, then acknowledges it.
async fn finish(client: &customer_cloud_sdk::Client, app: &mut AppState, intent: &str, key: &str) {
    app.record(intent, key);
    oncegen_runtime::crash_point::reached("acknowledge");
    patiently("acknowledge", || client.acknowledge_write(key)).await;
}

/// Recovers: takes over what the journal holds that is this writer's or whose owner is gone,
/// records and acknowledges each settled outcome. Returns the intents still unknown.
async fn recover(client: &customer_cloud_sdk::Client, app: &mut AppState) -> BTreeSet<String> {
    let recovery = patiently("recovery", || client.recover_writes()).await;
    assert!(recovery.damaged.is_empty(), "{:?}", recovery.damaged);
    let mut unknown = BTreeSet::new();
    for w in &recovery.writes {
        let intent = w
            .intent()
            .expect("every write carries its intent")
            .to_owned();
        if !w.is_settled() {
            say(format_args!("unknown {intent} {}", w.key()));
            unknown.insert(intent);
            continue;
        }
        assert!(
            w.is_applied(),
            "recovered {intent} ({}) was not applied: {:?}",
            w.key(),
            w.outcome
        );
        finish(client, app, &intent, w.key()).await;
        say(format_args!("recovered {intent} {}", w.key()));
    }
    unknown
}

/// The writer: `write` carries out its lane's intents (recovering between rounds until all are
/// done), then idles until killed; `drain` recovers and exits; `prepare` sends `limit`
/// writes with one attempt and no reconciliation (so the sandbox's faults leave them open),
/// then idles until killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the writer process of the PostgreSQL crash tests (run by them)"]
async fn pg_writer_child() {
    let lane = Lane::from_env();
    let mode = var(super::writer::ENV_MODE);
    let limit: usize = var(super::writer::ENV_LIMIT).parse().expect("limit");
    let client = journaled_client(&mode).await;
    let plan = Plan::read(&client).await;
    let mut app = AppState::load(&lane.app);

    say("recovering");
    let unknown = recover(&client, &mut app).await;
    say("ready");
    if mode == "drain" {
        assert!(
            unknown.is_empty(),
            "drained with unknown outcomes: {unknown:?}"
        );
        return;
    }
    let mut progress = Progress {
        limit,
        sent: 0,
        unknown,
    };
    loop {
        app = AppState::load(&lane.app);
        let left = write_round(&client, &mut app, &lane, &plan, &mut progress).await;
        if mode == "prepare" || left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        progress.unknown = recover(&client, &mut app).await;
    }
    say("idle");
    std::future::pending::<()>().await;
}

/// The SDK client of a fleet writer: the parent's server and credential, short timeouts, the
/// shared PostgreSQL journal (waited for while the database is down); in `prepare` mode one
/// attempt and no reconciliation.
async fn journaled_client(mode: &str) -> customer_cloud_sdk::Client {
    let mut config =
        fast(Config::new(var(super::writer::ENV_BASE_URL)).bearer(var(super::writer::ENV_BEARER)));
    if mode == "prepare" {
        config = config.retry_policy(RetryPolicy {
            max_attempts: 1,
            reconcile_unknown_writes: false,
            ..RetryPolicy::default()
        });
    }
    let url = var(ENV_DATABASE_URL);
    let journal = patiently("journal", || {
        PostgresJournal::builder(url.clone()).lease(LEASE).connect()
    })
    .await;
    customer_cloud_sdk::Client::new(config.journal(Arc::new(journal))).expect("client")
}

/// What a writer sent so far, and the intents whose outcome it left unknown.
struct Progress {
    /// The most writes it sends.
    limit: usize,
    sent: usize,
    unknown: BTreeSet<String>,
}

/// One round over the lane: sends each intent without an outcome in `app` (while under the
/// limit and not unknown). Returns how many intents had no outcome at its start.
async fn write_round(
    client: &customer_cloud_sdk::Client,
    app: &mut AppState,
    lane: &Lane,
    plan: &Plan,
    progress: &mut Progress,
) -> usize {
    let mut left = 0;
    for intent in lane.intents() {
        if app.done.contains_key(&intent.id) {
            continue;
        }
        left += 1;
        if progress.sent == progress.limit || progress.unknown.contains(&intent.id) {
            continue;
        }
        progress.sent += 1;
        carry_out(client, app, &intent, plan, &mut progress.unknown).await;
    }
    left
}

/// Sends `intent`, then records and acknowledges its outcome, or adds it to `unknown` when
/// the outcome is unknown. A write the journal refuses is not sent: the database is
/// unreachable, or the intent is held under another key (a writer that died, being taken
/// over); recovery settles it. Any other error fails the writer.
async fn carry_out(
    client: &customer_cloud_sdk::Client,
    app: &mut AppState,
    intent: &Intent,
    plan: &Plan,
    unknown: &mut BTreeSet<String>,
) {
    let key = match send(client, intent, plan).await {
        Ok(key) => key,
        Err(Error::WriteApplied { context, .. }) => context.idempotency_key.expect("key"),
        Err(e) if e.is_write_outcome_unknown() => {
            say(format_args!(
                "unknown {} {}",
                intent.id,
                e.idempotency_key().unwrap_or("-")
            ));
            unknown.insert(intent.id.clone());
            return;
        }
        Err(e @ Error::Journal { .. }) => {
            assert!(e.is_retryable(), "{e}");
            say(format_args!("refused {}: {e}", intent.id));
            return;
        }
        Err(e) => panic!("intent {}: {e}", intent.id),
    };
    finish(client, app, &intent.id, &key).await;
    say(format_args!("acked {} {key}", intent.id));
}
