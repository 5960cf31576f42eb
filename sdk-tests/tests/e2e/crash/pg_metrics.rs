//! The PostgreSQL journal's figures, read from an in-process recorder (`metrics-util`'s
//! `DebuggingRecorder`, installed for this test's thread; the journal's tasks run on it):
//! open entries, takeovers of a gone owner's entries, a lease lost to such a takeover, lease
//! renewals, pruning by age, database errors and the waits of each step, as
//! `docs/journal.md` names them.

use metrics_util::debugging::{DebugValue, DebuggingRecorder, Snapshotter};
use oncegen_runtime::PostgresJournal;
use oncegen_runtime::journal::Settlement;

use super::pg_rules::write;
use super::postgres::{cluster, query};
use super::*;

/// Each figure of the PostgreSQL journal recorded since the last snapshot, by name (and
/// `step`, for waits).
fn figures(snapshotter: &Snapshotter) -> BTreeMap<String, DebugValue> {
    let mut figures = BTreeMap::new();
    for (key, _, _, value) in snapshotter.snapshot().into_vec() {
        let key = key.key();
        let label = |name: &str| {
            key.labels()
                .find(|l| l.key() == name)
                .map(|l| l.value().to_owned())
        };
        assert_eq!(label("journal").as_deref(), Some("postgres"), "{key:?}");
        let name = match label("step") {
            Some(step) => format!("{}:{step}", key.name()),
            None => key.name().to_owned(),
        };
        figures.insert(name, value);
    }
    figures
}

fn gauge(figures: &BTreeMap<String, DebugValue>, name: &str) -> f64 {
    match figures.get(name) {
        Some(DebugValue::Gauge(v)) => v.0,
        other => panic!("gauge {name}: {other:?} in {figures:?}"),
    }
}

/// A counter's increase, or a histogram's samples, since the last snapshot.
fn count(figures: &BTreeMap<String, DebugValue>, name: &str) -> u64 {
    match figures.get(name) {
        Some(DebugValue::Counter(n)) => *n,
        Some(DebugValue::Histogram(samples)) => samples.len() as u64,
        None => 0,
        other => panic!("{name}: {other:?}"),
    }
}

async fn journal(url: &str, lease: Duration) -> PostgresJournal {
    PostgresJournal::builder(url)
        .namespace("metrics")
        .lease(lease)
        .connect()
        .await
        .expect("journal connects")
}

/// Gives entry `key` to an owner that has no session (as a killed writer leaves it).
async fn orphan(url: &str, key: &str) {
    let sql =
        format!("UPDATE sdk_journal_writes SET owner = 'sdk-journal-gone' WHERE key = '{key}'");
    query(url, &sql).await;
}

#[test]
fn the_postgres_journal_reports_its_figures() {
    let Some(cluster) = cluster("metrics") else {
        return;
    };
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    metrics::with_local_recorder(&recorder, || {
        runtime.block_on(figures_move(&cluster, &snapshotter))
    });
}

async fn figures_move(cluster: &sdk_tests::postgres::Cluster, snapshotter: &Snapshotter) {
    let url = cluster.url();
    let lease = Duration::from_secs(30);
    let (a, b) = (journal(&url, lease).await, journal(&url, lease).await);
    a.record(&write("m1", "metrics-1")).await.unwrap();
    a.record(&write("m2", "metrics-2")).await.unwrap();
    // `a` is alive: `b` takes nothing, and counts what is open.
    assert!(b.pending().await.unwrap().writes.is_empty());
    let seen = figures(snapshotter);
    assert_eq!(gauge(&seen, "oncegen_journal_open_entries"), 2.0);
    assert!(gauge(&seen, "oncegen_journal_oldest_open_entry_age_seconds") >= 0.0);
    assert_eq!(count(&seen, "oncegen_journal_wait_seconds:record"), 2);
    assert_eq!(count(&seen, "oncegen_journal_wait_seconds:claim"), 1);
    assert_eq!(count(&seen, "oncegen_journal_takeovers_total"), 0);

    // m1's owner is gone: `b` takes it over. m2 is taken from under `a`, which settles it.
    orphan(&url, "m1").await;
    orphan(&url, "m2").await;
    assert_eq!(b.pending().await.unwrap().writes.len(), 2);
    let applied = Settlement::AppliedUnread { status: 201 };
    a.settle("m2", &applied).await.unwrap();
    let seen = figures(snapshotter);
    assert_eq!(count(&seen, "oncegen_journal_takeovers_total"), 2);
    assert_eq!(count(&seen, "oncegen_journal_lease_losses_total"), 1);
    assert_eq!(count(&seen, "oncegen_journal_wait_seconds:settle"), 1);

    for key in ["m1", "m2"] {
        b.settle(key, &applied).await.unwrap();
        b.acknowledge(key).await.unwrap();
    }
    assert!(b.pending().await.unwrap().writes.is_empty());
    let seen = figures(snapshotter);
    assert_eq!(gauge(&seen, "oncegen_journal_open_entries"), 0.0);
    assert_eq!(
        gauge(&seen, "oncegen_journal_oldest_open_entry_age_seconds"),
        0.0
    );
    assert_eq!(count(&seen, "oncegen_journal_lease_losses_total"), 0);
    assert_eq!(count(&seen, "oncegen_journal_wait_seconds:acknowledge"), 2);
    assert_eq!(count(&seen, "oncegen_journal_database_errors_total"), 0);

    renewals_and_pruning_are_counted(&url, snapshotter).await;
    cluster.stop().unwrap();
    assert!(a.record(&write("m3", "metrics-3")).await.is_err());
    assert!(
        count(
            &figures(snapshotter),
            "oncegen_journal_database_errors_total"
        ) >= 1
    );
}

/// A journal with a short lease renews it in the background, and prunes acknowledged entries
/// past its `keep_acknowledged` at the first renewal: waits (at most a minute) until a renewal
/// is counted. `m1` was acknowledged two days ago (set here), `m2` just now.
async fn renewals_and_pruning_are_counted(url: &str, snapshotter: &Snapshotter) {
    let two_days_ago = "UPDATE sdk_journal_writes SET acknowledged_at = now() - interval '2 days' \
         WHERE key = 'm1'";
    query(url, two_days_ago).await;
    let _renewing = PostgresJournal::builder(url)
        .namespace("metrics")
        .lease(Duration::from_millis(300))
        .keep_acknowledged(Duration::from_secs(24 * 3600))
        .connect()
        .await
        .expect("journal connects");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut pruned = 0;
    loop {
        let seen = figures(snapshotter);
        pruned += count(&seen, "oncegen_journal_pruned_entries_total");
        if count(&seen, "oncegen_journal_lease_renewals_total") > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "no lease renewal was counted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(pruned, 1, "m1 pruned, m2 kept");
    let left = query(
        url,
        "SELECT key FROM sdk_journal_writes WHERE key LIKE 'm_'",
    )
    .await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].get::<_, String>(0), "m2");
}
