//! "The same write" (`same_write`) on the SQLite journal that many processes share: a retry
//! of an undelivered call answers its outcome, a delivered one is a new write, a write that
//! applied nothing blocks nothing, an explicit key names one write, an entry another live
//! owner holds is busy, and an entry is settled only by a client of its own server and
//! credential.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use oncegen_runtime::journal::{Resume, WriteJournal};
use oncegen_runtime::same_write::{Identity, Plan, plan, plan_guarded};
use oncegen_runtime::{CallOptions, Client, Error, SqliteJournal};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::create_request;

/// The tests' configuration, with limits no machine load reaches.
fn config(server: &MockServer) -> oncegen_runtime::Config {
    common::config(server)
        .attempt_timeout(Duration::from_secs(60))
        .total_timeout(Duration::from_secs(120))
}

/// A journal path in a fresh directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("same-write-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn open(&self) -> Arc<SqliteJournal> {
        Arc::new(SqliteJournal::open(self.0.join("journal.sqlite")).unwrap())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn identity(server: &MockServer, args: Value) -> Identity {
    Identity::new("test", &server.uri(), None, "createThing", &args)
}

/// Sends the write of `identity` under `key` through a client on `journal`.
async fn send(
    server: &MockServer,
    journal: Arc<SqliteJournal>,
    identity: &Identity,
    key: &str,
) -> Result<Value, Error> {
    let client = Client::new(config(server).journal(journal)).unwrap();
    let mut options = CallOptions::new();
    options.set_idempotency_key(key);
    options.set_intent(identity.intent());
    client
        .execute::<Value>(create_request(), options)
        .await
        .map(|r| r.into_parts().0)
}

async fn created(status: u16) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(status).set_body_json(json!({"id": 7})))
        .mount(&server)
        .await;
    server
}

fn new_key(p: Plan) -> String {
    match p {
        Plan::Send {
            key,
            applied_at: None,
        } => key,
        other => panic!("expected a new write, got {other:?}"),
    }
}

#[tokio::test]
async fn an_undelivered_write_is_answered_again_and_a_delivered_one_is_new() {
    let scratch = Scratch::new();
    let server = created(201).await;
    let journal = scratch.open();
    let id = identity(&server, json!({"name": "x"}));
    let key = new_key(plan(journal.as_ref(), &id, None).await.unwrap());
    send(&server, journal.clone(), &id, &key).await.unwrap();
    // The process dies before delivering: the same call in the next one resumes it.
    drop(journal);
    let journal = scratch.open();
    let Plan::Resume(entry) = plan(journal.as_ref(), &id, None).await.unwrap() else {
        panic!("an undelivered write is resumed");
    };
    assert_eq!(entry.write.key, key);
    assert!(
        entry.settled_at.is_some(),
        "the replay says when it applied"
    );
    let client = Client::new(config(&server).journal(journal.clone())).unwrap();
    let replayed = client.settle_write(*entry).await;
    assert!(replayed.from_journal);
    assert_eq!(replayed.outcome.unwrap().body()["id"], 7);
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
    // Delivered: the same call again is a new write.
    journal.acknowledge(&key).await.unwrap();
    let again = new_key(plan(journal.as_ref(), &id, None).await.unwrap());
    assert_ne!(again, key);
    // Another call's arguments never resume it.
    let other = identity(&server, json!({"name": "y"}));
    new_key(plan(journal.as_ref(), &other, None).await.unwrap());
}

#[tokio::test]
async fn a_write_that_applied_nothing_blocks_nothing() {
    let scratch = Scratch::new();
    let server = created(422).await;
    let journal = scratch.open();
    let id = identity(&server, json!({}));
    let key = new_key(plan(journal.as_ref(), &id, None).await.unwrap());
    send(&server, journal.clone(), &id, &key).await.unwrap_err();
    // Never acknowledged (killed before printing the error): the next call is still new.
    let next = new_key(plan(journal.as_ref(), &id, None).await.unwrap());
    assert_ne!(next, key);
    // Under an explicit key, other arguments are free to use it once it applied nothing.
    let other = identity(&server, json!({"fixed": true}));
    assert!(matches!(
        plan(journal.as_ref(), &other, Some(&key)).await.unwrap(),
        Plan::Send {
            applied_at: None,
            ..
        }
    ));
}

#[tokio::test]
async fn an_explicit_key_names_one_write() {
    let scratch = Scratch::new();
    let server = created(201).await;
    let journal = scratch.open();
    let id = identity(&server, json!({"name": "x"}));
    send(&server, journal.clone(), &id, "key-0001")
        .await
        .unwrap();
    journal.acknowledge("key-0001").await.unwrap();
    match plan(journal.as_ref(), &id, Some("key-0001")).await.unwrap() {
        Plan::Send {
            key,
            applied_at: Some(_),
        } => assert_eq!(key, "key-0001"),
        other => panic!("the same key and call is that write again: {other:?}"),
    }
    let other = identity(&server, json!({"name": "y"}));
    let Plan::Refused(why) = plan(journal.as_ref(), &other, Some("key-0001"))
        .await
        .unwrap()
    else {
        panic!("a key used for another applied write is refused");
    };
    assert!(
        why.contains("key-0001") && why.contains("was applied"),
        "{why}"
    );
    // The acknowledged entry keeps no body or answer.
    let db = rusqlite::Connection::open(scratch.0.join("journal.sqlite")).unwrap();
    let (body, settlement): (Vec<u8>, Option<String>) = db
        .query_row(
            "SELECT body, settlement FROM writes WHERE key = 'key-0001'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(body.is_empty() && settlement.is_none());
}

#[tokio::test]
async fn an_entry_another_live_owner_holds_is_busy_until_it_is_gone() {
    let scratch = Scratch::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let first = scratch.open();
    let id = identity(&server, json!({"name": "x"}));
    let err = send(&server, first.clone(), &id, "key-open")
        .await
        .unwrap_err();
    assert!(err.is_write_outcome_unknown(), "{err}");
    let second = scratch.open();
    assert!(matches!(
        plan(second.as_ref(), &id, None).await.unwrap(),
        Plan::Busy { ref key } if key == "key-open"
    ));
    assert!(second.pending().await.unwrap().writes.is_empty());
    drop(first);
    match second.resume(id.prefix()).await.unwrap() {
        Resume::Taken(entry) => assert_eq!(entry.write.key, "key-open"),
        other => panic!("a gone owner's entry is taken: {other:?}"),
    }
}

#[tokio::test]
async fn an_entry_is_settled_only_with_its_own_server_and_credential() {
    let scratch = Scratch::new();
    let server = created(201).await;
    let journal = scratch.open();
    let id = identity(&server, json!({}));
    send(&server, journal.clone(), &id, "key-a-01")
        .await
        .unwrap();
    drop(journal);
    let elsewhere = created(201).await;
    let journal = scratch.open();
    let client = Client::new(config(&elsewhere).journal(journal.clone())).unwrap();
    let recovery = client.recover_writes().await.unwrap();
    let write = &recovery.writes[0];
    assert!(!write.is_settled());
    let message = write.outcome.as_ref().unwrap_err().to_string();
    assert!(message.contains(&server.uri()), "{message}");
    let other_credential = Client::new(config(&server).bearer("pfx.other-secret").journal(journal))
        .unwrap()
        .recover_writes()
        .await
        .unwrap();
    assert!(!other_credential.writes[0].is_settled());
    assert!(elsewhere.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn many_owners_record_at_once_and_each_entry_is_claimed_once() {
    let scratch = Scratch::new();
    let server = created(201).await;
    let id = identity(&server, json!({}));
    let owners: Vec<_> = (0..8).map(|_| scratch.open()).collect();
    let mut tasks = Vec::new();
    for (o, journal) in owners.iter().enumerate() {
        for n in 0..25 {
            let (server, journal, id) = (server.uri(), journal.clone(), id.clone());
            tasks.push(tokio::spawn(async move {
                let config = common::config_for(&server)
                    .journal(journal)
                    .attempt_timeout(Duration::from_secs(60))
                    .total_timeout(Duration::from_secs(120));
                let client = Client::new(config).unwrap();
                let mut options = CallOptions::new();
                options.set_idempotency_key(format!("key-{o:02}-{n:03}"));
                options.set_intent(id.intent());
                client.execute::<Value>(create_request(), options).await
            }));
        }
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    drop(owners);
    let a = scratch.open();
    let b = scratch.open();
    let (ca, cb) = tokio::join!(a.pending(), b.pending());
    let (ca, cb) = (ca.unwrap().writes.len(), cb.unwrap().writes.len());
    assert_eq!(ca + cb, 200, "every entry is claimed by exactly one owner");
}

#[test]
fn a_journal_of_another_format_is_refused_not_replaced() {
    let scratch = Scratch::new();
    let path = scratch.0.join("journal.sqlite");
    let earlier = b"0123abcd {\"open\":{\"key\":\"k\"}}\n";
    std::fs::write(&path, earlier).unwrap();
    let err = SqliteJournal::open(&path).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("earlier version"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), earlier, "left as it was");
}

#[tokio::test]
async fn a_guarded_repeat_of_a_delivered_write_is_that_write_again() {
    let scratch = Scratch::new();
    let server = created(201).await;
    let journal = scratch.open();
    let id = identity(&server, json!({"buy": 1}));
    let key = new_key(plan(journal.as_ref(), &id, None).await.unwrap());
    send(&server, journal.clone(), &id, &key).await.unwrap();
    journal.acknowledge(&key).await.unwrap();
    let guard = Some(Duration::from_secs(600));
    match plan_guarded(journal.as_ref(), &id, None, guard)
        .await
        .unwrap()
    {
        Plan::Send {
            key: again,
            applied_at: Some(_),
        } => assert_eq!(again, key),
        other => panic!("within the guard, the delivered write again: {other:?}"),
    }
    // Unguarded, or another call, it is a new write.
    assert_ne!(
        new_key(plan(journal.as_ref(), &id, None).await.unwrap()),
        key
    );
    let other = identity(&server, json!({"buy": 2}));
    new_key(
        plan_guarded(journal.as_ref(), &other, None, guard)
            .await
            .unwrap(),
    );
}
