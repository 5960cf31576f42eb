//! Group commit of records: one task owns a connection and inserts every write waiting at that
//! moment with one statement, so concurrent writes share one commit (one WAL flush).

use std::collections::HashSet;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Client;
use tokio_postgres::types::ToSql;

use super::Identity;
use super::link::{Database, connect, sql_result, unavailable, within};
use crate::write::journal::JournaledWrite;
use crate::write::stored::encode_headers;

/// Writes inserted by one statement at most (12 parameters each, under PostgreSQL's 65,535).
const MAX_BATCH: usize = 512;

/// A write waiting to be recorded, and who waits for it.
pub(super) struct Job {
    pub(super) write: JournaledWrite,
    pub(super) done: oneshot::Sender<io::Result<()>>,
}

/// Runs until every sender is gone (the journal was dropped). `client` is the connection the
/// journal opened (and migrated) with. A batch (connecting included) runs within the database's
/// time limit. A write whose caller stopped waiting (its deadline passed) is left out of the
/// next batch; one whose caller left while its batch was committing is deleted again (see
/// [`forget`]): either way a write its caller was told is not recorded is not sent by recovery.
pub(super) async fn run(
    identity: Arc<Identity>,
    database: Arc<Database>,
    mut client: Option<Client>,
    mut jobs: mpsc::UnboundedReceiver<Job>,
) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        batch.retain(|job| !job.done.is_closed());
        if batch.is_empty() {
            continue;
        }
        let writes: Vec<&JournaledWrite> = batch.iter().map(|j| &j.write).collect();
        let outcome = within(database.timeout, async {
            let c = connected(&mut client, &database).await?;
            commit(c, &identity, &writes).await
        })
        .await;
        // A batch that ran out of time leaves its connection unusable (a statement pending).
        if outcome.is_err() || client.as_ref().is_some_and(Client::is_closed) {
            client = None;
        }
        let abandoned = answer(batch, outcome);
        if let (false, Some(c)) = (abandoned.is_empty(), &client) {
            forget(c, &identity, &abandoned, database.timeout).await;
        }
    }
}

/// Answers each job of `batch`; returns the keys inserted for callers no longer waiting.
fn answer(batch: Vec<Job>, outcome: io::Result<Committed>) -> Vec<String> {
    let committed = match outcome {
        Ok(committed) => committed,
        Err(e) => {
            for job in batch {
                let _ = job.done.send(Err(io::Error::new(e.kind(), e.to_string())));
            }
            return Vec::new();
        }
    };
    let mut abandoned = Vec::new();
    for job in batch {
        let key = job.write.key;
        let result = match committed.refused.iter().find(|(k, _)| *k == key) {
            Some((_, why)) => Err(io::Error::new(io::ErrorKind::AlreadyExists, why.clone())),
            None => Ok(()),
        };
        if job.done.send(result).is_err() && committed.inserted.contains(&key) {
            abandoned.push(key);
        }
    }
    abandoned
}

/// Deletes the rows just inserted for `keys`, whose callers gave up before learning it (they
/// sent nothing). Best effort: a row left is an open entry that recovery settles under its key.
async fn forget(client: &Client, identity: &Identity, keys: &[String], limit: Duration) {
    let params: [&(dyn ToSql + Sync); 2] = [&keys, &identity.owner];
    let delete = client.execute(
        "DELETE FROM sdk_journal_writes WHERE key = ANY($1) AND owner = $2 \
         AND settlement IS NULL AND acknowledged_at IS NULL",
        &params,
    );
    if let Err(e) = within(limit, sql_result(delete)).await {
        tracing::warn!(error = %e, "the write journal could not delete a write its caller gave up");
    }
}

async fn connected<'a>(
    client: &'a mut Option<Client>,
    database: &Database,
) -> io::Result<&'a Client> {
    if client.as_ref().is_none_or(Client::is_closed) {
        *client = Some(connect(database, true).await?);
    }
    Ok(client.as_ref().expect("connected above"))
}

/// What one batch's statement did.
struct Committed {
    /// Keys inserted by it.
    inserted: HashSet<String>,
    /// Writes refused (key, why): an intent already journaled under another key. A key
    /// already journaled is neither inserted nor refused: it is recorded already.
    refused: Vec<(String, String)>,
}

/// The `VALUES` row of a write whose 12 parameters follow the first `n` (the shared ones: `$1`
/// namespace, `$2` owner, `$3` lease, `$4` host, `$5` process id).
fn row(n: usize) -> String {
    let own: Vec<String> = (n + 1..=n + 12).map(|i| format!("${i}")).collect();
    let (key, rest) = own.split_first().expect("12 parameters");
    format!(
        "({key}, $1, {}, $2, now() + make_interval(secs => $3), $4, $5)",
        rest.join(", ")
    )
}

/// Inserts `writes` in one statement (kill points: `append` before it, `fsync` once it is
/// committed).
async fn commit(
    client: &Client,
    identity: &Identity,
    writes: &[&JournaledWrite],
) -> io::Result<Committed> {
    let lease = identity.lease.as_secs_f64();
    let methods: Vec<&str> = writes.iter().map(|w| w.method.as_str()).collect();
    let headers: Vec<String> = writes.iter().map(|w| encode_headers(&w.headers)).collect();
    let bodies: Vec<&[u8]> = writes.iter().map(|w| w.body.as_ref()).collect();
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![
        &identity.namespace,
        &identity.owner,
        &lease,
        &identity.host,
        &identity.pid,
    ];
    let mut rows = Vec::with_capacity(writes.len());
    for (i, w) in writes.iter().enumerate() {
        rows.push(row(params.len()));
        params.extend_from_slice(&[
            &w.key,
            &w.intent,
            &w.operation_id,
            &methods[i],
            &w.target,
            &w.server,
            &w.content_type,
            &bodies[i],
            &w.client_request_id,
            &headers[i],
            &w.base_url,
            &w.credential,
        ]);
    }
    let sql = format!(
        "INSERT INTO sdk_journal_writes (key, namespace, intent, operation_id, method, target, \
         server, content_type, body, client_request_id, headers, base_url, credential, owner, \
         lease_until, owner_host, owner_pid) VALUES {} \
         ON CONFLICT DO NOTHING RETURNING key",
        rows.join(", ")
    );
    // One statement: its rows commit together, in one WAL flush (no BEGIN/COMMIT round trips).
    crate::write::kill_point!("append");
    let inserted: HashSet<String> = sql_result(client.query(&sql, &params))
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    crate::write::kill_point!("fsync");
    let mut refused = Vec::new();
    for w in writes.iter().filter(|w| !inserted.contains(&w.key)) {
        if let Some(why) = conflict(client, identity, w).await? {
            refused.push((w.key.clone(), why));
        }
    }
    Ok(Committed { inserted, refused })
}

/// Why a write that was not inserted is refused, `None` when its key is journaled already
/// (the same write again).
async fn conflict(
    client: &Client,
    identity: &Identity,
    w: &JournaledWrite,
) -> io::Result<Option<String>> {
    let same_key = client
        .query_opt("SELECT 1 FROM sdk_journal_writes WHERE key = $1", &[&w.key])
        .await
        .map_err(unavailable)?;
    if same_key.is_some() {
        return Ok(None);
    }
    let holder = client
        .query_opt(
            "SELECT key, acknowledged_at IS NOT NULL FROM sdk_journal_writes \
             WHERE namespace = $1 AND intent = $2 AND NOT released",
            &[&identity.namespace, &w.intent],
        )
        .await
        .map_err(unavailable)?;
    let intent = w.intent.as_deref().unwrap_or_default();
    Ok(Some(match holder {
        Some(row) if row.get::<_, bool>(1) => format!(
            "intent {intent} was already carried out under key {} (acknowledged): it is never \
             sent under a new key",
            row.get::<_, String>(0)
        ),
        Some(row) => format!(
            "intent {intent} is journaled under key {} and not acknowledged yet: its outcome \
             comes from recovery (Client::recover_writes), never from a new key",
            row.get::<_, String>(0)
        ),
        None => format!("intent {intent} could not be journaled (a concurrent record); retry"),
    }))
}
