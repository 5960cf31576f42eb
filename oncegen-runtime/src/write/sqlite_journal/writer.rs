//! Group commit: one thread owns the connection and runs every step waiting at that moment in
//! one transaction, so concurrent writes of a process share one commit (one `fsync`), and the
//! steps of many processes take turns on SQLite's write lock.

use std::io;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, TransactionBehavior};
use tokio::sync::oneshot;

use super::owners::Owners;
use super::{failed, rows};
use crate::write::journal::{Delivered, JournaledWrite, KeyState, Pending, Resume, Settlement};

/// Steps run in one transaction at most.
const MAX_BATCH: usize = 256;

/// A journal step.
pub(super) enum Step {
    Record(JournaledWrite),
    Settle(String, Settlement),
    Acknowledge(String),
    Claim,
    Resume(String),
    KeyState(String),
    Delivered(String, i64),
}

/// What a step answered.
pub(super) enum Answer {
    Done,
    /// The entries claimed, and the previous owner of each taken over from another.
    Claimed(Pending, Vec<String>),
    /// What was resumed, and its previous owner when taken over from another.
    Resumed(Resume, Vec<String>),
    KeyState(Option<KeyState>),
    Delivered(Option<Delivered>),
}

/// A step and who waits for its answer.
pub(super) struct Job {
    pub(super) step: Step,
    pub(super) done: oneshot::Sender<io::Result<Answer>>,
}

/// What the writer saw: the open entries after the last commit (how many, and when the oldest
/// was recorded), and the entries pruned since a caller last took them.
#[derive(Debug, Default)]
pub(super) struct Seen {
    pub(super) open: u64,
    pub(super) oldest: Option<SystemTime>,
    pub(super) pruned: u64,
}

/// [`Seen`], shared with the journal's handles.
pub(super) type OpenNow = Arc<Mutex<Seen>>;

/// The journal's options.
#[derive(Clone, Debug)]
pub(super) struct Settings {
    /// How long acknowledged entries are kept.
    pub(super) keep: Duration,
    /// Whether every commit waits for the disk (else only those that record a write).
    pub(super) durable_acknowledgements: bool,
}

/// Runs until every sender is gone (the journal was dropped); after each commit, `open` holds
/// what is open.
pub(super) fn run(
    mut conn: Connection,
    owners: Owners,
    settings: Settings,
    jobs: mpsc::Receiver<Job>,
    open: OpenNow,
) {
    let mut commits: u64 = 0;
    let mut waiting = None;
    let mut acknowledged = false;
    while let Some(first) = waiting.take().or_else(|| jobs.recv().ok()) {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let prune = commits.is_multiple_of(1024).then_some(settings.keep);
        commits += 1;
        let durable = settings.durable_acknowledgements;
        let answers = commit(&mut conn, &owners, &batch, prune, durable);
        if let Ok((_, pruned)) = &answers {
            note_open(&conn, &open, *pruned);
        }
        acknowledged |= batch.iter().any(|j| matches!(j.step, Step::Acknowledge(_)));
        if acknowledged {
            // Before the answers go: a process may end the moment its acknowledgement is done.
            waiting = jobs.try_recv().ok();
            if waiting.is_none() {
                forget_answers(&conn);
                acknowledged = false;
            }
        }
        match answers {
            Ok((answers, _)) => {
                for (job, answer) in batch.into_iter().zip(answers) {
                    let _ = job.done.send(answer);
                }
            }
            Err(e) => {
                for job in batch {
                    let _ = job.done.send(Err(io::Error::new(e.kind(), e.to_string())));
                }
            }
        }
    }
}

/// Runs `batch` in one transaction, each step in a savepoint of its own (a failed step leaves
/// the others), after pruning when `prune` says how long to keep acknowledged entries (their
/// count is returned too); durable (`synchronous = FULL`) when it records a write, or always
/// when `durable`.
fn commit(
    conn: &mut Connection,
    owners: &Owners,
    batch: &[Job],
    prune: Option<Duration>,
    durable: bool,
) -> io::Result<(Vec<io::Result<Answer>>, u64)> {
    let records = batch.iter().any(|j| matches!(j.step, Step::Record(_)));
    let level = if records || durable { "FULL" } else { "NORMAL" };
    conn.pragma_update(None, "synchronous", level)
        .map_err(failed)?;
    let mut tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    let pruned = match prune {
        Some(keep) => rows::prune(&tx, keep).map_err(failed)?,
        None => 0,
    };
    let mut answers = Vec::with_capacity(batch.len());
    for job in batch {
        let savepoint = tx.savepoint().map_err(failed)?;
        let answer = apply(&savepoint, owners, &job.step).map_err(failed);
        if answer.is_ok() {
            savepoint.commit().map_err(failed)?;
        }
        answers.push(answer);
    }
    if records {
        crate::write::kill_point!("append");
    }
    tx.commit().map_err(failed)?;
    kill_points(batch);
    Ok((answers, pruned))
}

/// Notes what is open now and what was `pruned` (before the answers go, so a caller reads
/// figures that include its own step). A failure to count is only logged.
fn note_open(conn: &Connection, seen: &OpenNow, pruned: u64) {
    let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
    seen.pruned += pruned;
    match rows::open_figures(conn) {
        Ok((open, oldest)) => (seen.open, seen.oldest) = (open, oldest),
        Err(e) => tracing::warn!(error = %e, "the write journal could not count its open entries"),
    }
}

/// Copies the log into the database and empties it, so that the earlier images of
/// acknowledged entries (their bodies and answers) leave the disk. Run once no step is
/// waiting (a busy journal defers it to its next quiet moment); a reader of another process
/// may hold some back until then. A failure is only logged.
fn forget_answers(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::warn!(error = %e, "the write journal could not empty its log");
    }
}

/// The kill points of the steps just committed.
fn kill_points(batch: &[Job]) {
    for job in batch {
        match job.step {
            Step::Record(_) => {
                crate::write::kill_point!("fsync");
            }
            Step::Settle(..) => {
                crate::write::kill_point!("settle");
            }
            Step::Acknowledge(_) => {
                crate::write::kill_point!("close");
            }
            _ => {}
        }
    }
}

fn apply(tx: &Connection, owners: &Owners, step: &Step) -> rusqlite::Result<Answer> {
    Ok(match step {
        Step::Record(write) => {
            rows::record(tx, write, owners.me())?;
            Answer::Done
        }
        Step::Settle(key, settlement) => {
            rows::settle(tx, key, settlement)?;
            Answer::Done
        }
        Step::Acknowledge(key) => {
            rows::acknowledge(tx, key)?;
            Answer::Done
        }
        Step::Claim => {
            let (pending, taken) = rows::claim(tx, owners)?;
            Answer::Claimed(pending, taken)
        }
        Step::Resume(prefix) => {
            let (resume, taken) = rows::resume(tx, owners, prefix)?;
            Answer::Resumed(resume, taken)
        }
        Step::KeyState(key) => Answer::KeyState(rows::key_state(tx, key)?),
        Step::Delivered(prefix, since) => Answer::Delivered(rows::delivered(tx, prefix, *since)?),
    })
}

#[cfg(test)]
mod tests {
    use super::{Job, Owners, Step, commit};
    use tokio::sync::oneshot;

    /// `PRAGMA synchronous` after committing an acknowledgement alone (2 FULL, 1 NORMAL).
    fn synchronous_after_acknowledging(durable: bool) -> i64 {
        let dir = std::env::temp_dir().join(format!("jw-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.sqlite");
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        super::super::schema::prepare(&mut conn).unwrap();
        let owners = Owners::register(&path).unwrap();
        let (done, _answer) = oneshot::channel();
        let batch = [Job {
            step: Step::Acknowledge("k".to_owned()),
            done,
        }];
        commit(&mut conn, &owners, &batch, None, durable).unwrap();
        let level = conn
            .pragma_query_value(None, "synchronous", |row| row.get(0))
            .unwrap();
        drop((conn, owners));
        std::fs::remove_dir_all(dir).unwrap();
        level
    }

    #[test]
    fn acknowledgements_wait_for_the_disk_unless_set_otherwise() {
        let default = crate::write::sqlite_journal::SqliteJournal::builder("unused");
        assert!(
            default.settings.durable_acknowledgements,
            "durable by default"
        );
        assert_eq!(synchronous_after_acknowledging(true), 2, "FULL");
        assert_eq!(synchronous_after_acknowledging(false), 1, "NORMAL");
    }
}
