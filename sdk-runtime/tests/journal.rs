//! The write journal: recorded before the first attempt, settled on a definite outcome, left
//! open on an unknown one, and settled by `recover_writes` after a restart (same key, same
//! body); damaged records are reported and never resent. A user's own store plugs in through
//! `WriteJournal`.

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use sdk_runtime::{
    AttemptInfo, AttemptOutcome, CallOptions, Client, Error, FileJournal, Hook, JournaledWrite,
    Pending, Request, Settlement, WriteJournal,
};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{CREATE_NO_KEY, config, create_request, with_key};

/// A user's store: entries in memory, settlements kept for inspection.
#[derive(Debug, Default)]
struct MemoryJournal {
    open: Mutex<BTreeMap<String, JournaledWrite>>,
    settled: Mutex<Vec<(String, Settlement)>>,
}

impl WriteJournal for MemoryJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        self.open
            .lock()
            .unwrap()
            .insert(write.key.clone(), write.clone());
        Box::pin(async { Ok(()) })
    }

    fn settle<'a>(&'a self, key: &'a str, settlement: Settlement) -> BoxFuture<'a, io::Result<()>> {
        self.open.lock().unwrap().remove(key);
        self.settled
            .lock()
            .unwrap()
            .push((key.to_owned(), settlement));
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
    assert!(journal.open.lock().unwrap().is_empty());
    assert_eq!(
        *journal.settled.lock().unwrap(),
        [(
            "journaled-1".to_owned(),
            Settlement::Applied { status: 201 }
        )]
    );

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
async fn a_rejected_write_is_settled_as_not_applied() {
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
    assert_eq!(
        *journal.settled.lock().unwrap(),
        [("rejected-1".to_owned(), Settlement::NotApplied)]
    );
}

#[tokio::test]
async fn an_unknown_outcome_stays_open_and_recovery_settles_it_with_the_same_key_and_body() {
    let dir = TempJournal::new("recover");
    let path_ = dir.path();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    {
        let journal = Arc::new(FileJournal::open(&path_).unwrap());
        let client = Client::new(config(&server).journal(journal)).unwrap();
        let mut options = with_key("unknown-write-1");
        options.add_header("x-tenant", "blue");
        options.set_operation_format(true);
        let err = client
            .execute::<Value>(create_request(), options)
            .await
            .unwrap_err();
        assert!(err.is_write_outcome_unknown(), "{err}");
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
    let journal = Arc::new(FileJournal::open(&path_).unwrap());
    assert_eq!(journal.pending().await.unwrap().writes.len(), 1);
    let client = Client::new(config(&server).journal(journal.clone())).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    assert!(recovery.is_clean(), "{recovery:?}");
    assert_eq!(recovery.writes.len(), 1);
    let recovered = &recovery.writes[0];
    assert_eq!(recovered.write.key, "unknown-write-1");
    let response = recovered.outcome.as_ref().unwrap();
    assert_eq!(response.body()["id"], 9);
    assert_eq!(
        response.meta().idempotency_key.as_deref(),
        Some("unknown-write-1")
    );
    assert!(journal.pending().await.unwrap().writes.is_empty());
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
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    {
        let journal = Arc::new(FileJournal::open(&path_).unwrap());
        let client = Client::new(config(&server).journal(journal)).unwrap();
        for key in ["damaged-write-1", "intact-write-2"] {
            client
                .execute::<Value>(create_request(), with_key(key))
                .await
                .unwrap_err();
        }
    }
    // Corrupt the first record (a flipped byte inside its JSON).
    let mut bytes = std::fs::read(&path_).unwrap();
    bytes[40] ^= 0x20;
    std::fs::write(&path_, &bytes).unwrap();

    server.reset().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404).set_body_json(
            json!({"ok": false, "error": {"code": "operation_not_found", "message": "no"}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": 2})))
        .mount(&server)
        .await;
    let journal = Arc::new(FileJournal::open(&path_).unwrap());
    let client = Client::new(config(&server).journal(journal)).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    assert_eq!(recovery.damaged.len(), 1, "{recovery:?}");
    assert_eq!(recovery.damaged[0].reason, "checksum mismatch");
    assert!(!recovery.is_clean());
    let keys: Vec<&str> = recovery
        .writes
        .iter()
        .map(|w| w.write.key.as_str())
        .collect();
    assert_eq!(keys, ["intact-write-2"]);
    assert!(recovery.writes[0].outcome.is_ok());
    let sent = server.received_requests().await.unwrap();
    let posted: Vec<_> = sent
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .map(|r| r.headers.get("idempotency-key").unwrap().to_str().unwrap())
        .collect();
    assert_eq!(
        posted,
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
