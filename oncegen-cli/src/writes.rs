//! The write journal from the command line: `<bin> writes list` (what is not acknowledged,
//! read from the journal), `<bin> writes recover` (settle every entry at its own server with
//! its own credential and report it), and answering a re-run with its earlier write's outcome
//! ([`resume`]).

use crate::{App, Failure, Sent, exit, journal, rerun, respond};
use futures::StreamExt;
use oncegen_runtime::journal::{EntryOwner, OpenEntry, PendingWrite, Settlement, WriteJournal};
use oncegen_runtime::{Config, RECOVERY_CONCURRENCY, RecoveredWrite};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::time::SystemTime;

/// The area's command name.
pub const AREA: &str = "writes";
/// `writes list`.
pub const LIST: &str = "list";
/// `writes recover`.
pub const RECOVER: &str = "recover";

/// The `writes` command and its two subcommands.
pub fn command() -> clap::Command {
    clap::Command::new(AREA)
        .about("The write journal: writes whose outcome was not yet reported")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(clap::Command::new(LIST).about(
            "List the journal's writes not acknowledged (read from the journal alone; nothing is sent); on a shared journal every owner's, with its owner, whether it is alive, and since when",
        ))
        .subcommand(clap::Command::new(RECOVER).about(
            "Settle every write not acknowledged at the server and with the credential it was made with (journal outcome, else a same-key lookup and resend) and report each; a live owner's are skipped; exit 8 while one stays unknown or belongs to another credential",
        ))
}

/// `writes list`: one object per entry not acknowledged, oldest first: every owner's with
/// its owner where the journal keeps owners (PostgreSQL), else those no other live process
/// holds.
pub async fn list(journal: &dyn WriteJournal) -> Result<Value, Failure> {
    if let Some(entries) = journal.open_entries().await.map_err(journal::failed)? {
        return Ok(Value::Array(entries.iter().map(listed_open).collect()));
    }
    let pending = journal.pending().await.map_err(journal::failed)?;
    let mut rows: Vec<Value> = pending.writes.iter().map(listed).collect();
    rows.extend(pending.damaged.iter().map(
        |d| json!({ "key": null, "state": "damaged", "offset": d.offset, "reason": d.reason }),
    ));
    Ok(Value::Array(rows))
}

fn listed(entry: &PendingWrite) -> Value {
    let w = &entry.write;
    let (state, status) = match &entry.settlement {
        None => ("open", None),
        Some(Settlement::Answered(r)) if (200..300).contains(&r.status) => {
            ("applied", Some(r.status))
        }
        Some(Settlement::Answered(r)) => ("not applied", Some(r.status)),
        Some(Settlement::AppliedUnread { status }) => ("applied", Some(*status)),
        Some(Settlement::NotApplied { .. }) => ("not applied", None),
    };
    json!({
        "key": w.key,
        "command": w.intent.as_deref().and_then(rerun::command_of),
        "operation": w.operation_id,
        "method": w.method.as_str(),
        "target": w.target,
        "server": w.base_url,
        "state": state,
        "status": status,
    })
}

/// An entry of any owner as `writes list` prints it.
fn listed_open(entry: &OpenEntry) -> Value {
    let state = match entry.applied {
        None => "open",
        Some(true) => "applied",
        Some(false) => "not applied",
    };
    let age = SystemTime::now()
        .duration_since(entry.recorded_at)
        .unwrap_or_default();
    json!({
        "key": entry.key,
        "command": entry.intent.as_deref().and_then(rerun::command_of),
        "operation": entry.operation_id,
        "method": entry.method,
        "target": entry.target,
        "server": entry.base_url,
        "state": state,
        "since": rfc3339(entry.recorded_at),
        "age_seconds": age.as_secs(),
        "owner": owner(&entry.owner),
    })
}

/// An entry's owner as recorded, and whether it is alive.
fn owner(owner: &EntryOwner) -> Value {
    json!({
        "id": owner.id,
        "host": owner.host,
        "pid": owner.pid,
        "alive": owner.alive,
        "lease_until": owner.lease_until.map(rfc3339),
    })
}

/// The entries of `listed` a live owner holds that recovery did not claim: reported as
/// skipped, with why.
fn skipped(listed: Option<Vec<OpenEntry>>, claimed: &BTreeSet<&str>) -> Vec<Value> {
    let live = listed
        .into_iter()
        .flatten()
        .filter(|e| e.owner.alive && !claimed.contains(e.key.as_str()));
    live.map(|e| {
        let who = match (&e.owner.host, e.owner.pid) {
            (Some(host), Some(pid)) => format!("{} (host {host}, pid {pid})", e.owner.id),
            _ => e.owner.id.clone(),
        };
        json!({
            "key": e.key,
            "command": e.intent.as_deref().and_then(rerun::command_of),
            "operation": e.operation_id,
            "server": e.base_url,
            "state": "skipped",
            "owner": owner(&e.owner),
            "reason": format!(
                "its owner {who} is alive (its lease holds and it is connected): it is sending or settling this write itself; recover it only once that owner is gone"
            ),
        })
    })
    .collect()
}

/// Says on standard error that `count` writes were skipped, if any.
fn note_skipped(count: usize) {
    if count > 0 {
        eprintln!("note: {count} write(s) skipped: their owner is alive and settles them itself");
    }
}

/// One recovered write as `writes recover` prints it, and whether it is settled.
fn describe(write: RecoveredWrite) -> (Value, bool) {
    let settled = write.is_settled();
    let applied = write.is_applied();
    let mut row = json!({
        "key": write.key(),
        "command": write.intent().and_then(rerun::command_of),
        "operation": write.write.operation_id,
        "server": write.write.base_url,
    });
    let (state, detail) = match (settled, respond(write.outcome)) {
        (_, Ok(sent)) => ("applied", json!({ "answer": sent.value })),
        (false, Err(f)) => ("unknown", json!({ "error": f.message })),
        (true, Err(f)) if applied => ("applied", json!({ "error": f.message })),
        (true, Err(f)) => ("not applied", json!({ "error": f.message })),
    };
    if let (Value::Object(row), Value::Object(detail)) = (&mut row, detail) {
        row.insert("state".into(), state.into());
        row.extend(detail);
    }
    (row, settled)
}

/// `writes recover`: every entry no live owner holds settled at its own base URL with this
/// credential (an entry of another credential is reported and left), printed by `print`,
/// with a live owner's entries as skipped; settled ones then acknowledged. Fails with
/// [`exit::OUTCOME_UNKNOWN`] while one stays unsettled.
pub async fn recover<C>(
    app: &App<C>,
    config: &Config,
    journal: &dyn WriteJournal,
    print: impl FnOnce(&Value) -> Result<(), Failure>,
) -> Result<(), Failure> {
    // Who holds what, read before claiming: what a live owner keeps is reported as skipped.
    let listed = journal.open_entries().await.map_err(journal::failed)?;
    let pending = journal.pending().await.map_err(journal::failed)?;
    let claimed: BTreeSet<&str> = pending
        .writes
        .iter()
        .map(|w| w.write.key.as_str())
        .collect();
    let skipped = skipped(listed, &claimed);
    let mut by_server: BTreeMap<String, Vec<PendingWrite>> = BTreeMap::new();
    for entry in pending.writes {
        let server = entry.write.base_url.clone();
        let server = server.unwrap_or_else(|| config.get_base_url().to_owned());
        by_server.entry(server).or_default().push(entry);
    }
    let mut recovered = Vec::new();
    for (server, entries) in by_server {
        let client = (app.connect)(config.clone().base_url(server)).map_err(Failure::from)?;
        let runtime = (app.runtime)(&client);
        let settled: Vec<RecoveredWrite> = futures::stream::iter(entries)
            .map(|entry| runtime.settle_write(entry))
            .buffered(RECOVERY_CONCURRENCY)
            .collect()
            .await;
        recovered.extend(settled);
    }
    let (mut rows, settled_keys, unsettled) = report(recovered);
    note_skipped(skipped.len());
    rows.extend(skipped);
    print(&Value::Array(rows))?;
    for key in settled_keys {
        journal.acknowledge(&key).await.map_err(journal::failed)?;
    }
    if !pending.damaged.is_empty() {
        eprintln!(
            "warning: {} journal record(s) could not be read back; nothing was sent for them",
            pending.damaged.len()
        );
    }
    match unsettled {
        0 => Ok(()),
        n => Err(Failure {
            code: exit::OUTCOME_UNKNOWN,
            message: format!(
                "{n} write(s) are not settled (outcome still unknown, or made with another credential): run `writes recover` again later, with the profile that made them; never re-send them under a new key"
            ),
            settled_key: None,
        }),
    }
}

/// The rows to print, the keys to acknowledge and how many stay unsettled.
fn report(recovered: Vec<RecoveredWrite>) -> (Vec<Value>, Vec<String>, usize) {
    let mut rows = Vec::new();
    let mut keys = Vec::new();
    let mut unsettled = 0;
    for write in recovered {
        let key = write.key().to_owned();
        let (row, settled) = describe(write);
        if settled {
            keys.push(key);
        } else {
            unsettled += 1;
        }
        rows.push(row);
    }
    (rows, keys, unsettled)
}

/// Settles `entry`, the undelivered write a re-run repeats, and answers its outcome as this
/// run's; the note on standard error says it is a replay and when the write was applied.
pub async fn resume<C>(
    app: &App<C>,
    config: &Config,
    entry: PendingWrite,
) -> Result<(Result<Sent, Failure>, Option<String>), Failure> {
    let key = entry.write.key.clone();
    let applied_at = entry.settled_at;
    let client = (app.connect)(config.clone()).map_err(Failure::from)?;
    let write = (app.runtime)(&client).settle_write(entry).await;
    let settled = write.is_settled();
    replay_note(&key, applied_at.or(settled.then(SystemTime::now)));
    let mut result = respond(write.outcome);
    if let Err(f) = &mut result {
        f.settled_key = None;
    }
    Ok((result, settled.then_some(key)))
}

/// Says on standard error that the outcome is an earlier run's.
pub fn replay_note(key: &str, applied_at: Option<SystemTime>) {
    let when = applied_at.map_or_else(String::new, |t| format!(" (settled {})", rfc3339(t)));
    eprintln!(
        "note: replayed: the outcome of an earlier run of this command{when}, idempotency key {key}; nothing new was sent (--new-write sends a new write)"
    );
}

/// `t` as an RFC 3339 UTC time to the second.
fn rfc3339(t: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::rfc3339;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn times_are_rfc3339() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_836_012);
        assert_eq!(rfc3339(t), "2026-11-28T03:20:12Z");
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
