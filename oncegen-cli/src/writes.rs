//! The write journal from the command line: `<bin> writes list` (what is not acknowledged,
//! read from the journal alone), `<bin> writes recover` (settle every entry and report its
//! outcome), and settling a command's own earlier run ([`settle_earlier`], see
//! [`crate::rerun`]).

use crate::journal::Only;
use crate::rerun::{self, CommandDigest};
use crate::{App, Failure, Sent, exit, respond};
use oncegen_runtime::Config;
use oncegen_runtime::journal::{Settlement, WriteJournal};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;

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
            "List the journal's writes not acknowledged (read from the journal alone; nothing is sent)",
        ))
        .subcommand(clap::Command::new(RECOVER).about(
            "Settle every write not acknowledged (journal outcome, else a same-key lookup and resend) and report each; exit 8 while one stays unknown",
        ))
}

fn journal_error(e: std::io::Error) -> Failure {
    Failure {
        code: exit::OTHER,
        message: format!("reading the write journal: {e}"),
        settled_key: None,
    }
}

/// `writes list`: one object per entry not acknowledged, oldest first.
pub async fn list(journal: &dyn WriteJournal) -> Result<Value, Failure> {
    let pending = journal.pending().await.map_err(journal_error)?;
    let mut rows: Vec<Value> = pending
        .writes
        .iter()
        .map(|entry| {
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
                "state": state,
                "status": status,
            })
        })
        .collect();
    rows.extend(pending.damaged.iter().map(|d| {
        json!({
            "key": null,
            "state": "damaged",
            "offset": d.offset,
            "reason": d.reason,
        })
    }));
    Ok(Value::Array(rows))
}

/// One recovered write as `writes recover` prints it, whether it is settled, and whether it
/// was applied.
fn describe(write: oncegen_runtime::RecoveredWrite) -> (Value, bool) {
    let settled = write.is_settled();
    let applied = write.is_applied();
    let key = write.key().to_owned();
    let command = write.intent().and_then(rerun::command_of);
    let operation = write.write.operation_id.clone();
    let (state, detail) = match (settled, respond(write.outcome)) {
        (_, Ok(sent)) => ("applied", json!({ "answer": sent.value })),
        (false, Err(f)) => ("unknown", json!({ "error": f.message })),
        (true, Err(f)) if applied => ("applied", json!({ "error": f.message })),
        (true, Err(f)) => ("not applied", json!({ "error": f.message })),
    };
    let mut row = json!({
        "key": key,
        "command": command,
        "operation": operation,
        "state": state,
    });
    if let (Value::Object(row), Value::Object(detail)) = (&mut row, detail) {
        row.extend(detail);
    }
    (row, settled)
}

/// `writes recover`: every entry settled and reported; settled ones acknowledged after they
/// are printed by `print`. Fails with [`exit::OUTCOME_UNKNOWN`] while one stays unknown.
pub async fn recover(
    client: &oncegen_runtime::Client,
    print: impl FnOnce(&Value) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let recovery = client.recover_writes().await.map_err(Failure::from)?;
    let damaged = recovery.damaged.len();
    let mut rows = Vec::new();
    let mut settled_keys = Vec::new();
    let mut unknown = 0;
    for write in recovery.writes {
        let key = write.key().to_owned();
        let (row, settled) = describe(write);
        if settled {
            settled_keys.push(key);
        } else {
            unknown += 1;
        }
        rows.push(row);
    }
    print(&Value::Array(rows))?;
    for key in settled_keys {
        client
            .acknowledge_write(&key)
            .await
            .map_err(Failure::from)?;
    }
    if unknown > 0 {
        return Err(Failure {
            code: exit::OUTCOME_UNKNOWN,
            message: format!(
                "{unknown} write(s) still have an unknown outcome: run `writes recover` again later; never re-send them under a new key"
            ),
            settled_key: None,
        });
    }
    if damaged > 0 {
        eprintln!(
            "warning: {damaged} journal record(s) could not be read back; nothing was sent for them"
        );
    }
    Ok(())
}

/// What settling an earlier run gave: the command's result and the key to acknowledge once
/// it is printed (`None` while the outcome stays unknown).
pub struct Earlier {
    /// The earlier run's outcome, as this run's.
    pub result: Result<Sent, Failure>,
    /// Its key, when its outcome is definite.
    pub settled_key: Option<String>,
}

/// Settles the oldest entry of `journal` that is an unfinished run of the same command line
/// (`digest`), if there is one, through a client that sees only that entry.
pub async fn settle_earlier<C>(
    app: &App<C>,
    config: &Config,
    journal: &Arc<dyn WriteJournal>,
    digest: &CommandDigest,
) -> Result<Option<Earlier>, Failure> {
    let pending = journal.pending().await.map_err(journal_error)?;
    let mut earlier = pending
        .writes
        .iter()
        .filter(|w| digest.matches(w.write.intent.as_deref()));
    let Some(first) = earlier.next() else {
        return Ok(None);
    };
    let key = first.write.key.clone();
    let more = earlier.count();
    eprintln!(
        "note: an earlier run of this command did not finish: settling its write (idempotency key {key}) instead of sending a new one (--new-write sends a new one)"
    );
    if more > 0 {
        eprintln!(
            "note: {more} more unfinished run(s) of it: see `{} writes list`",
            app.bin
        );
    }
    let only = Only::new(journal.clone(), BTreeSet::from([key.clone()]));
    let client = (app.connect)(config.clone().journal(Arc::new(only))).map_err(Failure::from)?;
    let recovery = (app.runtime)(&client)
        .recover_writes()
        .await
        .map_err(Failure::from)?;
    let Some(write) = recovery.writes.into_iter().next() else {
        return Err(Failure {
            code: exit::OUTCOME_UNKNOWN,
            message: format!(
                "the earlier run's write {key} is being settled by another process: run `{} writes list` later",
                app.bin
            ),
            settled_key: None,
        });
    };
    let settled = write.is_settled();
    let mut result = respond(write.outcome);
    if let Err(f) = &mut result {
        f.settled_key = None;
    }
    Ok(Some(Earlier {
        result,
        settled_key: settled.then_some(key),
    }))
}
