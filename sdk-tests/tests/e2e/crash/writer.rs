//! The writer process of the crash tests (this test binary again, running [`writer_child`]),
//! and what it shares with the tests that kill it: the intents it carries out, the
//! application's own durable record of their outcomes, and the environment that configures it.
//!
//! The writer does what `customer-cloud-sdk/README.md` asks of an application for exactly-once writes
//! across crashes: every write carries its intent and an SDK-generated key; at start-up it
//! recovers the journal, records each outcome in its own state, then acknowledges it; it sends
//! a new write only for an intent with no outcome and no journal entry.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use customer_cloud_sdk::{CallBuilder, deployments, dns};
use oncegen_runtime::{Config, Error, RetryPolicy, SqliteJournal};

use crate::harness::fast;
use crate::writes::{Plan, REGION, VARIANT};

pub const ENV_BASE_URL: &str = "CRASH_WRITER_BASE_URL";
pub const ENV_BEARER: &str = "CRASH_WRITER_BEARER";
pub const ENV_JOURNAL: &str = "CRASH_WRITER_JOURNAL";
pub const ENV_APP: &str = "CRASH_WRITER_APP_STATE";
pub const ENV_LANE: &str = "CRASH_WRITER_LANE";
pub const ENV_MODE: &str = "CRASH_WRITER_MODE";
pub const ENV_LIMIT: &str = "CRASH_WRITER_LIMIT";

/// What a writer process does after recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Carry out the lane's intents one after another, then idle until killed.
    Write,
    /// Recover and acknowledge, then exit by itself.
    Drain,
    /// Like `Write` with one attempt and no reconciliation, so that the sandbox's faults leave
    /// writes open in the journal.
    Prepare,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Write => "write",
            Mode::Drain => "drain",
            Mode::Prepare => "prepare",
        }
    }
}

/// The kind of write an intent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An atomic VPS deploy: no uniqueness on the server, a duplicate is a second VPS.
    Deploy,
    /// A DNS zone: unique by name, a duplicate attempt is a `zone_exists` rejection.
    Zone,
}

/// A lane: a sequence of intents carried out by writer processes one after another, with one
/// journal and one application state.
#[derive(Clone, Debug)]
pub struct Lane {
    /// Prefix of the intents' ids (`kp-deploy`, `rnd-2`…).
    pub tag: String,
    /// The kinds the intents take in turn.
    pub kinds: Vec<Kind>,
    /// Intents in the lane.
    pub count: usize,
    pub journal: PathBuf,
    pub app: PathBuf,
    /// The PostgreSQL journal's connection string, when the lane's writers share one
    /// ([`pg_writer_child`](super::pg_writer::pg_writer_child)); else the file `journal`.
    pub database: Option<String>,
}

/// One thing the application wants done once.
#[derive(Clone, Debug)]
pub struct Intent {
    pub id: String,
    pub kind: Kind,
}

impl Intent {
    /// The deploy's hostname or the zone's name.
    pub fn name(&self) -> String {
        match self.kind {
            Kind::Deploy => format!("{}.example.net", self.id),
            Kind::Zone => format!("{}.example", self.id),
        }
    }
}

impl Lane {
    pub fn new(dir: &Path, tag: &str, kinds: &[Kind], count: usize) -> Self {
        Self {
            tag: tag.to_owned(),
            kinds: kinds.to_vec(),
            count,
            journal: dir.join(format!("{tag}.journal")),
            app: dir.join(format!("{tag}.app")),
            database: None,
        }
    }

    pub fn intents(&self) -> Vec<Intent> {
        (0..self.count)
            .map(|i| Intent {
                id: format!("{}-{i:04}", self.tag),
                kind: self.kinds[i % self.kinds.len()],
            })
            .collect()
    }

    /// The environment of a writer process of this lane.
    pub fn env(&self, base: &str, bearer: &str, mode: Mode, limit: usize) -> Vec<(String, String)> {
        let kinds: Vec<&str> = self
            .kinds
            .iter()
            .map(|k| match k {
                Kind::Deploy => "deploy",
                Kind::Zone => "zone",
            })
            .collect();
        [
            (ENV_BASE_URL, base.to_owned()),
            (ENV_BEARER, bearer.to_owned()),
            (ENV_JOURNAL, self.journal.display().to_string()),
            (ENV_APP, self.app.display().to_string()),
            (
                ENV_LANE,
                format!("{}:{}:{}", self.tag, kinds.join(","), self.count),
            ),
            (ENV_MODE, mode.name().to_owned()),
            (ENV_LIMIT, limit.to_string()),
        ]
        .into_iter()
        .chain(
            self.database
                .iter()
                .map(|url| (super::pg_writer::ENV_DATABASE_URL, url.clone())),
        )
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }

    pub fn from_env() -> Self {
        let lane = var(ENV_LANE);
        let mut parts = lane.split(':');
        let tag = parts.next().expect("tag").to_owned();
        let kinds = parts
            .next()
            .expect("kinds")
            .split(',')
            .map(|k| {
                if k == "deploy" {
                    Kind::Deploy
                } else {
                    Kind::Zone
                }
            })
            .collect();
        let count = parts.next().expect("count").parse().expect("count");
        Self {
            tag,
            kinds,
            count,
            journal: var(ENV_JOURNAL).into(),
            app: var(ENV_APP).into(),
            database: std::env::var(super::pg_writer::ENV_DATABASE_URL).ok(),
        }
    }
}

pub fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name}: run only as a child"))
}

/// The application's own durable record: one line `<intent> <key>` per outcome, synced before
/// the outcome is acknowledged. A line torn by a kill is ignored (its outcome was not
/// acknowledged, so recovery reports it again).
pub struct AppState {
    path: PathBuf,
    /// Intent → the key of the write that carried it out.
    pub done: BTreeMap<String, String>,
}

impl AppState {
    pub fn load(path: &Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let complete = text.rfind('\n').map_or("", |end| &text[..end]);
        let mut done = BTreeMap::new();
        for line in complete.lines() {
            let (intent, key) = line.split_once(' ').expect("intent key");
            if let Some(earlier) = done.insert(intent.to_owned(), key.to_owned()) {
                assert_eq!(earlier, key, "intent {intent} recorded with two keys");
            }
        }
        Self {
            path: path.to_owned(),
            done,
        }
    }

    pub fn record(&mut self, intent: &str, key: &str) {
        if self.done.get(intent).is_some_and(|k| k == key) {
            return; // reported again after a kill: already recorded
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .expect("app state");
        file.write_all(format!("{intent} {key}\n").as_bytes())
            .expect("app state written");
        file.sync_data().expect("app state synced");
        self.done.insert(intent.to_owned(), key.to_owned());
    }
}

/// Prints a line the parent reads.
pub fn say(what: impl std::fmt::Display) {
    println!("crash-child {what}");
}

/// Records an applied write's outcome in the application's state, then acknowledges it.
async fn finish(client: &customer_cloud_sdk::Client, app: &mut AppState, intent: &str, key: &str) {
    app.record(intent, key);
    oncegen_runtime::crash_point::reached("acknowledge");
    client.acknowledge_write(key).await.expect("acknowledged");
}

/// Sends `intent` once with an SDK-generated key; returns the key.
pub async fn send(
    c: &customer_cloud_sdk::Client,
    intent: &Intent,
    plan: &Plan,
) -> Result<String, Error> {
    let meta = match intent.kind {
        Kind::Deploy => c
            .product_variant_deploy(
                deployments::ProductVariantDeployArgs {
                    region: REGION.to_owned(),
                    product_code:
                        customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                    variant_code: VARIANT.to_owned(),
                },
                deployments::ProductVariantDeployRequest::DeployRequest(
                    deployments::DeployRequest::new()
                        .hostname(intent.name())
                        .max_total(plan.total),
                ),
            )
            .intent(intent.id.clone())
            .send()
            .await?
            .meta()
            .clone(),
        Kind::Zone => c
            .create_dns_zone(dns::CreateDnsZoneRequest::new(intent.name()))
            .intent(intent.id.clone())
            .send()
            .await?
            .meta()
            .clone(),
    };
    Ok(meta.idempotency_key.expect("an SDK key"))
}

/// The writer process: recovers its lane's journal (recording and acknowledging each outcome),
/// then carries out the intents that have no outcome and no journal entry, reporting each
/// step on stdout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the writer process of the crash tests (run by them)"]
async fn writer_child() {
    let lane = Lane::from_env();
    let mode = match var(ENV_MODE).as_str() {
        "drain" => Mode::Drain,
        "prepare" => Mode::Prepare,
        _ => Mode::Write,
    };
    let limit: usize = var(ENV_LIMIT).parse().expect("limit");
    let client = journaled_client(&lane, mode);
    let mut app = AppState::load(&lane.app);
    let plan = Plan::read(&client).await;

    say("recovering");
    let mut unknown = recover(&client, &mut app).await;
    say("ready");
    if mode == Mode::Drain {
        assert!(
            unknown.is_empty(),
            "drained with unknown outcomes: {unknown:?}"
        );
        return;
    }
    let mut sent = 0;
    for intent in lane.intents() {
        if sent == limit {
            break;
        }
        if app.done.contains_key(&intent.id) || unknown.contains(&intent.id) {
            continue;
        }
        sent += 1;
        carry_out(&client, &mut app, &intent, &plan, &mut unknown).await;
    }
    say("idle");
    std::future::pending::<()>().await;
}

/// The SDK client of a writer process: the parent's server and credential, short timeouts,
/// the lane's file journal; in `Prepare` mode one attempt and no reconciliation.
fn journaled_client(lane: &Lane, mode: Mode) -> customer_cloud_sdk::Client {
    let mut config = fast(Config::new(var(ENV_BASE_URL)).bearer(var(ENV_BEARER)));
    if mode == Mode::Prepare {
        config = config.retry_policy(RetryPolicy {
            max_attempts: 1,
            reconcile_unknown_writes: false,
            ..RetryPolicy::default()
        });
    }
    let journal = SqliteJournal::open(&lane.journal).expect("journal opens");
    customer_cloud_sdk::Client::new(config.journal(Arc::new(journal))).expect("client")
}

/// Recovers the journal, which a kill must never damage: records and acknowledges each
/// settled outcome (every one applied). Returns the intents whose outcome is still unknown.
async fn recover(client: &customer_cloud_sdk::Client, app: &mut AppState) -> BTreeSet<String> {
    let recovery = client.recover_writes().await.expect("recovery");
    assert!(
        recovery.damaged.is_empty(),
        "a kill damaged the journal: {:?}",
        recovery.damaged
    );
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

/// Sends `intent`, then records and acknowledges its outcome, or adds it to `unknown` when
/// the outcome is unknown (left in the journal for a recovery). Any other error fails the
/// writer.
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
        Err(e) => panic!("intent {}: {e}", intent.id),
    };
    finish(client, app, &intent.id, &key).await;
    say(format_args!("acked {} {key}", intent.id));
}
