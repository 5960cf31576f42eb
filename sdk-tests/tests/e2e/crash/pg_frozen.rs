//! A hung database (every server process stopped with SIGSTOP: connections open, nothing
//! answers) never holds a journaled call past its deadline: a write the API answered returns
//! its answer, a new write fails closed (nothing sent), an acknowledgement and a recovery fail
//! within the journal's own time limit. Once the database answers again, the answered write's
//! entry is settled by recovery, once, and the refused write is nowhere.
//!
//! The calls' journal is given a 60 s limit, so only the call's deadline (2 s) can end its
//! journal steps in time; the margin asserted (10 s) leaves room for any machine load, and the
//! old behaviour (a 30 s statement timeout) fails it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use customer_cloud_sdk::CallBuilder as _;
use oncegen_runtime::hooks::{AttemptInfo, AttemptOutcome, Hook};
use oncegen_runtime::{Error, PostgresJournal};
use sdk_tests::postgres::{Cluster, Frozen};

use super::postgres::cluster;
use super::*;

/// The deadline of the calls, and the journal limit of acknowledgements and recovery.
const BUDGET: Duration = Duration::from_secs(2);
/// What each of them may take at most, machine load included.
const AT_MOST: Duration = Duration::from_secs(10);

/// Freezes the cluster once an armed attempt's response arrived: after its record, before its
/// settlement.
#[derive(Debug)]
struct FreezeAfterResponse {
    cluster: Arc<Cluster>,
    armed: AtomicBool,
    frozen: Mutex<Option<Frozen>>,
}

impl Hook for FreezeAfterResponse {
    fn after_response(&self, _: &AttemptInfo<'_>, _: &AttemptOutcome<'_>) {
        if self.armed.swap(false, Ordering::SeqCst) {
            let frozen = self.cluster.freeze().expect("the database freezes");
            *self.frozen.lock().unwrap() = Some(frozen);
        }
    }
}

fn ended_in_time(what: &str, started: Instant) {
    let took = started.elapsed();
    assert!(
        took < AT_MOST,
        "{what} took {took:?} with a budget of {BUDGET:?}"
    );
    println!("postgres journal frozen: {what} ended after {took:?} (budget {BUDGET:?})");
}

async fn journal(url: &str, limit: Duration) -> PostgresJournal {
    PostgresJournal::builder(url)
        .namespace("frozen")
        .timeout(limit)
        .connect()
        .await
        .expect("journal connects")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_database_never_holds_a_journaled_call_past_its_deadline() {
    let test = "a_frozen_database_never_holds_a_journaled_call_past_its_deadline";
    let Some(env) = Env::sandbox_only(test, "the request log").await else {
        return;
    };
    let Some(cluster) = cluster("frozen") else {
        return;
    };
    let sb = env.sb();
    let cluster = Arc::new(cluster);
    let url = cluster.url();
    let (patient, quick) = (
        journal(&url, 60 * BUDGET).await,
        journal(&url, BUDGET).await,
    );
    let hook = Arc::new(FreezeAfterResponse {
        cluster: cluster.clone(),
        armed: AtomicBool::new(true),
        frozen: Mutex::new(None),
    });
    let config = || fast(Config::new(sb.base_url()).bearer(sb.credentials().bearer.bearer_token()));
    let client = |config: Config, journal: &PostgresJournal| {
        customer_cloud_sdk::Client::new(config.journal(Arc::new(journal.clone()))).unwrap()
    };
    let budgeted = client(config().total_timeout(BUDGET).hook(hook.clone()), &patient);
    let limited = client(config(), &quick);

    let started = Instant::now();
    let answered = zone(&budgeted, "frozen-1.example").send().await;
    let answered = answered.expect("the API answered: the call returns its answer");
    ended_in_time("a write the API answered, its settlement hung", started);
    assert!(
        hook.frozen.lock().unwrap().is_some(),
        "frozen after the answer"
    );
    let key = answered.meta().idempotency_key.clone().unwrap();
    while_frozen(sb, &budgeted, &limited, &key).await;
    drop(hook.frozen.lock().unwrap().take());
    after_the_thaw(sb, &client(config(), &patient), &key).await;
}

/// A new write (`budgeted`: the call's deadline) fails closed; an acknowledgement and a
/// recovery (`limited`: the journal's limit) fail; each in time.
async fn while_frozen(
    sb: &Sandbox,
    budgeted: &customer_cloud_sdk::Client,
    limited: &customer_cloud_sdk::Client,
    answered: &str,
) {
    sb.clear_requests();
    let started = Instant::now();
    let refused = zone(budgeted, "frozen-2.example").send().await.unwrap_err();
    ended_in_time("a new write", started);
    assert!(matches!(refused, Error::Journal { .. }), "{refused:?}");
    assert!(
        refused.to_string().contains("nothing was sent"),
        "{refused}"
    );
    assert!(
        sb.requests().iter().all(|r| r.method != "POST"),
        "nothing sent"
    );

    let started = Instant::now();
    limited.acknowledge_write(answered).await.unwrap_err();
    ended_in_time("an acknowledgement", started);
    let started = Instant::now();
    limited.recover_writes().await.unwrap_err();
    ended_in_time("a recovery", started);
}

/// The answered write's entry was left for recovery, which settles it (applied once); the
/// refused write is not in the journal. A write recorded first waits for the recorder to be
/// done with the refused one.
async fn after_the_thaw(sb: &Sandbox, client: &customer_cloud_sdk::Client, answered: &str) {
    let later = zone(client, "frozen-3.example")
        .send()
        .await
        .expect("thawed");
    let later = later.meta().idempotency_key.clone().unwrap();
    client.acknowledge_write(&later).await.unwrap();
    let recovery = client
        .recover_writes()
        .await
        .expect("recovery after the thaw");
    let keys: Vec<&str> = recovery
        .writes
        .iter()
        .map(|w| w.write.key.as_str())
        .collect();
    assert_eq!(keys, [answered], "only the answered write is open");
    assert!(
        recovery.writes[0].outcome.is_ok(),
        "{:?}",
        recovery.writes[0].outcome
    );
    assert_eq!(sb.applied_writes(answered), 1);
    client.acknowledge_write(answered).await.unwrap();
}

fn zone<'c>(
    client: &'c customer_cloud_sdk::Client,
    name: &str,
) -> customer_cloud_sdk::dns::builders::CreateDnsZone<'c> {
    client
        .create_dns_zone(customer_cloud_sdk::dns::CreateDnsZoneRequest::new(
            name.to_owned(),
        ))
        .intent(name)
}
