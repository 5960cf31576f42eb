//! The write journal in SQLite: [`SqliteJournal`], whose docs give its rules.

mod owners;
mod rows;
mod schema;
mod writer;

use std::fmt;
use std::fs::OpenOptions;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use futures::future::BoxFuture;
use tokio::sync::oneshot;

use crate::write::journal::{
    Delivered, JournaledWrite, KeyState, Pending, Resume, Settlement, WriteJournal,
};
use crate::write::journal_metrics::{self, Figures};
use writer::{Answer, Job, OpenNow, Step};

/// How long an acknowledged entry is kept by default (7 days, well past the 24 hours the API
/// remembers a key): a key reused within it with other arguments is still refused, and what
/// [`delivered`](WriteJournal::delivered) and [`key_state`](WriteJournal::key_state) answer
/// for it is still known.
pub const KEEP_ACKNOWLEDGED: Duration = Duration::from_secs(7 * 24 * 3600);

/// Options of a [`SqliteJournal`]; [`open`](Self::open) opens it.
#[derive(Clone, Debug)]
pub struct SqliteJournalBuilder {
    path: PathBuf,
    settings: writer::Settings,
}

impl SqliteJournalBuilder {
    /// How long acknowledged entries are kept (without their body) before they are deleted.
    /// Default [`KEEP_ACKNOWLEDGED`]; shorter than the time the API remembers a key (24 hours
    /// here), and a key reused after it with other arguments is no longer refused by the
    /// journal.
    pub fn keep_acknowledged(mut self, keep: Duration) -> Self {
        self.settings.keep = keep;
        self
    }

    /// Whether settlements and acknowledgements wait for the disk (`synchronous = FULL`, as
    /// records always do). Default `true`, the safe choice: once acknowledged, an entry stays
    /// closed through an OS crash or a power cut. `false` commits them with
    /// `synchronous = NORMAL` (faster: `bench-report journal`), which survives the process
    /// being killed but not an OS crash: then the last acknowledgements may reopen and
    /// recovery reports those outcomes again or resends under the same key
    /// (`docs/journal.md`, the acknowledgement window).
    pub fn durable_acknowledgements(mut self, durable: bool) -> Self {
        self.settings.durable_acknowledgements = durable;
        self
    }

    /// Opens the journal (created, owner-only, when missing), alongside any other process
    /// that has it open. Its folder must exist.
    pub fn open(self) -> io::Result<SqliteJournal> {
        SqliteJournal::start(self.path, self.settings)
    }
}

/// The embedded [`WriteJournal`]: one SQLite database file that every process of a machine
/// may share (the CLI's parallel commands, several MCP servers on one state directory).
///
/// Why SQLite (bundled, through `rusqlite`): the journal needs crash-safe transactions that
/// many processes run on one file at once, and SQLite in WAL mode is built for exactly that;
/// the hand-written append-only file it replaces could only be used by one process at a time.
///
/// * **Durability.** `record` commits with `synchronous = FULL`: the write is on disk before it
///   is sent. `settle` and `acknowledge` do too by default; with
///   [`SqliteJournalBuilder::durable_acknowledgements`] off they commit with
///   `synchronous = NORMAL`, which survives the process being killed, as [`WriteJournal`]
///   asks, but not a power cut: then recovery settles the write again with the same key (the
///   server replays), or reports its outcome again.
/// * **Group commit.** One thread per journal runs every step waiting at that moment in one
///   transaction (`writer.rs`); the processes sharing the file take turns on its write lock,
///   each waiting up to 30 s.
/// * **Owners.** Each open journal is an owner (`owners.rs`: a lock file held while it lives).
///   [`pending`](WriteJournal::pending) and [`resume`](WriteJournal::resume) take only entries
///   that are their own or whose owner is gone, so two processes never settle one entry at
///   once.
/// * **Acknowledged entries** keep their key, intent, whether they applied and when, but not
///   their body, headers or answer (an answer may hold a secret the API minted): the row is
///   overwritten with `secure_delete` on, and the write-ahead log is checkpointed and truncated
///   once no step is waiting after an acknowledgement (before it is answered), so the earlier
///   images leave the disk too. They are deleted once older than
///   [`SqliteJournalBuilder::keep_acknowledged`] (default [`KEEP_ACKNOWLEDGED`]), checked on the
///   first commit and every 1,024th after it.
///
/// The database file and its owners' folder are created owner-only (0600, 0700) on Unix. Its
/// figures (open entries after each commit, the oldest one's age, takeovers, failures, waits)
/// go through the `metrics` facade (`write::journal_metrics`, shared with PostgreSQL's).
#[derive(Clone)]
pub struct SqliteJournal {
    shared: Arc<Shared>,
}

/// The journal's file and its writer thread, which holds the connection and the owner lock.
struct Shared {
    path: PathBuf,
    /// This journal's owner id.
    owner: String,
    /// What the writer last saw open.
    open: OpenNow,
    figures: Figures,
    jobs: Option<mpsc::Sender<Job>>,
    writer: Option<JoinHandle<()>>,
}

impl Drop for Shared {
    /// Ends the writer and waits for it, so that the owner lock is released when the last
    /// handle is dropped (as it is when the process ends).
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl fmt::Debug for SqliteJournal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteJournal")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

impl SqliteJournal {
    /// Options for the journal at `path` (see [`SqliteJournalBuilder`]).
    pub fn builder(path: impl AsRef<Path>) -> SqliteJournalBuilder {
        SqliteJournalBuilder {
            path: path.as_ref().to_path_buf(),
            settings: writer::Settings {
                keep: KEEP_ACKNOWLEDGED,
                durable_acknowledgements: true,
            },
        }
    }

    /// Opens the journal at `path` with the default options (created, owner-only, when
    /// missing), alongside any other process that has it open. Its folder must exist.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        Self::builder(path).open()
    }

    fn start(path: PathBuf, settings: writer::Settings) -> io::Result<Self> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        create_owner_only(&path).map_err(named)?;
        refuse_earlier_format(&path).map_err(named)?;
        let mut conn = rusqlite::Connection::open(&path)
            .map_err(failed)
            .map_err(named)?;
        schema::prepare(&mut conn).map_err(named)?;
        let owners = owners::Owners::register(&path).map_err(named)?;
        let owner = owners.me().to_owned();
        let (jobs, receiver) = mpsc::channel();
        let open = OpenNow::default();
        let seen = open.clone();
        let writer = std::thread::Builder::new()
            .name("write-journal".into())
            .spawn(move || writer::run(conn, owners, settings, receiver, seen))?;
        let shared = Shared {
            path,
            owner,
            open,
            figures: Figures::new(journal_metrics::SQLITE),
            jobs: Some(jobs),
            writer: Some(writer),
        };
        Ok(SqliteJournal {
            shared: Arc::new(shared),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// Runs `step` on the writer, timed as a wait on `waited`; then reports what is open and
    /// what was taken over.
    async fn run(&self, step: Step, waited: journal_metrics::Step) -> io::Result<Answer> {
        let (done, answer) = oneshot::channel();
        let stopped = || io::Error::other("the write journal's writer stopped");
        let figures = self.shared.figures;
        let answer = figures
            .timed(waited, async {
                let jobs = self.shared.jobs.as_ref().ok_or_else(stopped)?;
                jobs.send(Job { step, done }).map_err(|_| stopped())?;
                answer.await.map_err(|_| stopped())?
            })
            .await?;
        let (count, oldest, pruned) = {
            let mut seen = self.shared.open.lock().unwrap_or_else(|e| e.into_inner());
            (seen.open, seen.oldest, std::mem::take(&mut seen.pruned))
        };
        let age = oldest.map(|t| SystemTime::now().duration_since(t).unwrap_or_default());
        figures.open(count, age);
        figures.pruned(pruned);
        if let Answer::Claimed(_, taken) | Answer::Resumed(_, taken) = &answer {
            self.report_takeovers(taken);
        }
        Ok(answer)
    }

    /// Counts the entries taken over, by previous owner.
    fn report_takeovers(&self, previous: &[String]) {
        let mut by_owner = std::collections::BTreeMap::<&str, u64>::new();
        for owner in previous {
            *by_owner.entry(owner).or_default() += 1;
        }
        for (from, count) in by_owner {
            self.shared
                .figures
                .took_over(count, &self.shared.owner, from);
        }
    }
}

/// Creates `path` with mode 0600 where that is a thing, if it does not exist (SQLite gives
/// its `-wal` and `-shm` files the same mode).
fn create_owner_only(path: &Path) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map(drop)
}

/// Fails on a non-empty file that is not a SQLite database: an earlier version's append-only
/// journal, whose open entries must not be silently dropped.
fn refuse_earlier_format(path: &Path) -> io::Result<()> {
    use std::io::Read;
    let mut header = [0u8; 16];
    let read = std::fs::File::open(path)?.read(&mut header)?;
    if read == 0 || header == *b"SQLite format 3\0" {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "not a SQLite journal (an earlier version's append-only journal?): settle its writes \
         with the version that wrote it (`writes recover`), then move the file aside; nothing \
         was sent",
    ))
}

/// A SQLite error as an I/O error (a busy database is `WouldBlock`).
fn failed(e: rusqlite::Error) -> io::Error {
    let kind = match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            io::ErrorKind::WouldBlock
        }
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, format!("write journal (SQLite): {e}"))
}

fn unexpected() -> io::Error {
    io::Error::other("the write journal answered another step")
}

impl WriteJournal for SqliteJournal {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let step = Step::Record(write.clone());
            self.run(step, journal_metrics::Step::Record)
                .await
                .map(drop)
        })
    }

    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>> {
        let step = Step::Settle(key.to_owned(), settlement.clone());
        Box::pin(async move {
            let waited = journal_metrics::Step::Settle;
            self.run(step, waited).await.map(drop)
        })
    }

    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>> {
        let step = Step::Acknowledge(key.to_owned());
        Box::pin(async move {
            let waited = journal_metrics::Step::Acknowledge;
            self.run(step, waited).await.map(drop)
        })
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        Box::pin(async move {
            match self.run(Step::Claim, journal_metrics::Step::Claim).await? {
                Answer::Claimed(pending, _) => Ok(pending),
                _ => Err(unexpected()),
            }
        })
    }

    fn resume<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, io::Result<Resume>> {
        let step = Step::Resume(prefix.to_owned());
        Box::pin(async move {
            match self.run(step, journal_metrics::Step::Claim).await? {
                Answer::Resumed(resume, _) => Ok(resume),
                _ => Err(unexpected()),
            }
        })
    }

    fn delivered<'a>(
        &'a self,
        prefix: &'a str,
        since: SystemTime,
    ) -> BoxFuture<'a, io::Result<Option<Delivered>>> {
        let since = since
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let step = Step::Delivered(prefix.to_owned(), since);
        Box::pin(async move {
            match self.run(step, journal_metrics::Step::Read).await? {
                Answer::Delivered(found) => Ok(found),
                _ => Err(unexpected()),
            }
        })
    }

    fn key_state<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<Option<KeyState>>> {
        let step = Step::KeyState(key.to_owned());
        Box::pin(async move {
            match self.run(step, journal_metrics::Step::Read).await? {
                Answer::KeyState(state) => Ok(state),
                _ => Err(unexpected()),
            }
        })
    }
}
