//! The statements of each journal step, run inside the writer's transaction.

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::owners::Owners;
use crate::write::journal::{
    DamagedRecord, Delivered, JournaledWrite, KeyState, Pending, PendingWrite, Resume, Settlement,
};
use crate::write::stored::{
    decode_headers, decode_settlement, encode_headers, encode_settlement, method,
};

/// The columns of an entry, in the order [`entry`] reads them.
const COLUMNS: &str = "seq, key, intent, operation_id, method, target, server, base_url, \
     credential, content_type, body, client_request_id, headers, settlement, settled_at, owner";

/// Milliseconds since the Unix epoch.
pub(super) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn time(millis: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(millis.max(0) as u64)
}

/// Records `w`, owned by `owner`. A key already open is recorded already; an acknowledged
/// one is opened again (a key reused for a write that applied nothing, or resent under its key).
pub(super) fn record(tx: &Connection, w: &JournaledWrite, owner: &str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO writes (key, intent, operation_id, method, target, server, base_url, \
            credential, content_type, body, client_request_id, headers, owner, recorded_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) \
         ON CONFLICT (key) DO UPDATE SET intent = excluded.intent, \
            operation_id = excluded.operation_id, method = excluded.method, \
            target = excluded.target, server = excluded.server, base_url = excluded.base_url, \
            credential = excluded.credential, content_type = excluded.content_type, \
            body = excluded.body, client_request_id = excluded.client_request_id, \
            headers = excluded.headers, owner = excluded.owner, \
            recorded_at = excluded.recorded_at, settlement = NULL, applied = NULL, \
            settled_at = NULL, acknowledged_at = NULL \
         WHERE writes.acknowledged_at IS NOT NULL",
        params![
            w.key,
            w.intent,
            w.operation_id,
            w.method.as_str(),
            w.target,
            w.server,
            w.base_url,
            w.credential,
            w.content_type,
            w.body.as_ref(),
            w.client_request_id,
            encode_headers(&w.headers),
            owner,
            now(),
        ],
    )?;
    Ok(())
}

/// Records the outcome of the open entry `key`.
pub(super) fn settle(tx: &Connection, key: &str, s: &Settlement) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE writes SET settlement = ?2, applied = ?3, settled_at = ?4 \
         WHERE key = ?1 AND acknowledged_at IS NULL",
        params![key, encode_settlement(s), s.is_applied(), now()],
    )?;
    Ok(())
}

/// Closes entry `key`, dropping its body, headers and answer; whether it applied stays.
pub(super) fn acknowledge(tx: &Connection, key: &str) -> rusqlite::Result<bool> {
    let closed = tx.execute(
        "UPDATE writes SET acknowledged_at = ?2, body = x'', headers = '[]', settlement = NULL \
         WHERE key = ?1 AND acknowledged_at IS NULL",
        params![key, now()],
    )?;
    Ok(closed > 0)
}

/// Deletes entries acknowledged more than `keep` ago; returns how many.
pub(super) fn prune(tx: &Connection, keep: Duration) -> rusqlite::Result<u64> {
    let before = now().saturating_sub(keep.as_millis() as i64);
    let deleted = tx.execute(
        "DELETE FROM writes WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ?1",
        [before],
    )?;
    Ok(deleted as u64)
}

/// How many entries are open (every owner's), and when the oldest was recorded.
pub(super) fn open_figures(conn: &Connection) -> rusqlite::Result<(u64, Option<SystemTime>)> {
    conn.query_row(
        "SELECT count(*), min(recorded_at) FROM writes WHERE acknowledged_at IS NULL",
        [],
        |row| {
            Ok((
                row.get::<_, i64>(0)? as u64,
                row.get::<_, Option<i64>>(1)?.map(time),
            ))
        },
    )
}

/// What the journal knows of `key`.
pub(super) fn key_state(tx: &Connection, key: &str) -> rusqlite::Result<Option<KeyState>> {
    tx.query_row(
        "SELECT intent, applied, acknowledged_at IS NOT NULL, settled_at FROM writes \
         WHERE key = ?1",
        [key],
        |row| {
            Ok(KeyState {
                intent: row.get(0)?,
                applied: row.get(1)?,
                acknowledged: row.get(2)?,
                settled_at: row.get::<_, Option<i64>>(3)?.map(time),
            })
        },
    )
    .optional()
}

/// The key and settling time of the last applied, acknowledged write of an intent starting
/// with `prefix`, acknowledged at or after `since` (milliseconds).
pub(super) fn delivered(
    tx: &Connection,
    prefix: &str,
    since: i64,
) -> rusqlite::Result<Option<Delivered>> {
    tx.query_row(
        "SELECT key, settled_at FROM writes WHERE acknowledged_at >= ?2 AND applied \
         AND substr(intent, 1, length(?1)) = ?1 ORDER BY acknowledged_at DESC LIMIT 1",
        params![prefix, since],
        |row| {
            Ok(Delivered {
                key: row.get(0)?,
                settled_at: row.get::<_, Option<i64>>(1)?.map(time),
            })
        },
    )
    .optional()
}

/// An open entry read, with its owner.
struct Open {
    owner: String,
    key: String,
    entry: Result<PendingWrite, DamagedRecord>,
}

/// Open entries (of intents starting with `prefix`, when given), oldest first.
fn open(tx: &Connection, prefix: Option<&str>) -> rusqlite::Result<Vec<Open>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM writes WHERE acknowledged_at IS NULL \
         AND (?1 IS NULL OR substr(intent, 1, length(?1)) = ?1) ORDER BY seq"
    );
    let mut statement = tx.prepare_cached(&sql)?;
    let rows = statement.query_map([prefix], |row| {
        Ok(Open {
            owner: row.get(15)?,
            key: row.get(1)?,
            entry: entry(row)?,
        })
    })?;
    rows.collect()
}

/// Makes `entries` this journal's; returns the previous owner of each taken from another.
fn take<'o>(
    tx: &Connection,
    owners: &Owners,
    entries: impl IntoIterator<Item = &'o Open>,
) -> rusqlite::Result<Vec<String>> {
    let mut statement = tx.prepare_cached("UPDATE writes SET owner = ?1 WHERE key = ?2")?;
    let mut previous = Vec::new();
    for o in entries {
        statement.execute(params![owners.me(), o.key])?;
        if o.owner != owners.me() {
            previous.push(o.owner.clone());
        }
    }
    Ok(previous)
}

/// Whether another live journal holds `owner`'s entries, each owner looked at once (its lock
/// file opened once, however many entries it has).
fn held_by_other(owners: &Owners) -> impl FnMut(&str) -> bool + '_ {
    let mut seen = HashMap::new();
    move |owner| {
        *seen
            .entry(owner.to_owned())
            .or_insert_with(|| owners.other_alive(owner))
    }
}

/// Every open entry no other live journal holds, now this journal's, and the previous owners
/// of those taken over.
pub(super) fn claim(tx: &Connection, owners: &Owners) -> rusqlite::Result<(Pending, Vec<String>)> {
    let mut held = held_by_other(owners);
    let free: Vec<Open> = open(tx, None)?
        .into_iter()
        .filter(|o| !held(&o.owner))
        .collect();
    let taken = take(tx, owners, &free)?;
    let mut pending = Pending::default();
    for o in free {
        match o.entry {
            Ok(write) => pending.writes.push(write),
            Err(damaged) => pending.damaged.push(damaged),
        }
    }
    Ok((pending, taken))
}

/// The oldest open entry of an intent starting with `prefix` that no other live journal
/// holds, now this journal's (with its previous owner when taken over); else whether another
/// holds one.
pub(super) fn resume(
    tx: &Connection,
    owners: &Owners,
    prefix: &str,
) -> rusqlite::Result<(Resume, Vec<String>)> {
    let mut busy = None;
    let mut held = held_by_other(owners);
    for o in open(tx, Some(prefix))? {
        if held(&o.owner) {
            busy.get_or_insert(o.key);
            continue;
        }
        if o.entry.is_err() {
            continue;
        }
        let taken = take(tx, owners, [&o])?;
        let write = o.entry.expect("checked above");
        return Ok((Resume::Taken(Box::new(write)), taken));
    }
    Ok((
        busy.map_or(Resume::None, |key| Resume::Busy { key }),
        Vec::new(),
    ))
}

/// A row as an entry, or why it cannot be one.
fn entry(row: &Row) -> rusqlite::Result<Result<PendingWrite, DamagedRecord>> {
    let body: Vec<u8> = row.get(10)?;
    let damaged = |reason: String| DamagedRecord {
        offset: row.get::<_, i64>(0).unwrap_or_default() as u64,
        length: body.len(),
        reason,
    };
    let name: String = row.get(4)?;
    let Some(method) = method(&name) else {
        return Ok(Err(damaged(format!("unknown method {name:?}"))));
    };
    let headers = match decode_headers(&row.get::<_, String>(12)?) {
        Ok(headers) => headers,
        Err(reason) => return Ok(Err(damaged(reason))),
    };
    let settlement = match row.get::<_, Option<String>>(13)? {
        None => None,
        Some(text) => match decode_settlement(&text) {
            Ok(s) => Some(s),
            Err(reason) => return Ok(Err(damaged(reason))),
        },
    };
    Ok(Ok(PendingWrite {
        write: JournaledWrite {
            key: row.get(1)?,
            intent: row.get(2)?,
            operation_id: row.get(3)?,
            method,
            target: row.get(5)?,
            server: row.get(6)?,
            base_url: row.get(7)?,
            credential: row.get(8)?,
            content_type: row.get(9)?,
            body: body.clone().into(),
            client_request_id: row.get(11)?,
            headers,
        },
        settlement,
        settled_at: row.get::<_, Option<i64>>(14)?.map(time),
    }))
}
