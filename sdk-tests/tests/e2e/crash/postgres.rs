//! The write journal in PostgreSQL under real crashes: a fleet of writer processes
//! ([`pg_writer_child`](super::pg_writer::pg_writer_child)) shares one journal in a throwaway
//! cluster ([`sdk_tests::postgres::Cluster`], started by the test) and one application state;
//! they are killed with SIGKILL
//!
//! * at every step of the journal protocol while writing, and while taking over the open
//!   entries of another writer that was killed;
//! * at random moments, 4 writers at a time, with faults injected by the sandbox, the database
//!   restarted half-way.
//!
//! The fleet connects as `journal_writer`, a role with only what `docs/journal.md` grants
//! (a schema of its own), never as a superuser, and over TLS only (`sslmode=verify-full`
//! against a CA the test makes; the cluster admits that role on TLS connections alone).
//!
//! At the end every intent must exist exactly once on the sandbox's ledger under exactly one
//! key (the database keeps every key an intent was journaled under): no duplicate, no write
//! resent under a new key, nothing lost. The kill counts are printed by where kills landed.

use std::sync::atomic::{AtomicUsize, Ordering};

use sdk_tests::postgres::{Cluster, LOCALHOST_SERVER, TlsFiles, certificates, required};

use super::*;

/// The owner ids of every writer's journal.
const WRITERS: &str = "sdk-journal-%";
/// Writers sharing the journal.
const FLEET: usize = 4;
/// Writers per lane in the random run, each killed once.
const RANDOM_CHILDREN: usize = 72;
/// The kills after which the database is restarted in the random run.
const RESTART_AFTER: usize = FLEET * RANDOM_CHILDREN / 2;

/// A cluster for `test`, or `None` (printed) when PostgreSQL is not installed and not required.
pub(super) fn cluster(test: &str) -> Option<Cluster> {
    match Cluster::start(test) {
        Ok(cluster) => Some(cluster),
        Err(e) if !required() => {
            eprintln!("e2e: SKIPPING `{test}`: {e} (under CI=true this fails)");
            None
        }
        Err(e) => panic!("`{test}` needs PostgreSQL (CI=true): {e}"),
    }
}

/// The project's documentation of the journal, whose SQL scripts the tests run as written.
const JOURNAL_DOCS: &str = include_str!("../../../../docs/journal.md");

/// The SQL script `docs/journal.md` marks `<!-- script: {name} -->`.
pub(super) fn documented_script(name: &str) -> &'static str {
    let marker = format!("<!-- script: {name} -->\n```sql\n");
    let start = JOURNAL_DOCS
        .find(&marker)
        .expect("the script is in docs/journal.md")
        + marker.len();
    let length = JOURNAL_DOCS[start..].find("```").expect("the script ends");
    &JOURNAL_DOCS[start..start + length]
}

/// Runs the documented script `name` on `cluster` as its superuser.
pub(super) async fn run_documented_script(cluster: &Cluster, name: &str) {
    let (client, connection) = tokio_postgres::connect(&cluster.url(), tokio_postgres::NoTls)
        .await
        .expect("the test connects to its cluster");
    tokio::spawn(connection);
    client
        .batch_execute(documented_script(name))
        .await
        .unwrap_or_else(|e| panic!("script {name} of docs/journal.md: {e}"));
}

/// The connection string of `role` on `cluster` (trust authentication on loopback).
pub(super) fn url_as(cluster: &Cluster, role: &str) -> String {
    format!("postgresql://{role}@127.0.0.1:{}/postgres", cluster.port())
}

/// Who admits whom on a fleet's cluster: the fleet's role over TLS only, the harness's
/// superuser (`sdk`) over plain TCP.
const FLEET_HBA: &str = "hostssl all journal_writer 127.0.0.1/32 trust\n\
                         host all sdk 127.0.0.1/32 trust\n";

/// Where a fleet test connects.
pub(super) struct Fleet {
    /// The cluster (TLS on, [`FLEET_HBA`]).
    pub(super) cluster: Cluster,
    /// The writers' connection string: role `journal_writer` (made by the documented script,
    /// no superuser) over TLS, `sslmode=verify-full` against the test's CA for `localhost`.
    pub(super) writer: String,
    /// The harness's: the superuser, for what the test reads of the journal.
    pub(super) admin: String,
}

/// A fleet's cluster for `test`, its certificates in `dir`; `None` (printed) when PostgreSQL
/// is not installed and not required.
async fn fleet_cluster(test: &str, dir: &Path) -> Option<Fleet> {
    certificates(dir, &[LOCALHOST_SERVER]);
    let files = TlsFiles {
        cert: &dir.join("server.crt"),
        key: &dir.join("server.key"),
        ca: &dir.join("ca.crt"),
    };
    let cluster = match Cluster::start_tls_with(test, &files, FLEET_HBA) {
        Ok(cluster) => cluster,
        Err(e) if !required() => {
            eprintln!("e2e: SKIPPING `{test}`: {e} (under CI=true this fails)");
            return None;
        }
        Err(e) => panic!("`{test}` needs PostgreSQL (CI=true): {e}"),
    };
    run_documented_script(&cluster, "own-schema").await;
    let admin = cluster.url();
    let rows = query(
        &admin,
        "SELECT rolsuper FROM pg_roles WHERE rolname = 'journal_writer'",
    )
    .await;
    assert!(!rows[0].get::<_, bool>(0), "the fleet is no superuser");
    let writer = format!(
        "postgresql://journal_writer@localhost:{}/postgres?sslmode=verify-full&sslrootcert={}",
        cluster.port(),
        dir.join("ca.crt").display()
    );
    Some(Fleet {
        cluster,
        writer,
        admin,
    })
}

/// `FLEET` lanes of `count` intents (deploys and zones), one journal in `url`, one application
/// state.
fn fleet(dir: &Path, tag: &str, count: usize, url: &str) -> Vec<Lane> {
    (0..FLEET)
        .map(|i| Lane {
            app: dir.join(format!("{tag}.app")),
            database: Some(url.to_owned()),
            ..Lane::new(
                dir,
                &format!("{tag}-{i}"),
                &[Kind::Deploy, Kind::Zone],
                count,
            )
        })
        .collect()
}

/// Runs `sql` on the cluster.
pub(super) async fn query(url: &str, sql: &str) -> Vec<tokio_postgres::Row> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the test connects to its cluster");
    tokio::spawn(connection);
    client.query(sql, &[]).await.expect(sql)
}

/// Waits until no journal whose owner id is like `owners` has a session left: a killed
/// writer's sessions end a moment after it, and only then are its entries free to take over.
pub(super) async fn sessions_gone(url: &str, owners: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let sql =
        format!("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE '{owners}'");
    while Instant::now() < deadline {
        let rows = query(url, &sql).await;
        if rows[0].get::<_, i64>(0) == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("a killed writer's database sessions did not end");
}

/// Every key each intent was journaled under (the database keeps acknowledged rows).
async fn journaled_keys(url: &str) -> Seen {
    let mut seen = Seen::default();
    for row in query(
        url,
        "SELECT intent, key FROM sdk_journal.sdk_journal_writes",
    )
    .await
    {
        let intent: String = row.get(0);
        seen.0.entry(intent).or_default().insert(row.get(1));
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_on_postgres_killed_at_every_step_of_the_protocol_loses_and_duplicates_nothing() {
    let test =
        "a_fleet_on_postgres_killed_at_every_step_of_the_protocol_loses_and_duplicates_nothing";
    let Some(env) =
        Env::sandbox_only(test, "the ledger, fault injection and child processes").await
    else {
        return;
    };
    let certs = temp_dir("pg-steps-tls");
    let Some(fleet_db) = fleet_cluster("steps", &certs.0).await else {
        return;
    };
    let sb = env.sb();
    tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(every_step(sb, &fleet_db))
    });
}

async fn every_step(sb: &Sandbox, db: &Fleet) {
    sb.set_balance(Decimal::new(1_000_000_000, 2));
    let dir = temp_dir("pg-steps");
    let started = Instant::now();
    let url = db.admin.as_str();
    let lanes = fleet(&dir.0, "pk", 40, &db.writer);
    let mut kills = Kills::default();
    let mut seen = Seen::default();
    for nth in 1..=2 {
        for (i, step) in STEPS.iter().enumerate() {
            let lane = &lanes[(i + nth as usize) % FLEET];
            drain(sb, lane, &mut seen).await;
            sessions_gone(url, WRITERS).await;
            let label = format!("writing, at {step}");
            kill_at(sb, lane, step, nth, &mut seen, &mut kills, &label).await;
        }
    }
    for (i, step) in RECOVERY_STEPS.iter().enumerate() {
        let (dead, taker) = (&lanes[i % FLEET], &lanes[(i + 1) % FLEET]);
        drain(sb, dead, &mut seen).await;
        leave_open(sb, dead, &mut seen, &mut kills).await;
        sessions_gone(url, WRITERS).await;
        let label = format!("taking over another writer's entries, at {step}");
        let lines = kill_at(sb, taker, step, RECOVERY_HIT, &mut seen, &mut kills, &label).await;
        // Only the dead writer's entries are open: a kill inside recovery lands in its takeover.
        let has = |line: &str| lines.iter().any(|l| l == line);
        assert!(
            has("crash-child recovering") && !has("crash-child ready"),
            "{label}: the kill did not land while taking over:\n{}",
            lines.join("\n")
        );
    }
    sessions_gone(url, WRITERS).await;
    for lane in &lanes {
        complete(sb, lane, &mut seen).await;
    }
    let intents = assert_exactly_once(sb, &lanes, &journaled_keys(url).await);
    println!(
        "crash on PostgreSQL (kill points): {FLEET} writers on one journal, {} killed with \
         SIGKILL in {:.1?}: {}; {intents} intents each applied exactly once under one key; \
         duplicates 0, resends under a new key 0, lost 0",
        kills.total(),
        started.elapsed(),
        kills.landed(),
    );
    assert_eq!(kills.total(), 2 * STEPS.len() + 2 * RECOVERY_STEPS.len());
}

/// Where the random kills landed, from what each writer printed before it died.
#[derive(Default)]
struct Landed {
    kills: Kills,
    /// Outcomes of other lanes' intents reported by a writer's recovery (takeovers).
    taken_over: usize,
    /// Writes acknowledged by writers started after the database restart.
    acked_after_restart: usize,
}

impl Landed {
    fn add(&mut self, lane: &Lane, lines: &[String], after_restart: bool) {
        let has = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
        let at = if has("crash-child waiting") && !has("crash-child ready") {
            "waiting for the database"
        } else if !has("crash-child recovering") {
            "starting"
        } else if !has("crash-child ready") {
            "recovering"
        } else if has("crash-child idle") {
            "idle"
        } else {
            "writing"
        };
        self.kills.add(at);
        let own = format!("crash-child recovered {}-", lane.tag);
        self.taken_over += lines
            .iter()
            .filter(|l| l.starts_with("crash-child recovered ") && !l.starts_with(&own))
            .count();
        if after_restart {
            self.acked_after_restart += lines
                .iter()
                .filter(|l| l.starts_with("crash-child acked "))
                .count();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_on_postgres_killed_at_random_with_a_database_restart_loses_and_duplicates_nothing()
{
    let test =
        "a_fleet_on_postgres_killed_at_random_with_a_database_restart_loses_and_duplicates_nothing";
    let Some(env) = Env::sandbox_only(test, "the ledger, faults and child processes").await else {
        return;
    };
    let certs = temp_dir("pg-random-tls");
    let Some(db) = fleet_cluster("random", &certs.0).await else {
        return;
    };
    let sb = env.sb();
    sb.set_balance(Decimal::new(1_000_000_000, 2));
    sb.inject_random(RandomFaults {
        seed: SEED,
        faults: vec![(Fault::DropAfterCommit, 0.10), (Fault::Status(503), 0.05)],
        matcher: Matcher::any(),
        per_key: true,
    });
    let dir = temp_dir("pg-random");
    let lanes = fleet(&dir.0, "pr", 120, &db.writer);
    let started = Instant::now();
    let (landed, restarted) = kill_fleet_at_random(&db.cluster, &Server::of(sb), &lanes);
    let children_time = started.elapsed();
    let faults = sb.injected_faults().len();
    sb.clear_faults();
    let mut seen = Seen::default();
    tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(async {
            sessions_gone(&db.admin, WRITERS).await;
            for lane in &lanes {
                complete(sb, lane, &mut seen).await;
            }
        })
    });
    let intents = assert_exactly_once(sb, &lanes, &journaled_keys(&db.admin).await);
    let mut kills = Kills::default();
    for l in &landed {
        kills.add_all(&l.kills);
    }
    let sum = |f: fn(&Landed) -> usize| landed.iter().map(f).sum::<usize>();
    println!(
        "crash on PostgreSQL (random): seed {SEED:#x}, {FLEET} writers at a time on one journal, \
         {} killed with SIGKILL in {children_time:.1?}, landing {}; {} outcomes of killed \
         writers' entries reported by another writer's takeover; database restarted after \
         {restarted} kills, {} writes acknowledged by writers started after it; {intents} \
         intents each applied exactly once under one key; duplicates 0, resends under a new key \
         0, lost 0; faults injected {faults}",
        kills.total(),
        kills.landed(),
        sum(|l| l.taken_over),
        sum(|l| l.acked_after_restart),
    );
    assert_eq!(kills.total(), FLEET * RANDOM_CHILDREN);
    assert!(restarted >= RESTART_AFTER);
}

/// Kills `RANDOM_CHILDREN` writers of each lane at random (the lanes side by side, seeded
/// from [`SEED`]) while the database is restarted half-way; returns where each lane's kills
/// landed and how many writers were killed before the database came back.
fn kill_fleet_at_random(
    cluster: &Cluster,
    server: &Server,
    lanes: &[Lane],
) -> (Vec<Landed>, usize) {
    let killed = AtomicUsize::new(0);
    let restarted = AtomicUsize::new(0);
    let running = AtomicUsize::new(FLEET);
    let mut seeds = Rng::new(SEED);
    let lane_seeds: Vec<u64> = lanes.iter().map(|_| seeds.next_u64()).collect();
    let landed = tokio::task::block_in_place(|| {
        std::thread::scope(|scope| {
            scope.spawn(|| restart_half_way(cluster, &killed, &running, &restarted));
            let lanes: Vec<_> = lanes
                .iter()
                .zip(&lane_seeds)
                .map(|(lane, seed)| {
                    let (killed, restarted, running) = (&killed, &restarted, &running);
                    scope.spawn(move || {
                        let _running = Running(running);
                        kill_lane_at_random(lane, server, *seed, killed, restarted)
                    })
                })
                .collect();
            lanes.into_iter().map(|l| l.join().expect("lane")).collect()
        })
    });
    (landed, restarted.load(Ordering::SeqCst))
}

/// Spawns the lane's writers one after another, each killed after a random delay aimed in
/// turn by [`AIMS`], counting them in `killed`; returns where the kills landed.
fn kill_lane_at_random(
    lane: &Lane,
    server: &Server,
    seed: u64,
    killed: &AtomicUsize,
    restarted: &AtomicUsize,
) -> Landed {
    let mut rng = Rng::new(seed);
    let mut landed = Landed::default();
    for child in 0..RANDOM_CHILDREN {
        let after_restart = restarted.load(Ordering::SeqCst) > 0;
        let lines = AIMS[child % AIMS.len()].kill(lane, server, &mut rng);
        landed.add(lane, &lines, after_restart);
        killed.fetch_add(1, Ordering::SeqCst);
    }
    landed
}

/// Restarts the database once `RESTART_AFTER` writers were killed (or every lane ended), then
/// records in `restarted` how many were killed before it came back.
fn restart_half_way(
    cluster: &Cluster,
    killed: &AtomicUsize,
    running: &AtomicUsize,
    restarted: &AtomicUsize,
) {
    while killed.load(Ordering::SeqCst) < RESTART_AFTER && running.load(Ordering::SeqCst) > 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
    cluster.stop().expect("the database stops");
    std::thread::sleep(Duration::from_millis(500));
    cluster.start_server().expect("the database starts again");
    restarted.store(killed.load(Ordering::SeqCst), Ordering::SeqCst);
}

/// Counts a lane out when it ends, panicking or not (the restart stops waiting for it).
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
