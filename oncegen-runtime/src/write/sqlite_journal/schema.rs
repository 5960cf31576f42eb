//! The journal's table, created or checked when a journal opens, and how a connection is set
//! up (WAL, a busy timeout, foreign processes writing one at a time).

use std::io;
use std::time::Duration;

use rusqlite::Connection;

/// The schema version this runtime writes (`PRAGMA user_version`).
const VERSION: i64 = 1;

/// How often a transaction looks again for the write lock another process holds: SQLite's
/// own busy timeout backs off to 100 ms sleeps, which a queue of short transactions from many
/// processes turns into seconds.
const BUSY_POLL: Duration = Duration::from_millis(1);

/// Looks for the write lock this many times at most (about 30 s) before a step fails.
const BUSY_TRIES: i32 = 30_000;

fn busy(tries: i32) -> bool {
    std::thread::sleep(BUSY_POLL);
    tries < BUSY_TRIES
}

/// One row per journaled write; `owner` is the journal that may settle it now
/// (`owners.rs`); `body`, `headers` and `settlement` are emptied once it is acknowledged.
const TABLE: &str = "
CREATE TABLE writes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    intent TEXT,
    operation_id TEXT NOT NULL,
    method TEXT NOT NULL,
    target TEXT NOT NULL,
    server TEXT,
    base_url TEXT,
    credential TEXT,
    content_type TEXT,
    body BLOB NOT NULL,
    client_request_id TEXT,
    headers TEXT NOT NULL,
    settlement TEXT,
    applied INTEGER,
    owner TEXT NOT NULL,
    recorded_at INTEGER NOT NULL,
    settled_at INTEGER,
    acknowledged_at INTEGER
);
CREATE INDEX writes_open ON writes (seq) WHERE acknowledged_at IS NULL;
CREATE INDEX writes_acknowledged ON writes (acknowledged_at) WHERE acknowledged_at IS NOT NULL;
";

/// Sets `conn` up and brings its schema to [`VERSION`]; fails on a newer one.
pub(super) fn prepare(conn: &mut Connection) -> io::Result<()> {
    conn.busy_handler(Some(busy)).map_err(super::failed)?;
    // WAL: readers never wait for the writer, and a commit is one append to the log.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(super::failed)?;
    // Deleted and overwritten content is zeroed, not left in free pages: an acknowledged
    // entry's answer may hold a secret.
    conn.pragma_update(None, "secure_delete", "ON")
        .map_err(super::failed)?;
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(super::failed)?;
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(super::failed)?;
    match version {
        0 => {
            tx.execute_batch(TABLE).map_err(super::failed)?;
            tx.pragma_update(None, "user_version", VERSION)
                .map_err(super::failed)?;
        }
        VERSION => {}
        newer => {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "the write journal's schema is at version {newer}, newer than this SDK \
                     knows ({VERSION}): upgrade the SDK"
                ),
            ));
        }
    }
    tx.commit().map_err(super::failed)
}
