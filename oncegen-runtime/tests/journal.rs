//! The write journal: recorded before the first attempt, its outcome recorded once definite and
//! kept until the application acknowledges it, left open on an unknown one, and reported by
//! `recover_writes` after a restart (settled ones from the journal, open ones settled with the
//! same key and body); every entry independently; damaged records are reported and never
//! resent. A user's own store plugs in through `WriteJournal`.

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use oncegen_runtime::hooks::{AttemptInfo, AttemptOutcome, Hook};
use oncegen_runtime::journal::{JournaledWrite, Pending, PendingWrite, Settlement, WriteJournal};
use oncegen_runtime::{CallOptions, Client, Error, Request, RetryPolicy, SqliteJournal};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{CREATE_NO_KEY, config, create_request, with_key};

/// A user's store: entries in memory, settlements kept for inspection.
#[derive(Debug, Default)]
struct MemoryJournal {
    open: Mutex<BTreeMap<String, PendingWrite>>,
    settled: Mutex<Vec<(String, Settlement)>>,
}

impl MemoryJournal {
    fn statuses(&self) -> Vec<(String, Option<u16>)> {
        let settled = self.settled.lock().unwrap();
        settled
            .iter()
            .map(|(key, s)| match s {
                Settlement::Answered(r) => (key.clone(), Some(r.status)),
                _ => (key.clone(), None),
            })
            .collect()
    }
}

impl WriteJournal for MemoryJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        self.open.lock().unwrap().insert(
            write.key.clone(),
            PendingWrite {
                settled_at: None,
                write: write.clone(),
                settlement: None,
            },
        );
        Box::pin(async { Ok(()) })
    }

    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>> {
        if let Some(entry) = self.open.lock().unwrap().get_mut(key) {
            entry.settlement = Some(settlement.clone());
        }
        self.settled
            .lock()
            .unwrap()
            .push((key.to_owned(), settlement.clone()));
        Box::pin(async { Ok(()) })
    }

    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>> {
        self.open.lock().unwrap().remove(key);
        Box::pin(async { Ok(()) })
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        let writes = self.open.lock().unwrap().values().cloned().collect();
        Box::pin(async {
            Ok(Pending {
                writes,
                damaged: Vec::new(),
            })
        })
    }
}

/// Notes, before every attempt of a write, whether the journal already held its key.
#[derive(Debug)]
struct JournaledBeforeSend(Arc<MemoryJournal>, Mutex<Vec<bool>>);

impl Hook for JournaledBeforeSend {
    fn before_send(&self, attempt: &AttemptInfo<'_>) {
        if let Some(key) = attempt.idempotency_key {
            let held = self.0.open.lock().unwrap().contains_key(key);
            self.1.lock().unwrap().push(held);
        }
    }

    fn after_response(&self, _: &AttemptInfo<'_>, _: &AttemptOutcome<'_>) {}
}

/// A journal path in a fresh directory, removed when dropped.
struct TempJournal(PathBuf);

impl TempJournal {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("sdk-journal-{name}-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn path(&self) -> PathBuf {
        self.0.join("writes.journal")
    }
}

impl Drop for TempJournal {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Answers every write 500 and every lookup 503: each keyed write's outcome stays unknown.
async fn leave_outcomes_unknown(server: &MockServer) {
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503))
        .mount(server)
        .await;
}

/// Makes the create write with `options`, asserting its outcome is unknown.
async fn write_left_unknown(client: &Client, options: CallOptions) {
    let err = client
        .execute::<Value>(create_request(), options)
        .await
        .unwrap_err();
    assert!(err.is_write_outcome_unknown(), "{err}");
}

/// The lookup's answer for a key it does not know.
fn lookup_not_found() -> ResponseTemplate {
    ResponseTemplate::new(404).set_body_json(
        json!({"ok": false, "error": {"code": "operation_not_found", "message": "no"}}),
    )
}

/// The idempotency keys of the writes `server` received, in order.
async fn posted_keys(server: &MockServer) -> Vec<String> {
    let sent = server.received_requests().await.unwrap();
    sent.iter()
        .filter(|r| r.method.as_str() == "POST")
        .map(|r| {
            r.headers
                .get("idempotency-key")
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[tokio::test]
async fn a_keyed_write_is_journaled_before_its_first_attempt_and_settled_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/things/eu%20central"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 1})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/nokey"))
        .respond_with(ResponseTemplate::new(201))
        .mount(&server)
        .await;
    let journal = Arc::new(MemoryJournal::default());
    let hook = Arc::new(JournaledBeforeSend(journal.clone(), Mutex::default()));
    let client = Client::new(config(&server).journal(journal.clone()).hook(hook.clone())).unwrap();
    client
        .execute::<Value>(create_request(), with_key("journaled-1"))
        .await
        .unwrap();
    assert_eq!(
        *hook.1.lock().unwrap(),
        [true],
        "on record before the attempt"
    );
    assert_eq!(journal.statuses(), [("journaled-1".to_owned(), Some(201))]);
    // The outcome is kept until the application acknowledges it.
    assert!(
        journal.open.lock().unwrap()["journaled-1"]
            .settlement
            .is_some()
    );
    client.acknowledge_write("journaled-1").await.unwrap();
    assert!(journal.open.lock().unwrap().is_empty());

    // A write without a key cannot be settled: it is not journaled.
    let mut keyless = Request::new(&CREATE_NO_KEY);
    keyless.json_body(&json!({}));
    client
        .execute::<Value>(keyless, CallOptions::new())
        .await
        .unwrap();
    assert_eq!(journal.settled.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_rejected_write_keeps_its_answer_and_recovery_reports_it_without_a_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(422).set_body_json(
            json!({"ok": false, "error": {"code": "invalid_field", "message": "no"}}),
        ))
        .mount(&server)
        .await;
    let journal = Arc::new(MemoryJournal::default());
    let client = Client::new(config(&server).journal(journal.clone())).unwrap();
    let err = client
        .execute::<Value>(create_request(), with_key("rejected-1"))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(422));
    assert_eq!(journal.statuses(), [("rejected-1".to_owned(), Some(422))]);
    // The process dies before the application recorded the rejection: the next start gets it
    // again, from the journal.
    server.reset().await;
    let recovery = client.recover_writes().await.unwrap();
    assert_eq!(recovery.writes.len(), 1);
    let recovered = &recovery.writes[0];
    assert!(recovered.from_journal && recovered.is_settled() && !recovered.is_applied());
    let err = recovered.outcome.as_ref().unwrap_err();
    assert_eq!(
        (err.status(), err.code()),
        (Some(422), Some("invalid_field"))
    );
    assert_eq!(err.idempotency_key(), Some("rejected-1"));
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn an_unknown_outcome_stays_open_and_recovery_settles_it_with_the_same_key_and_body() {
    let dir = TempJournal::new("recover");
    let path_ = dir.path();
    let server = MockServer::start().await;
    leave_outcomes_unknown(&server).await;
    {
        let journal = Arc::new(SqliteJournal::open(&path_).unwrap());
        let client = Client::new(config(&server).journal(journal)).unwrap();
        let mut options = with_key("unknown-write-1");
        options.set_intent("order-77/line-3");
        options.add_header("x-tenant", "blue");
        options.set_operation_format(true);
        write_left_unknown(&client, options).await;
    } // the process "dies" with the write open

    server.reset().await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "operation": {"id": "op-1"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(header("idempotency-key", "unknown-write-1"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 9})))
        .expect(1)
        .mount(&server)
        .await;
    recovery_settles_the_open_write(&server, &path_).await;
    // Killed before the application acknowledged: the next start reports the same outcome,
    // from the journal, without a request (the mocks expect exactly one lookup and one POST).
    recovery_reports_it_again_from_the_journal(&server, &path_).await;
    resent_as_first_sent(&server).await;
}

/// The first recovery after the "crash": the open write resent, its answer reported.
async fn recovery_settles_the_open_write(server: &MockServer, path_: &std::path::Path) {
    let journal = Arc::new(SqliteJournal::open(path_).unwrap());
    assert_eq!(journal.pending().await.unwrap().writes.len(), 1);
    let client = Client::new(config(server).journal(journal)).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    assert!(recovery.is_clean(), "{recovery:?}");
    assert_eq!(recovery.writes.len(), 1);
    let recovered = &recovery.writes[0];
    assert_eq!(recovered.key(), "unknown-write-1");
    assert_eq!(recovered.intent(), Some("order-77/line-3"));
    assert!(!recovered.from_journal);
    let response = recovered.outcome.as_ref().unwrap();
    assert_eq!(response.body()["id"], 9);
    assert_eq!(
        response.meta().idempotency_key.as_deref(),
        Some("unknown-write-1")
    );
}

/// A second start: the same outcome, from the journal, until the application acknowledges it.
async fn recovery_reports_it_again_from_the_journal(server: &MockServer, path_: &std::path::Path) {
    let journal = Arc::new(SqliteJournal::open(path_).unwrap());
    let client = Client::new(config(server).journal(journal.clone())).unwrap();
    let again = client.recover_writes().await.unwrap();
    assert_eq!(again.writes.len(), 1);
    assert!(again.writes[0].from_journal);
    assert_eq!(again.writes[0].intent(), Some("order-77/line-3"));
    assert_eq!(again.writes[0].outcome.as_ref().unwrap().body()["id"], 9);
    client.acknowledge_write("unknown-write-1").await.unwrap();
    assert!(journal.pending().await.unwrap().writes.is_empty());
}

/// The resent write carries the first one's body, path and own headers.
async fn resent_as_first_sent(server: &MockServer) {
    let resent = server.received_requests().await.unwrap();
    let post = resent.iter().find(|r| r.method.as_str() == "POST").unwrap();
    assert_eq!(
        post.body,
        serde_json::to_vec(&json!({"name": "x", "n": 1})).unwrap()
    );
    assert_eq!(post.url.path(), "/v1/things/eu%20central");
    let sent = |name: &str| post.headers.get(name).and_then(|v| v.to_str().ok());
    assert_eq!(
        sent("x-tenant"),
        Some("blue"),
        "the call's own headers are resent"
    );
    assert_eq!(sent("x-svc-response-format"), Some("operation"));
    assert_eq!(sent("content-type"), Some("application/json"));
}

#[tokio::test]
async fn a_damaged_record_is_reported_and_never_resent() {
    let dir = TempJournal::new("damaged");
    let path_ = dir.path();
    let server = MockServer::start().await;
    leave_outcomes_unknown(&server).await;
    {
        let journal = Arc::new(SqliteJournal::open(&path_).unwrap());
        let client = Client::new(config(&server).journal(journal)).unwrap();
        for key in ["damaged-write-1", "intact-write-2"] {
            write_left_unknown(&client, with_key(key)).await;
        }
    }
    // Corrupt the first record (a method no HTTP client sends).
    let db = rusqlite::Connection::open(&path_).unwrap();
    db.execute(
        "UPDATE writes SET method = 'BREW' WHERE key = 'damaged-write-1'",
        [],
    )
    .unwrap();
    drop(db);

    server.reset().await;
    Mock::given(method("GET"))
        .respond_with(lookup_not_found())
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 2})))
        .mount(&server)
        .await;
    let journal = Arc::new(SqliteJournal::open(&path_).unwrap());
    let client = Client::new(config(&server).journal(journal)).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    assert_eq!(recovery.damaged.len(), 1, "{recovery:?}");
    assert_eq!(recovery.damaged[0].reason, "unknown method \"BREW\"");
    assert!(!recovery.is_clean());
    let keys: Vec<&str> = recovery
        .writes
        .iter()
        .map(|w| w.write.key.as_str())
        .collect();
    assert_eq!(keys, ["intact-write-2"]);
    assert!(recovery.writes[0].outcome.is_ok());
    assert_eq!(
        posted_keys(&server).await,
        ["intact-write-2"],
        "nothing resent for the damaged record"
    );
}

#[tokio::test]
async fn recovery_without_a_journal_is_a_configuration_error() {
    let server = MockServer::start().await;
    let err = Client::new(config(&server))
        .unwrap()
        .recover_writes()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Config { .. }), "{err}");
}

/// One open write whose resend is rejected, one whose resend succeeds, one whose lookup keeps
/// failing: recovery returns all three outcomes, the failures included.
#[tokio::test]
async fn recovery_returns_every_outcome_when_some_fail() {
    let server = MockServer::start().await;
    let journal = Arc::new(MemoryJournal::default());
    let client = Client::new(config(&server).journal(journal.clone())).unwrap();
    leave_outcomes_unknown(&server).await;
    for key in [
        "rejected-on-resend",
        "pending-write",
        "lookup-keeps-failing",
    ] {
        write_left_unknown(&client, with_key(key)).await;
    }
    server.reset().await;
    mount_three_fates(&server).await;

    let recovery = client.recover_writes().await.unwrap();
    let outcomes: Vec<(&str, bool, Option<u16>)> = recovery
        .writes
        .iter()
        .map(|w| {
            (
                w.key(),
                w.is_settled(),
                w.outcome.as_ref().err().and_then(Error::status),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("lookup-keeps-failing", false, None),
            ("pending-write", true, None),
            ("rejected-on-resend", true, Some(409)),
        ],
        "in the journal's order (this one's: by key)"
    );
    assert!(
        recovery.writes[0]
            .outcome
            .as_ref()
            .unwrap_err()
            .is_write_outcome_unknown()
    );
    assert!(!recovery.is_clean());
    // The failing one stays open; the settled ones keep their outcome until acknowledged.
    let held = journal.open.lock().unwrap();
    assert!(held["lookup-keeps-failing"].settlement.is_none());
    assert!(held["rejected-on-resend"].settlement.is_some());
    assert!(held["pending-write"].settlement.is_some());
}

/// The server after the restart: two lookups find nothing, one keeps failing; one resend is
/// rejected (409), one succeeds.
async fn mount_three_fates(server: &MockServer) {
    for key in ["rejected-on-resend", "pending-write"] {
        Mock::given(method("GET"))
            .and(wiremock::matchers::query_param("idempotency_key", key))
            .respond_with(lookup_not_found())
            .mount(server)
            .await;
    }
    Mock::given(method("GET"))
        .and(wiremock::matchers::query_param(
            "idempotency_key",
            "lookup-keeps-failing",
        ))
        .respond_with(ResponseTemplate::new(503))
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(header("idempotency-key", "rejected-on-resend"))
        .respond_with(ResponseTemplate::new(409).set_body_json(
            json!({"ok": false, "error": {"code": "zone_exists", "message": "taken"}}),
        ))
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(header("idempotency-key", "pending-write"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 5})))
        .mount(server)
        .await;
}

/// A write the lookup finds recorded is a known outcome even with no attempt left: it is
/// replayed to fetch the stored answer, and when no answer comes it is `WriteApplied`, never
/// an unknown outcome.
#[tokio::test]
async fn a_write_found_recorded_is_known_even_when_its_attempts_are_spent() {
    let server = MockServer::start().await;
    let one_attempt = RetryPolicy {
        max_attempts: 1,
        ..common::fast_policy()
    };
    let client = Client::new(config(&server).retry_policy(one_attempt)).unwrap();
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "operation": {"id": "op-7"}})),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 7})))
        .mount(&server)
        .await;
    let response = client
        .execute::<Value>(create_request(), with_key("recorded-write-1"))
        .await
        .unwrap();
    assert_eq!(response.body()["id"], 7, "the stored answer, replayed");

    server.reset().await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "operation": {"id": "op-8"}})),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(502))
        .mount(&server)
        .await;
    let err = client
        .execute::<Value>(create_request(), with_key("recorded-write-2"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::WriteApplied { operation_id: Some(id), .. } if id == "op-8"),
        "{err}"
    );
    assert_eq!(err.idempotency_key(), Some("recorded-write-2"));
    assert_eq!(err.kind(), "write_applied");
}

#[tokio::test]
async fn a_write_to_an_operations_own_server_is_recovered_to_that_server() {
    let dir = TempJournal::new("own-server");
    let path_ = dir.path();
    let (base, uploads) = (MockServer::start().await, MockServer::start().await);
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&uploads)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&base)
        .await;
    let upload = || {
        let mut request = create_request();
        request.server(Box::leak(uploads.uri().into_boxed_str()));
        request
    };
    {
        let journal = Arc::new(SqliteJournal::open(&path_).unwrap());
        let client = Client::new(config(&base).journal(journal)).unwrap();
        let err = client
            .execute::<Value>(upload(), with_key("upload-1"))
            .await
            .unwrap_err();
        assert!(err.is_write_outcome_unknown(), "{err}");
    } // the process "dies" with the write open

    base.reset().await;
    uploads.reset().await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "operation": {"id": "op-1"}})),
        )
        .mount(&base)
        .await;
    Mock::given(method("POST"))
        .and(header("idempotency-key", "upload-1"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 9})))
        .expect(1)
        .mount(&uploads)
        .await;
    let journal = Arc::new(SqliteJournal::open(&path_).unwrap());
    let client = Client::new(config(&base).journal(journal)).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    assert!(recovery.is_clean(), "{recovery:?}");
    assert_eq!(recovery.writes[0].outcome.as_ref().unwrap().body()["id"], 9);
    let posts_to_base = base.received_requests().await.unwrap();
    assert!(
        posts_to_base.iter().all(|r| r.method.as_str() != "POST"),
        "resent to the base URL instead of the operation's server"
    );
}
