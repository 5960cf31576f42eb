//! One connection to the journal's database, opened on first use and again after it drops.

use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio_postgres::{Client, NoTls, Statement};

/// How long connecting may take before the database counts as unreachable.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one statement may take before the database counts as unreachable.
pub(super) const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection that reconnects on demand, with its prepared statements. Statements on it are
/// pipelined; none of them opens a transaction (the connection is shared).
pub(super) struct Link {
    config: tokio_postgres::Config,
    /// `synchronous_commit` for this connection's statements.
    synchronous: bool,
    open: Mutex<Option<Open>>,
}

struct Open {
    client: Arc<Client>,
    statements: HashMap<&'static str, Statement>,
}

impl Link {
    pub(super) fn new(config: tokio_postgres::Config, synchronous: bool) -> Self {
        Self {
            config,
            synchronous,
            open: Mutex::new(None),
        }
    }

    /// `sql` prepared on the open connection (a new one if there is none or it dropped).
    pub(super) async fn prepared(&self, sql: &'static str) -> io::Result<(Arc<Client>, Statement)> {
        let mut slot = self.open.lock().await;
        if slot.as_ref().is_none_or(|open| open.client.is_closed()) {
            *slot = None;
            let client = Arc::new(connect(&self.config, self.synchronous).await?);
            *slot = Some(Open {
                client,
                statements: HashMap::new(),
            });
        }
        let open = slot.as_mut().expect("opened above");
        if let Some(statement) = open.statements.get(sql) {
            return Ok((open.client.clone(), statement.clone()));
        }
        let statement = timed(open.client.prepare(sql)).await?;
        open.statements.insert(sql, statement.clone());
        Ok((open.client.clone(), statement))
    }
}

/// Opens a connection (its driver task spawned on the current runtime).
pub(super) async fn connect(
    config: &tokio_postgres::Config,
    synchronous: bool,
) -> io::Result<Client> {
    let connecting = tokio::time::timeout(CONNECT_TIMEOUT, config.connect(NoTls));
    let (client, connection) = connecting
        .await
        .map_err(|_| unreachable_after("connecting", CONNECT_TIMEOUT))?
        .map_err(unavailable)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "the write journal's database connection ended");
        }
    });
    if !synchronous {
        // Settlements and acknowledgements need not wait for the disk (see `WriteJournal`).
        timed(client.batch_execute("SET synchronous_commit = off")).await?;
    }
    Ok(client)
}

/// Runs a statement with [`STATEMENT_TIMEOUT`], its error as an I/O error.
pub(super) async fn timed<T>(
    statement: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> io::Result<T> {
    tokio::time::timeout(STATEMENT_TIMEOUT, statement)
        .await
        .map_err(|_| unreachable_after("a statement", STATEMENT_TIMEOUT))?
        .map_err(unavailable)
}

/// A driver error as an I/O error that says what it means for the write.
pub(super) fn unavailable(e: tokio_postgres::Error) -> io::Error {
    let kind = if e.as_db_error().is_some() {
        io::ErrorKind::Other
    } else {
        io::ErrorKind::NotConnected
    };
    io::Error::new(
        kind,
        format!("the write journal's database failed or is unreachable ({e}); retry later"),
    )
}

fn unreachable_after(what: &str, limit: Duration) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!("the write journal's database did not answer {what} within {limit:?}; retry later"),
    )
}
