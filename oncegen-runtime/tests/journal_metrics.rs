//! The SQLite journal's figures, read from an in-process recorder (`metrics-util`'s
//! `DebuggingRecorder`, installed for this thread only): open entries and the oldest one's age
//! move when entries are recorded and acknowledged, a takeover is counted, every step's wait is
//! timed, and acknowledged entries are pruned by age as `keep_acknowledged` says (and
//! counted). Names as `docs/journal.md` lists them.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use metrics_util::debugging::{DebugValue, DebuggingRecorder, Snapshotter};
use oncegen_runtime::journal::{JournaledWrite, Settlement, WriteJournal};
use oncegen_runtime::{Method, SqliteJournal};

/// Each figure recorded since the last snapshot, by name and labels (`name{k=v,...}`).
fn figures(snapshotter: &Snapshotter) -> BTreeMap<String, DebugValue> {
    snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .map(|(key, _, _, value)| {
            let key = key.key();
            let labels: Vec<String> = key
                .labels()
                .map(|l| format!("{}={}", l.key(), l.value()))
                .collect();
            (format!("{}{{{}}}", key.name(), labels.join(",")), value)
        })
        .collect()
}

fn gauge(figures: &BTreeMap<String, DebugValue>, name: &str) -> f64 {
    match figures.get(&format!("{name}{{journal=sqlite}}")) {
        Some(DebugValue::Gauge(v)) => v.0,
        other => panic!("gauge {name}: {other:?} in {figures:?}"),
    }
}

fn counter(figures: &BTreeMap<String, DebugValue>, name: &str) -> u64 {
    match figures.get(&format!("{name}{{journal=sqlite}}")) {
        Some(DebugValue::Counter(n)) => *n,
        None => 0,
        other => panic!("counter {name}: {other:?}"),
    }
}

fn waits(figures: &BTreeMap<String, DebugValue>, step: &str) -> usize {
    let key = format!("oncegen_journal_wait_seconds{{journal=sqlite,step={step}}}");
    match figures.get(&key) {
        Some(DebugValue::Histogram(values)) => values.len(),
        None => 0,
        other => panic!("histogram {key}: {other:?}"),
    }
}

fn write(key: &str) -> JournaledWrite {
    JournaledWrite {
        key: key.to_owned(),
        operation_id: "createThing".to_owned(),
        method: Method::Post,
        target: "/things".to_owned(),
        server: None,
        content_type: Some("application/json".to_owned()),
        body: b"{}".to_vec().into(),
        client_request_id: None,
        intent: Some(format!("intent-{key}")),
        headers: Vec::new(),
        base_url: Some("http://127.0.0.1:9".to_owned()),
        credential: None,
    }
}

#[test]
fn the_sqlite_journal_reports_open_entries_takeovers_and_waits() {
    let dir = std::env::temp_dir().join(format!("jm-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("journal.sqlite");
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::with_local_recorder(&recorder, || {
        futures::executor::block_on(async {
            let first = SqliteJournal::open(&path).unwrap();
            first.record(&write("k1")).await.unwrap();
            first.record(&write("k2")).await.unwrap();
            let seen = figures(&snapshotter);
            assert_eq!(gauge(&seen, "oncegen_journal_open_entries"), 2.0);
            assert!(gauge(&seen, "oncegen_journal_oldest_open_entry_age_seconds") >= 0.0);
            assert_eq!(waits(&seen, "record"), 2);

            let applied = Settlement::AppliedUnread { status: 201 };
            first.settle("k1", &applied).await.unwrap();
            first.acknowledge("k1").await.unwrap();
            let seen = figures(&snapshotter);
            assert_eq!(gauge(&seen, "oncegen_journal_open_entries"), 1.0);
            assert_eq!(
                (waits(&seen, "settle"), waits(&seen, "acknowledge")),
                (1, 1)
            );
            assert_eq!(counter(&seen, "oncegen_journal_takeovers_total"), 0);

            // Its owner gone, another journal takes its open entry over.
            let second = SqliteJournal::open(&path).unwrap();
            drop(first);
            let pending = second.pending().await.unwrap();
            assert_eq!(pending.writes.len(), 1);
            let seen = figures(&snapshotter);
            assert_eq!(counter(&seen, "oncegen_journal_takeovers_total"), 1);
            assert_eq!(waits(&seen, "claim"), 1);
            // Claiming its own entries again is no takeover.
            second.pending().await.unwrap();
            let seen = figures(&snapshotter);
            assert_eq!(counter(&seen, "oncegen_journal_takeovers_total"), 0);

            second.acknowledge("k2").await.unwrap();
            let seen = figures(&snapshotter);
            assert_eq!(gauge(&seen, "oncegen_journal_open_entries"), 0.0);
            assert_eq!(
                gauge(&seen, "oncegen_journal_oldest_open_entry_age_seconds"),
                0.0
            );
            assert_eq!(counter(&seen, "oncegen_journal_database_errors_total"), 0);
        });
    });
    std::fs::remove_dir_all(dir).unwrap();
}

/// Sets when `key` was acknowledged to `ago` before now (the test's clock).
fn acknowledged_ago(path: &std::path::Path, key: &str, ago: Duration) {
    let at = SystemTime::now() - ago;
    let millis = at.duration_since(UNIX_EPOCH).unwrap().as_millis() as i64;
    let db = rusqlite::Connection::open(path).unwrap();
    let sql = "UPDATE writes SET acknowledged_at = ?1 WHERE key = ?2";
    assert_eq!(db.execute(sql, rusqlite::params![millis, key]).unwrap(), 1);
}

#[test]
fn acknowledged_entries_are_pruned_by_age_as_set() {
    const DAY: Duration = Duration::from_secs(24 * 3600);
    let dir = std::env::temp_dir().join(format!("jp-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("journal.sqlite");
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::with_local_recorder(&recorder, || {
        futures::executor::block_on(async {
            let journal = SqliteJournal::open(&path).unwrap();
            for key in ["old", "recent", "open"] {
                journal.record(&write(key)).await.unwrap();
            }
            journal.acknowledge("old").await.unwrap();
            journal.acknowledge("recent").await.unwrap();
            drop(journal);
            acknowledged_ago(&path, "old", 3 * DAY);
            acknowledged_ago(&path, "recent", DAY / 24);

            // The default (7 days) keeps both.
            let journal = SqliteJournal::open(&path).unwrap();
            assert!(journal.key_state("old").await.unwrap().is_some());
            drop(journal);
            let seen = figures(&snapshotter);
            assert_eq!(counter(&seen, "oncegen_journal_pruned_entries_total"), 0);

            // Kept for 2 days: the entry acknowledged 3 days ago goes, on the first commit.
            let journal = SqliteJournal::builder(&path)
                .keep_acknowledged(2 * DAY)
                .open()
                .unwrap();
            assert_eq!(journal.key_state("old").await.unwrap(), None);
            let recent = journal.key_state("recent").await.unwrap().unwrap();
            assert!(recent.acknowledged);
            let open = journal.key_state("open").await.unwrap().unwrap();
            assert!(!open.acknowledged);
            let seen = figures(&snapshotter);
            assert_eq!(counter(&seen, "oncegen_journal_pruned_entries_total"), 1);
        });
    });
    std::fs::remove_dir_all(dir).unwrap();
}
