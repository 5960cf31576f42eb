//! The write journal in PostgreSQL: [`PostgresJournal`], whose docs give its rules.

mod connstring;
mod link;
mod recorder;
mod schema;
mod tls;

use std::fmt;
use std::io;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Row};

use crate::write::journal::{
    DamagedRecord, EntryOwner, JournaledWrite, OpenEntry, Pending, PendingWrite, Settlement,
    WriteJournal,
};
use crate::write::journal_metrics::{self, Figures, Step};
use crate::write::stored::{self, decode_headers, decode_settlement, encode_settlement};
use link::{Database, Link, connect, sql_result, within};

/// Renews this owner's leases: `$1` owner, `$2` lease in seconds.
const RENEW: &str = "UPDATE sdk_journal_writes SET lease_until = now() + make_interval(secs => $2) \
     WHERE owner = $1 AND acknowledged_at IS NULL";

/// Deletes acknowledged rows older than `$1` seconds.
const PRUNE: &str = "DELETE FROM sdk_journal_writes \
     WHERE acknowledged_at < now() - make_interval(secs => $1)";

/// Claims, oldest first, at most `$4` open entries of namespace `$3` that are owner `$1`'s
/// (host `$5`, process `$6`) or whose owner is gone (`$gone`), under a lease of `$2` seconds;
/// each row ends with its previous owner.
macro_rules! claim {
    ($gone:literal) => {
        concat!(
            "UPDATE sdk_journal_writes w \
             SET owner = $1, lease_until = now() + make_interval(secs => $2), \
                owner_host = $5, owner_pid = $6 \
             FROM ( \
                SELECT o.key, o.owner AS previous FROM sdk_journal_writes o \
                WHERE o.namespace = $3 AND o.acknowledged_at IS NULL \
                  AND (o.owner = $1 OR o.lease_until < now()",
            $gone,
            ") ORDER BY o.seq LIMIT $4 \
                FOR UPDATE OF o SKIP LOCKED \
             ) c \
             WHERE w.key = c.key \
             RETURNING w.seq, w.key, w.intent, w.operation_id, w.method, w.target, w.server, \
                w.content_type, w.body, w.client_request_id, w.headers, w.settlement, w.base_url, \
                w.credential, w.settled_at, c.previous"
        )
    };
}

/// [`claim!`] of entries whose lease expired or whose owner has no session left.
const CLAIM: &str =
    claim!(" OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = o.owner)");

/// [`claim!`] of entries whose lease expired, for a role that cannot see sessions.
const CLAIM_BY_LEASE: &str = claim!("");

/// Every open entry of namespace `$1`, oldest first, with its owner and whether that owner is
/// alive: its lease holds and (unless `$2`, for a role that cannot see sessions) it has a
/// session.
const OPEN_ENTRIES: &str = "SELECT w.key, w.intent, w.operation_id, w.method, w.target, \
        w.base_url, w.applied, w.recorded_at, w.owner, w.owner_host, w.owner_pid, \
        w.lease_until, w.lease_until >= now() AND ($2 OR EXISTS ( \
            SELECT 1 FROM pg_stat_activity a WHERE a.application_name = w.owner)) \
     FROM sdk_journal_writes w WHERE w.namespace = $1 AND w.acknowledged_at IS NULL \
     ORDER BY w.seq";

/// Whether this role may read `pg_stat_activity`.
const MAY_SEE_SESSIONS: &str = "SELECT has_table_privilege('pg_catalog.pg_stat_activity', \
     'SELECT') AND has_function_privilege('pg_catalog.pg_stat_get_activity(integer)', 'EXECUTE')";

/// Whether `pg_stat_activity` shows the session whose `application_name` is `$1`.
const SEES_SESSION: &str = "SELECT EXISTS (SELECT 1 FROM pg_stat_activity \
     WHERE application_name = $1)";

/// Records the outcome `$2` (applied: `$3`) of the open entry `$1`; returns its owner.
const SETTLE: &str = "UPDATE sdk_journal_writes SET settlement = $2, applied = $3, \
        settled_at = now() \
     WHERE key = $1 AND acknowledged_at IS NULL RETURNING owner";

/// How many entries of namespace `$1` are open, and how many seconds ago the oldest was
/// recorded.
const OPEN_FIGURES: &str = "SELECT count(*), \
        extract(epoch FROM now() - min(recorded_at))::float8 \
     FROM sdk_journal_writes WHERE namespace = $1 AND acknowledged_at IS NULL";

/// Closes entry `$1`; an intent certainly not applied is released for a new key.
const ACKNOWLEDGE: &str = "UPDATE sdk_journal_writes SET acknowledged_at = now(), \
        released = coalesce(NOT applied, false), body = ''::bytea, settlement = NULL \
     WHERE key = $1 AND acknowledged_at IS NULL";

/// The [`WriteJournal`] in PostgreSQL (cargo feature `postgres`): one journal shared by many
/// processes on many machines. Its rules — connection string and TLS, the privileges its role
/// needs, deadlines, and what a fleet of writers can rely on — are in the project's
/// `docs/journal.md`; in short:
///
/// Driver: `tokio-postgres`, the plain asynchronous client the SDK's runtime already fits
/// (tokio), with no ORM, macros or connection pool to bring in: the journal needs a handful of
/// statements on a few connections (records on one, claims and renewals on another, durable
/// settlements and acknowledgements spread over four more, opened on first use). TLS through
/// rustls (`tls.rs`) with libpq's `sslmode`, `sslrootcert`, `sslcert` and `sslkey`; the
/// connection string as a URL or `key=value` pairs, completed by the `PG*` environment
/// variables (`connstring.rs`).
///
/// # Tables
///
/// The SDK creates and migrates its own tables on [`PostgresJournal::connect`]
/// (`sdk_journal_schema` holds the version; migrations run once, under an advisory lock):
/// `sdk_journal_writes` has one row per journaled write, its outcome once settled, its owner and
/// the owner's lease. A role may own a schema for them, or be given tables an administrator
/// created; no superuser.
///
/// # Many processes
///
/// * **Ownership.** Each `PostgresJournal` is an owner with a random id (also its connections'
///   `application_name`). A write it records is its own; its leases are renewed in the
///   background every third of [`PostgresJournalBuilder::lease`] while it lives.
/// * **Recovery claims.** [`pending`](WriteJournal::pending) (called by
///   [`Client::recover_writes`](crate::Client::recover_writes)) claims the open entries that are
///   its own or whose owner is gone — its lease expired, or it has no session left on the
///   database (a killed process's connections close at once) — with `FOR UPDATE SKIP LOCKED`,
///   and takes them over under its own lease: two recoveries never claim one entry at once. A
///   live owner's entries can still be claimed: after a database restart (every session ended)
///   or a pause longer than its lease, while it may still be sending or settling them. That
///   stays safe: the entry keeps its key, so the server replays instead of applying twice. A
///   role that may not read `pg_stat_activity` claims by leases alone (a warning says so).
/// * **One key per intent.** A write with an [intent](crate::CallOptions::set_intent) is refused
///   (nothing is sent, [`io::ErrorKind::AlreadyExists`]) while another key of that intent is
///   open, or was acknowledged as applied: across the fleet, an intent goes out under one key.
///   An intent acknowledged as certainly not applied may be sent again under a new key.
///   Acknowledged rows are kept (without their body) for
///   [`PostgresJournalBuilder::keep_acknowledged`], then deleted.
///
/// # Fail closed, in time
///
/// `record` commits before the write is sent; when the database is unreachable, refusing or
/// hung it fails and the call returns [`Error::Journal`](crate::Error::Journal) (retryable:
/// nothing was sent). Every operation runs within [`PostgresJournalBuilder::timeout`]
/// (connection wait, connect, prepare and statements included), and a call's journal steps
/// within its deadline too; a record whose caller gave up is never left for recovery to send.
/// A dropped or timed-out connection is opened again on next use. Records share one commit per
/// group of concurrent writes; settlements and acknowledgements wait for the disk too unless
/// [`PostgresJournalBuilder::durable_acknowledgements`] is off (`synchronous_commit = off`, as
/// [`WriteJournal`] allows).
///
/// # Figures
///
/// Open entries and the oldest one's age (at each renewal and claim), takeovers, lease
/// renewals and losses, failures and waits, through the `metrics` facade
/// (`write::journal_metrics`, the same figures as the SQLite journal's).
#[derive(Clone)]
pub struct PostgresJournal {
    shared: Arc<Shared>,
}

/// Who this journal is: what it writes with every row it owns.
struct Identity {
    namespace: String,
    owner: String,
    /// This machine's host name and this process's id, for operators.
    host: String,
    pid: i32,
    lease: Duration,
}

struct Shared {
    identity: Arc<Identity>,
    /// Where, for `Debug` (host, port and database; never credentials).
    target: String,
    keep_acknowledged: Duration,
    claim_limit: i64,
    /// Whether this role sees other sessions' `application_name` (else claims wait for leases).
    sees_sessions: bool,
    /// Claims, lease renewals and listings; settlements and acknowledgements too when they
    /// need not be durable.
    link: Link,
    /// Durable settlements and acknowledgements, spread over [`SETTLING_LINKS`] connections:
    /// statements pipelined on one connection commit one after the other, each waiting for its
    /// own WAL flush, while concurrent sessions' commits share flushes. Empty when they need
    /// not be durable.
    settling: Vec<Link>,
    /// The next of `settling` to use.
    next: std::sync::atomic::AtomicUsize,
    figures: Figures,
    records: mpsc::UnboundedSender<recorder::Job>,
}

/// Options of a [`PostgresJournal`]; [`connect`](Self::connect) opens it.
#[derive(Clone)]
pub struct PostgresJournalBuilder {
    url: String,
    namespace: String,
    lease: Duration,
    keep_acknowledged: Duration,
    claim_limit: usize,
    timeout: Duration,
    durable_acknowledgements: bool,
}

impl fmt::Debug for PostgresJournalBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The connection string may hold a password: not shown.
        f.debug_struct("PostgresJournalBuilder")
            .field("namespace", &self.namespace)
            .field("lease", &self.lease)
            .field("keep_acknowledged", &self.keep_acknowledged)
            .field("claim_limit", &self.claim_limit)
            .field("timeout", &self.timeout)
            .field("durable_acknowledgements", &self.durable_acknowledgements)
            .finish_non_exhaustive()
    }
}

impl PostgresJournalBuilder {
    /// Separates journals sharing one database (e.g. per application or account): a journal
    /// only claims entries of its own namespace. Default `default`.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = namespace.into();
        self
    }

    /// How long an entry stays this journal's without a renewal (renewed every third of it
    /// while the journal lives). Another process takes over the entries of an owner whose
    /// lease expired. Default 30 s.
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// How long acknowledged entries are kept (without their body) to refuse their intent
    /// under a new key. Default 7 days.
    pub fn keep_acknowledged(mut self, keep: Duration) -> Self {
        self.keep_acknowledged = keep;
        self
    }

    /// Entries one recovery claims at most (the rest wait for the next). Default 1,000.
    pub fn claim_limit(mut self, limit: usize) -> Self {
        self.claim_limit = limit.max(1);
        self
    }

    /// How long one journal operation may take at most, whatever the database does (waiting
    /// for the connection, connecting, preparing and statements included); past it the
    /// operation fails ([`io::ErrorKind::TimedOut`]). A call's own deadline
    /// ([`total_timeout`](crate::Config::total_timeout)) bounds its journal steps further.
    /// Default 10 s.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Whether settlements and acknowledgements (and takeovers and lease renewals, which share
    /// their connection) wait for the database's disk: `synchronous_commit` on for that
    /// connection. Default `true`, the safe choice: once acknowledged, an entry stays closed
    /// through a database crash, an immediate stop or a power cut. `false` skips the wait
    /// (`synchronous_commit = off`, faster: `bench-report journal`); then such a crash may
    /// reopen the last ~600 ms of acknowledgements, and recovery reports those outcomes again
    /// or resends under the same key (the acknowledgement window, `docs/journal.md`). Records
    /// are durable either way.
    pub fn durable_acknowledgements(mut self, durable: bool) -> Self {
        self.durable_acknowledgements = durable;
        self
    }

    /// Connects (within [`timeout`](Self::timeout)), creates or migrates the tables, and starts
    /// renewing this journal's leases. Fails when the database is unreachable or the connection
    /// string is not valid (the error never repeats the string: it may hold a password). What
    /// the string leaves out comes from the `PG*` environment variables.
    pub async fn connect(self) -> io::Result<PostgresJournal> {
        let settings = connstring::parse(&self.url, |name| std::env::var(name).ok())?;
        let mut config = settings.config;
        let owner = format!("sdk-journal-{}", uuid::Uuid::new_v4().simple());
        config.application_name(&owner);
        let database = Arc::new(Database {
            config,
            tls: settings.tls.connector()?,
            timeout: self.timeout,
        });
        let (first, sees_sessions) = within(self.timeout, async {
            let mut first = connect(&database, true).await?;
            schema::migrate(&mut first).await?;
            let sees = sees_sessions(&first, &owner).await?;
            Ok((first, sees))
        })
        .await?;
        let identity = Arc::new(Identity {
            namespace: self.namespace,
            owner,
            host: gethostname::gethostname().to_string_lossy().into_owned(),
            pid: std::process::id() as i32,
            lease: self.lease,
        });
        let (records, jobs) = mpsc::unbounded_channel();
        tokio::spawn(recorder::run(
            identity.clone(),
            database.clone(),
            Some(first),
            jobs,
        ));
        let shared = Arc::new(Shared {
            identity,
            target: describe(&database.config),
            keep_acknowledged: self.keep_acknowledged,
            claim_limit: self.claim_limit as i64,
            sees_sessions,
            settling: settling_links(&database, self.durable_acknowledgements),
            next: Default::default(),
            link: Link::new(database, self.durable_acknowledgements),
            figures: Figures::new(journal_metrics::POSTGRES),
            records,
        });
        tokio::spawn(renew(Arc::downgrade(&shared)));
        tracing::info!(
            owner = %shared.identity.owner,
            database = %shared.target,
            pid = std::process::id(),
            "write journal opened in PostgreSQL"
        );
        Ok(PostgresJournal { shared })
    }
}

/// Whether `client`'s role sees the sessions of `pg_stat_activity`, its own included; when it
/// does not, recovery takes over another owner's entries only once their lease expired (said
/// once, in a warning).
async fn sees_sessions(client: &tokio_postgres::Client, owner: &str) -> io::Result<bool> {
    let may = sql_result(client.query_one(MAY_SEE_SESSIONS, &[])).await?;
    let sees = may.get::<_, bool>(0)
        && sql_result(client.query_one(SEES_SESSION, &[&owner]))
            .await?
            .get::<_, bool>(0);
    if !sees {
        tracing::warn!(
            "the write journal's role cannot see sessions in pg_stat_activity: the entries of \
             a writer that died are taken over only once its lease expired"
        );
    }
    Ok(sees)
}

impl fmt::Debug for PostgresJournal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresJournal")
            .field("database", &self.shared.target)
            .field("namespace", &self.shared.identity.namespace)
            .field("owner", &self.shared.identity.owner)
            .finish_non_exhaustive()
    }
}

impl PostgresJournal {
    /// Options for a journal at `url` (a `postgresql://` URL or a `key=value` string).
    pub fn builder(url: impl Into<String>) -> PostgresJournalBuilder {
        PostgresJournalBuilder {
            url: url.into(),
            namespace: "default".to_owned(),
            lease: Duration::from_secs(30),
            keep_acknowledged: Duration::from_secs(7 * 24 * 3600),
            claim_limit: 1000,
            timeout: Duration::from_secs(10),
            durable_acknowledgements: true,
        }
    }

    /// A journal at `url` with the default options (see [`PostgresJournalBuilder`]).
    pub async fn connect(url: impl Into<String>) -> io::Result<Self> {
        Self::builder(url).connect().await
    }

    /// This journal's owner id: its rows' `owner` and its connections' `application_name`.
    pub fn owner(&self) -> &str {
        &self.shared.identity.owner
    }
}

/// Connections for durable settlements and acknowledgements (opened on first use).
const SETTLING_LINKS: usize = 4;

/// The settling links of a journal whose acknowledgements are `durable`; none when they are
/// not (then they share the journal's one connection, committing without waiting).
fn settling_links(database: &Arc<Database>, durable: bool) -> Vec<Link> {
    let count = if durable { SETTLING_LINKS } else { 0 };
    (0..count)
        .map(|_| Link::new(database.clone(), true))
        .collect()
}

/// Host, port and database of `config`.
fn describe(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{host}:{port}/{}", config.get_dbname().unwrap_or_default())
}

/// Renews the journal's leases while it lives, and deletes acknowledged rows past their time.
async fn renew(shared: Weak<Shared>) {
    let Some(period) = shared.upgrade().map(|s| s.identity.lease / 3) else {
        return;
    };
    let mut ticks: u64 = 0;
    loop {
        tokio::time::sleep(period).await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        match shared.renew(ticks.is_multiple_of(64)).await {
            Ok(()) => shared.figures.renewed(),
            Err(e) => {
                shared.figures.failed(&e);
                tracing::warn!(error = %e, "the write journal could not renew its leases");
            }
        }
        if let Err(e) = shared.count_open().await {
            shared.figures.failed(&e);
        }
        ticks += 1;
    }
}

impl Shared {
    /// The connection for the next settlement or acknowledgement.
    fn settling(&self) -> &Link {
        if self.settling.is_empty() {
            return &self.link;
        }
        let next = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        &self.settling[next % self.settling.len()]
    }

    async fn renew(&self, prune: bool) -> io::Result<()> {
        let lease = self.identity.lease.as_secs_f64();
        let owner = &self.identity.owner;
        let renew = |client: Arc<Client>, renew| async move {
            client.execute(&renew, &[owner, &lease]).await
        };
        self.link.run(RENEW, renew).await?;
        if prune {
            let keep = self.keep_acknowledged.as_secs_f64();
            let prune =
                |client: Arc<Client>, prune| async move { client.execute(&prune, &[&keep]).await };
            let pruned = self.link.run(PRUNE, prune).await?;
            self.figures.pruned(pruned);
        }
        Ok(())
    }

    /// Reports the namespace's open entries and the oldest one's age.
    async fn count_open(&self) -> io::Result<()> {
        let namespace = &self.identity.namespace;
        let count = |client: Arc<Client>, count| async move {
            client.query_one(&count, &[namespace]).await
        };
        let row = self.link.run(OPEN_FIGURES, count).await?;
        let age = row.get::<_, Option<f64>>(1);
        let age = age.map(|s| Duration::from_secs_f64(s.max(0.0)));
        self.figures.open(row.get::<_, i64>(0) as u64, age);
        Ok(())
    }

    /// Counts the claimed `rows` that another owner held, by that owner.
    fn report_takeovers(&self, rows: &[Row]) {
        let me = &self.identity.owner;
        let mut by_owner = std::collections::BTreeMap::<String, u64>::new();
        for row in rows {
            let previous: String = row.get(15);
            if previous != *me {
                *by_owner.entry(previous).or_default() += 1;
            }
        }
        for (from, count) in by_owner {
            self.figures.took_over(count, me, &from);
        }
    }

    /// Claims the open entries that are this journal's or whose owner is gone.
    async fn claim(&self) -> io::Result<Vec<Row>> {
        let sql = if self.sees_sessions {
            CLAIM
        } else {
            CLAIM_BY_LEASE
        };
        let lease = self.identity.lease.as_secs_f64();
        let params: [&(dyn ToSql + Sync); 6] = [
            &self.identity.owner,
            &lease,
            &self.identity.namespace,
            &self.claim_limit,
            &self.identity.host,
            &self.identity.pid,
        ];
        let claim = |client: Arc<Client>, claim| async move { client.query(&claim, &params).await };
        self.link.run(sql, claim).await
    }
}

impl WriteJournal for PostgresJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let (done, recorded) = oneshot::channel();
            let job = recorder::Job {
                write: write.clone(),
                done,
            };
            let stopped = || io::Error::other("the write journal's recorder stopped");
            self.shared.records.send(job).map_err(|_| stopped())?;
            // Waiting for the recorder is bounded too: it may be busy with an earlier batch.
            let waited = within(self.shared.link.timeout(), async {
                recorded.await.map_err(|_| stopped())?
            });
            self.shared.figures.timed(Step::Record, waited).await
        })
    }

    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let text = encode_settlement(settlement);
            let applied = settlement.is_applied();
            let (text, applied) = (&text, &applied);
            let settle = |client: Arc<Client>, settle| async move {
                client.query(&settle, &[&key, text, applied]).await
            };
            let settled = self.shared.settling().run(SETTLE, settle);
            let owners = self.shared.figures.timed(Step::Settle, settled).await?;
            super::kill_point!("settle");
            let me = &self.shared.identity.owner;
            for holder in owners.iter().map(|r| r.get::<_, String>(0)) {
                if holder != *me {
                    self.shared.figures.lost(key, &holder);
                }
            }
            Ok(())
        })
    }

    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let acknowledge = |client: Arc<Client>, acknowledge| async move {
                client.execute(&acknowledge, &[&key]).await
            };
            let closed = self.shared.settling().run(ACKNOWLEDGE, acknowledge);
            let closed = self.shared.figures.timed(Step::Acknowledge, closed).await?;
            if closed > 0 {
                super::kill_point!("close");
            }
            Ok(())
        })
    }

    fn open_entries(&self) -> BoxFuture<'_, io::Result<Option<Vec<OpenEntry>>>> {
        Box::pin(async move {
            let namespace = &self.shared.identity.namespace;
            let by_lease = !self.shared.sees_sessions;
            let list = |client: Arc<Client>, list| async move {
                client.query(&list, &[namespace, &by_lease]).await
            };
            let rows = self.shared.link.run(OPEN_ENTRIES, list).await?;
            Ok(Some(rows.iter().map(open_entry).collect()))
        })
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        Box::pin(async move {
            let claimed = self.shared.claim();
            let mut rows = self.shared.figures.timed(Step::Claim, claimed).await?;
            self.shared.report_takeovers(&rows);
            if let Err(e) = self.shared.count_open().await {
                self.shared.figures.failed(&e);
            }
            rows.sort_by_key(|r| r.get::<_, i64>(0));
            let mut pending = Pending::default();
            for row in rows {
                match entry(&row) {
                    Ok(write) => pending.writes.push(write),
                    Err(reason) => pending.damaged.push(DamagedRecord {
                        offset: row.get::<_, i64>(0) as u64,
                        length: row.get::<_, Vec<u8>>(8).len(),
                        reason: format!("row of key {}: {reason}", row.get::<_, String>(1)),
                    }),
                }
            }
            Ok(pending)
        })
    }
}

/// A row of [`OPEN_ENTRIES`].
fn open_entry(row: &Row) -> OpenEntry {
    OpenEntry {
        key: row.get(0),
        intent: row.get(1),
        operation_id: row.get(2),
        method: row.get(3),
        target: row.get(4),
        base_url: row.get(5),
        applied: row.get(6),
        recorded_at: row.get(7),
        owner: EntryOwner {
            id: row.get(8),
            host: row.get(9),
            pid: row.get::<_, Option<i32>>(10).map(|p| p as u32),
            alive: row.get(12),
            lease_until: Some(row.get(11)),
        },
    }
}

/// A claimed row as an entry.
fn entry(row: &Row) -> Result<PendingWrite, String> {
    let method: String = row.get(4);
    let method = stored::method(&method).ok_or_else(|| format!("unknown method {method:?}"))?;
    let settlement = match row.get::<_, Option<String>>(11) {
        Some(text) => Some(decode_settlement(&text)?),
        None => None,
    };
    Ok(PendingWrite {
        write: JournaledWrite {
            key: row.get(1),
            intent: row.get(2),
            operation_id: row.get(3),
            method,
            target: row.get(5),
            server: row.get(6),
            content_type: row.get(7),
            body: row.get::<_, Vec<u8>>(8).into(),
            client_request_id: row.get(9),
            headers: decode_headers(&row.get::<_, String>(10))?,
            base_url: row.get(12),
            credential: row.get(13),
        },
        settlement,
        settled_at: row.get(14),
    })
}
