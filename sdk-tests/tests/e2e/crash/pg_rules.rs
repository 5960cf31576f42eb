//! The PostgreSQL journal's rules for a fleet, without crashes, against a real PostgreSQL (a
//! throwaway cluster the test starts): recovery claims are exclusive, a live owner's entries are
//! left alone until its lease expires, an intent goes out under one key, an unreachable database
//! fails a write closed (nothing sent), a dropped connection loses nothing, and a schema newer
//! than the SDK is refused. Writers under different roles, given only the documented grants on
//! tables an administrator created, see one another's sessions; where a role may not read
//! `pg_stat_activity`, claims wait for leases.

use std::collections::BTreeSet;

use oncegen_runtime::journal::{JournaledWrite, Settlement, StoredResponse};
use oncegen_runtime::{Method, PostgresJournal};
use sdk_tests::postgres::Cluster;

use super::postgres::{cluster, query, run_documented_script, sessions_gone, url_as};
use super::*;

/// A write of a DNS zone under `key` and `intent`.
pub(super) fn write(key: &str, intent: &str) -> JournaledWrite {
    JournaledWrite {
        key: key.to_owned(),
        operation_id: "createDnsZone".to_owned(),
        method: Method::Post,
        target: "/dns/zones?dry_run=false".to_owned(),
        server: None,
        content_type: Some("application/json".to_owned()),
        body: b"{\"name\":\"a.example\"}".to_vec().into(),
        client_request_id: Some(format!("req-{key}")),
        intent: Some(intent.to_owned()),
        headers: vec![("x-extra".to_owned(), "1".to_owned())],
        base_url: Some("http://127.0.0.1:9".to_owned()),
        credential: Some("0123456789abcdef".to_owned()),
    }
}

async fn journal(url: &str, namespace: &str) -> PostgresJournal {
    PostgresJournal::builder(url)
        .namespace(namespace)
        .connect()
        .await
        .expect("journal connects")
}

fn keys(pending: &oncegen_runtime::journal::Pending) -> BTreeSet<String> {
    pending.writes.iter().map(|p| p.write.key.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_journal_keeps_its_rules_for_a_fleet() {
    let Some(cluster) = cluster("rules") else {
        return;
    };
    let url = cluster.url();
    claims_are_exclusive_and_wait_for_a_live_owner(&url).await;
    one_key_per_intent(&url).await;
    a_dropped_connection_loses_nothing(&url).await;
    a_newer_schema_is_refused(&url).await;
    an_unreachable_database_fails_closed(&cluster).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writers_under_different_roles_need_only_the_documented_grants() {
    let Some(cluster) = cluster("roles") else {
        return;
    };
    run_documented_script(&cluster, "pre-created").await;
    let admin = cluster.url();
    let (one, two) = (
        url_as(&cluster, "journal_app_1"),
        url_as(&cluster, "journal_app_2"),
    );
    a_live_owner_of_another_role_is_seen(&admin, &one, &two).await;
    query(
        &admin,
        "REVOKE SELECT ON pg_catalog.pg_stat_activity FROM PUBLIC",
    )
    .await;
    without_sight_of_sessions_claims_wait_for_leases(&admin, &one, &two).await;
}

/// Records, settles, claims and acknowledges under roles that cannot create anything; a live
/// owner under role 1 is seen by role 2 (its entries left alone), a dead one is not.
async fn a_live_owner_of_another_role_is_seen(admin: &str, one: &str, two: &str) {
    let first = journal(one, "roles").await;
    record(&first, write("role-1", "role-intent-1"))
        .await
        .unwrap();
    settle(&first, "role-1", applied()).await.unwrap();
    let second = journal(two, "roles").await;
    assert!(
        second.pending().await.unwrap().writes.is_empty(),
        "a live owner under another role is seen: its entry is left alone"
    );
    let dead = first.owner().to_owned();
    drop(first);
    sessions_gone(admin, &dead).await;
    let taken = second.pending().await.unwrap();
    assert_eq!(keys(&taken), BTreeSet::from(["role-1".to_owned()]));
    assert_eq!(taken.writes[0].settlement, Some(applied()));
    acknowledge(&second, "role-1").await.unwrap();
}

/// A role that may not read `pg_stat_activity` still claims, by leases alone: a dead owner's
/// entry waits until its lease expired.
async fn without_sight_of_sessions_claims_wait_for_leases(admin: &str, one: &str, two: &str) {
    let first = journal(one, "blind").await;
    record(&first, write("blind-1", "blind-intent-1"))
        .await
        .unwrap();
    let second = journal(two, "blind").await;
    let dead = first.owner().to_owned();
    drop(first);
    sessions_gone(admin, &dead).await;
    assert!(
        second.pending().await.unwrap().writes.is_empty(),
        "without sight of sessions, only an expired lease frees an entry"
    );
    query(
        admin,
        "UPDATE sdk_journal_shared.sdk_journal_writes \
         SET lease_until = now() - interval '1 second' WHERE key = 'blind-1'",
    )
    .await;
    let taken = second.pending().await.unwrap();
    assert_eq!(keys(&taken), BTreeSet::from(["blind-1".to_owned()]));
    acknowledge(&second, "blind-1").await.unwrap();
}

async fn claims_are_exclusive_and_wait_for_a_live_owner(url: &str) {
    let owner = journal(url, "claims").await;
    let expected: BTreeSet<String> = (0..40).map(|i| format!("claim-{i:02}")).collect();
    let records = expected
        .iter()
        .map(|key| record(&owner, write(key, &format!("intent-{key}"))));
    for r in futures::future::join_all(records).await {
        r.expect("recorded");
    }
    let (b, c) = (journal(url, "claims").await, journal(url, "claims").await);
    assert!(
        b.pending().await.unwrap().writes.is_empty(),
        "a live owner's entries are not taken"
    );
    assert!(
        journal(url, "other")
            .await
            .pending()
            .await
            .unwrap()
            .writes
            .is_empty(),
        "another namespace's entries are never claimed"
    );

    // The owner stalls past its lease (its row says so): its entry is taken over.
    query(
        url,
        "UPDATE sdk_journal_writes SET lease_until = now() - interval '1 second' \
         WHERE key = 'claim-00'",
    )
    .await;
    let taken = b.pending().await.unwrap();
    assert_eq!(keys(&taken), BTreeSet::from(["claim-00".to_owned()]));
    assert_eq!(taken.writes[0].write, write("claim-00", "intent-claim-00"));
    assert!(
        !keys(&owner.pending().await.unwrap()).contains("claim-00"),
        "taken over: no longer the stalled owner's"
    );

    // The owner dies: two processes recover at once and split its entries.
    let dead = owner.owner().to_owned();
    drop(owner);
    sessions_gone(url, &dead).await;
    let (from_b, from_c) = futures::join!(b.pending(), c.pending());
    let (from_b, from_c) = (keys(&from_b.unwrap()), keys(&from_c.unwrap()));
    assert!(from_b.is_disjoint(&from_c), "{from_b:?} / {from_c:?}");
    let all: BTreeSet<String> = from_b.union(&from_c).cloned().collect();
    assert_eq!(
        all, expected,
        "every entry claimed once (claim-00 was b's already)"
    );
    println!(
        "postgres journal: 40 entries of a dead owner claimed by two recoveries at once: {} and {}",
        from_b.len(),
        from_c.len()
    );
}

async fn one_key_per_intent(url: &str) {
    let (a, b) = (journal(url, "intents").await, journal(url, "intents").await);
    record(&a, write("first", "order-1")).await.unwrap();
    record(&a, write("first", "order-1"))
        .await
        .expect("the same key again is the same write");
    let open = record(&b, write("second", "order-1")).await.unwrap_err();
    assert_eq!(open.kind(), std::io::ErrorKind::AlreadyExists);
    assert!(
        open.to_string().contains("journaled under key first"),
        "{open}"
    );

    settle(&a, "first", applied()).await.unwrap();
    acknowledge(&a, "first").await.unwrap();
    let done = record(&b, write("third", "order-1")).await.unwrap_err();
    assert!(
        done.to_string()
            .contains("already carried out under key first"),
        "{done}"
    );

    // Certainly not applied and acknowledged: the intent may go out again.
    record(&a, write("fourth", "order-2")).await.unwrap();
    settle(
        &a,
        "fourth",
        Settlement::NotApplied {
            reason: "refused".to_owned(),
        },
    )
    .await
    .unwrap();
    acknowledge(&a, "fourth").await.unwrap();
    record(&b, write("fifth", "order-2"))
        .await
        .expect("a new key for an intent certainly not applied");
}

async fn a_dropped_connection_loses_nothing(url: &str) {
    let a = journal(url, "drops").await;
    record(&a, write("dropped-1", "drop-1")).await.unwrap();
    let kill = format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{}'",
        a.owner()
    );
    query(url, &kill).await;
    // A settlement, an acknowledgement or a claim that finds its connection dropped runs again
    // on a new one. A record's first use after the drop may fail (nothing sent); nothing is
    // lost, and the next use reconnects.
    settle(&a, "dropped-1", applied()).await.unwrap();
    query(url, &kill).await;
    if record(&a, write("dropped-2", "drop-2")).await.is_err() {
        record(&a, write("dropped-2", "drop-2")).await.unwrap();
    }
    let pending = a
        .pending()
        .await
        .expect("a claim after its connection was ended");
    assert_eq!(
        keys(&pending),
        BTreeSet::from(["dropped-1".to_owned(), "dropped-2".to_owned()])
    );
    assert_eq!(pending.writes[0].settlement, Some(applied()));
    assert_eq!(pending.writes[1].settlement, None);
}

async fn a_newer_schema_is_refused(url: &str) {
    query(url, "CREATE DATABASE newer").await;
    let newer = url.replace("/postgres", "/newer");
    journal(&newer, "default").await;
    query(
        &newer,
        "INSERT INTO sdk_journal_schema (version) VALUES (99)",
    )
    .await;
    let err = PostgresJournal::connect(newer).await.unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    assert!(err.to_string().contains("upgrade the SDK"), "{err}");
}

/// With the database down a write is refused before it is sent, with a retryable error that
/// says so; once the database is back the same call goes through.
async fn an_unreachable_database_fails_closed(cluster: &Cluster) {
    let env = Env::sandbox_only("postgres journal fails closed", "the request log").await;
    let Some(env) = env else { return };
    let sb = env.sb();
    let journal = journal(&cluster.url(), "closed").await;
    let client = customer_cloud_sdk::Client::new(
        fast(Config::new(sb.base_url()).bearer(sb.credentials().bearer.bearer_token()))
            .journal(Arc::new(journal)),
    )
    .unwrap();
    let zone = || {
        client
            .create_dns_zone(customer_cloud_sdk::dns::CreateDnsZoneRequest::new(
                "closed.example".to_owned(),
            ))
            .intent("closed-1")
    };
    cluster.stop().unwrap();
    sb.clear_requests();
    use customer_cloud_sdk::CallBuilder as _;
    let err = zone().send().await.unwrap_err();
    assert!(
        matches!(err, oncegen_runtime::Error::Journal { .. }),
        "{err:?}"
    );
    assert!(err.is_retryable(), "{err}");
    assert!(err.to_string().contains("nothing was sent"), "{err}");
    assert!(err.to_string().contains("unreachable"), "{err}");
    let err = PostgresJournal::connect(cluster.url()).await.unwrap_err();
    assert!(err.to_string().contains("unreachable"), "{err}");
    assert!(
        sb.requests().iter().all(|r| r.method != "POST"),
        "nothing sent unjournaled"
    );
    cluster.start_server().unwrap();
    let created = zone().send().await.expect("the database is back");
    let key = created.meta().idempotency_key.clone().unwrap();
    assert_eq!(sb.applied_writes(&key), 1);
    client.acknowledge_write(&key).await.unwrap();
}

fn applied() -> Settlement {
    Settlement::Answered(StoredResponse {
        status: 201,
        headers: vec![],
        body: b"{}".to_vec().into(),
    })
}

/// The journal's calls with owned arguments (its futures borrow them).
async fn record(j: &PostgresJournal, w: JournaledWrite) -> std::io::Result<()> {
    j.record(&w).await
}

async fn settle(j: &PostgresJournal, key: &str, s: Settlement) -> std::io::Result<()> {
    j.settle(key, &s).await
}

async fn acknowledge(j: &PostgresJournal, key: &str) -> std::io::Result<()> {
    j.acknowledge(key).await
}
