//! The write journal against the sandbox (issue #20): write throughput with and without a
//! [`SqliteJournal`] at 1, 16 and 64 writes in flight (one client shared by the tasks, so
//! concurrent records share an fsync), the same with a [`PostgresJournal`] in a throwaway
//! cluster (issue #34; concurrent records share a commit), each with durable acknowledgements
//! (the default) and without (issue 42: `durable_acknowledgements(false)`), and the time
//! `recover_writes` takes to settle 100 open entries. The journals live under `target/` (a
//! real disk: `/tmp` may be memory).
//!
//! A journaled write here is the whole protocol an application runs: record and fsync, send,
//! record the outcome, acknowledge.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cloud_sandbox::{Fault, Matcher, Sandbox};
use customer_cloud_sdk::{Client, Config, RetryPolicy, dns};
use futures::StreamExt;
use oncegen_runtime::journal::WriteJournal;
use oncegen_runtime::{PostgresJournal, SqliteJournal};
use sdk_tests::postgres::Cluster;

use crate::repo_root;
use crate::stats::median;

/// Writes in flight measured.
pub const IN_FLIGHT: [usize; 3] = [1, 16, 64];
/// Open entries recovered.
pub const OPEN_ENTRIES: usize = 100;
const ROUNDS: usize = 5;

/// One measurement of the section.
#[derive(Clone, Debug)]
pub struct Throughput {
    pub in_flight: usize,
    /// Writes per second, median of the rounds.
    pub unjournaled: f64,
    /// Journaled, acknowledgements durable (the default).
    pub durable: f64,
    /// Journaled, acknowledgements not waiting for the disk.
    pub relaxed: f64,
}

/// One journal's two choices of acknowledgement durability, measured side by side.
pub struct Choices {
    pub durable: Arc<dyn WriteJournal>,
    pub relaxed: Arc<dyn WriteJournal>,
}

/// A scratch directory under `target/`, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        let dir = repo_root()
            .join("target")
            .join(format!("bench-journal-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config(sb: &Sandbox) -> Config {
    Config::new(sb.base_url()).bearer(sb.credentials().bearer.bearer_token())
}

/// Creates `count` zones with `in_flight` at a time; returns writes per second.
async fn run(client: &Client, journaled: bool, in_flight: usize, count: usize, tag: &str) -> f64 {
    let started = Instant::now();
    let results: Vec<_> = futures::stream::iter(0..count)
        .map(|i| async move {
            let zone = dns::CreateDnsZoneRequest::new(format!("{tag}-{i}.example"));
            let created = client.create_dns_zone(zone).send().await?;
            if journaled {
                let key = created.meta().idempotency_key.clone().unwrap_or_default();
                client.acknowledge_write(&key).await?;
            }
            Ok::<_, customer_cloud_sdk::Error>(())
        })
        .buffer_unordered(in_flight)
        .collect()
        .await;
    let elapsed = started.elapsed();
    for r in results {
        r.expect("write");
    }
    count as f64 / elapsed.as_secs_f64()
}

/// Throughput at each of [`IN_FLIGHT`], journaled in each of `journals` and not, interleaved
/// rounds; `name` keeps the zones of one journal's runs apart from another's.
pub async fn throughput(sb: &Sandbox, journals: Choices, name: &str) -> Vec<Throughput> {
    let plain = Client::new(config(sb)).expect("client");
    let durable = Client::new(config(sb).journal(journals.durable)).expect("client");
    let relaxed = Client::new(config(sb).journal(journals.relaxed)).expect("client");
    let clients = [
        (&plain, false, "p"),
        (&durable, true, "d"),
        (&relaxed, true, "r"),
    ];
    let mut out = Vec::new();
    for in_flight in IN_FLIGHT {
        let count = (in_flight * 25).max(100);
        let mut rates: [Vec<f64>; 3] = Default::default();
        // Warm-up: connections, the journal file.
        for (client, journaled, tag) in clients {
            let tag = format!("{name}-w{in_flight}-{tag}");
            run(client, journaled, in_flight, count / 4, &tag).await;
        }
        for round in 0..ROUNDS {
            for (i, (client, journaled, tag)) in clients.into_iter().enumerate() {
                let tag = format!("{name}-r{round}-{in_flight}-{tag}");
                rates[i].push(run(client, journaled, in_flight, count, &tag).await);
            }
        }
        let [mut without, mut with_durable, mut with_relaxed] = rates;
        out.push(Throughput {
            in_flight,
            unjournaled: median(&mut without),
            durable: median(&mut with_durable),
            relaxed: median(&mut with_relaxed),
        });
    }
    out
}

/// Leaves [`OPEN_ENTRIES`] writes open in a journal (the sandbox answers each 503, half of them
/// after committing; one attempt, no reconciliation), then times a fresh client's
/// `recover_writes` over them. Returns the time and how many were settled.
pub async fn recovery(sb: &Sandbox) -> (Duration, usize) {
    let scratch = Scratch::new();
    let path = scratch.0.join("writes.journal");
    let post = Matcher {
        method: Some("POST".into()),
        ..Matcher::default()
    };
    let half = (OPEN_ENTRIES / 2) as u32;
    sb.inject(Fault::StatusAfterCommit(503), post.clone(), half);
    sb.inject(Fault::Status(503), post, half);
    {
        let journal = SqliteJournal::open(&path).expect("journal");
        let one_attempt = RetryPolicy {
            max_attempts: 1,
            reconcile_unknown_writes: false,
            ..RetryPolicy::default()
        };
        let writer = Client::new(
            config(sb)
                .journal(Arc::new(journal))
                .retry_policy(one_attempt),
        )
        .expect("client");
        for i in 0..OPEN_ENTRIES {
            let zone = dns::CreateDnsZoneRequest::new(format!("recover-{i}.example"));
            let err = writer
                .create_dns_zone(zone)
                .send()
                .await
                .expect_err("faulted");
            assert!(err.is_write_outcome_unknown(), "{err}");
        }
    }
    sb.clear_faults();
    let journal = SqliteJournal::open(&path).expect("journal");
    let client = Client::new(config(sb).journal(Arc::new(journal))).expect("client");
    let started = Instant::now();
    let recovery = client.recover_writes().await.expect("recovery");
    let elapsed = started.elapsed();
    assert_eq!(recovery.writes.len(), OPEN_ENTRIES);
    let settled = recovery.writes.iter().filter(|w| w.is_settled()).count();
    (elapsed, settled)
}

/// Prints one journal's rows.
fn table(rows: &[Throughput]) {
    println!(
        "| in flight | unjournaled writes/s | journaled, durable acks (default) | journaled, acks not durable | **durable / unjournaled** | **not durable / unjournaled** |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for t in rows {
        println!(
            "| {} | {:.0} | {:.0} | {:.0} | **{:.2}** | **{:.2}** |",
            t.in_flight,
            t.unjournaled,
            t.durable,
            t.relaxed,
            t.durable / t.unjournaled,
            t.relaxed / t.unjournaled
        );
    }
}

/// The SQLite journal's two choices, in `scratch`.
fn sqlite_choices(scratch: &Scratch) -> Choices {
    let open = |file: &str, durable: bool| -> Arc<dyn WriteJournal> {
        let journal = SqliteJournal::builder(scratch.0.join(file))
            .durable_acknowledgements(durable)
            .open()
            .expect("journal");
        Arc::new(journal)
    };
    Choices {
        durable: open("durable.journal", true),
        relaxed: open("relaxed.journal", false),
    }
}

/// The PostgreSQL journal's two choices, in `cluster` (one namespace each).
async fn postgres_choices(cluster: &Cluster) -> Choices {
    Choices {
        durable: postgres(cluster, "durable", true).await,
        relaxed: postgres(cluster, "relaxed", false).await,
    }
}

async fn postgres(cluster: &Cluster, namespace: &str, durable: bool) -> Arc<dyn WriteJournal> {
    let journal = PostgresJournal::builder(cluster.url())
        .namespace(namespace)
        .durable_acknowledgements(durable)
        .connect()
        .await
        .expect("the journal connects to its cluster");
    Arc::new(journal)
}

/// Prints the section.
pub fn section() {
    println!("## Write journal against the sandbox (issue #20)\n");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let sb = Sandbox::start().await.expect("sandbox");
        sb.set_rate_limit(None);
        println!(
            "DNS zone creations through `customer-cloud-sdk`, one client shared by the tasks in flight, \
             against the in-process sandbox on a multi-thread runtime; {ROUNDS} interleaved \
             rounds, median writes per second. Journaled: a `SqliteJournal` under `target/`, \
             record + fsync (group commit) before the send, outcome recorded after, then \
             acknowledged; durable acks: settlements and acknowledgements with \
             `synchronous = FULL` (the default), not durable: `synchronous = NORMAL` \
             (`durable_acknowledgements(false)`).\n"
        );
        let scratch = Scratch::new();
        table(&throughput(&sb, sqlite_choices(&scratch), "file").await);
        println!(
            "\nThe same with a `PostgresJournal` (feature `postgres`) in a throwaway PostgreSQL \
             cluster on loopback under `target/` (default settings: `fsync` on, records \
             committed synchronously, one commit per group of records); durable acks: \
             settlements and acknowledgements with `synchronous_commit` on (the default), not \
             durable: `synchronous_commit = off`:\n"
        );
        match Cluster::start("bench-journal") {
            Ok(cluster) => {
                let choices = postgres_choices(&cluster).await;
                table(&throughput(&sb, choices, "pg").await);
            }
            Err(e) => println!("PostgreSQL rows not measured: {e}"),
        }
        let (elapsed, settled) = recovery(&sb).await;
        println!(
            "\nRecovery: {OPEN_ENTRIES} open entries (half committed before their 503) settled \
             by `recover_writes` in **{:.0} ms** ({settled} settled; lookup and same-key resend, \
             {} at a time).\n",
            elapsed.as_secs_f64() * 1e3,
            oncegen_runtime::RECOVERY_CONCURRENCY
        );
    });
}
