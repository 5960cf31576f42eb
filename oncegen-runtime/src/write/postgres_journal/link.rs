//! One connection to the journal's database, opened on first use and again after it drops, and
//! the time limit of every journal operation.

use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio_postgres::{Client, Statement};
use tokio_postgres_rustls::MakeRustlsConnect;

/// Where and how to connect, and how long one journal operation may take.
pub(super) struct Database {
    pub(super) config: tokio_postgres::Config,
    pub(super) tls: MakeRustlsConnect,
    /// The limit of one operation as a whole: waiting for the connection, connecting,
    /// preparing and its statements.
    pub(super) timeout: Duration,
}

/// A connection that reconnects on demand, with its prepared statements. Statements on it are
/// pipelined; none of them opens a transaction (the connection is shared).
pub(super) struct Link {
    database: Arc<Database>,
    /// `synchronous_commit` for this connection's statements.
    synchronous: bool,
    open: Mutex<Option<Open>>,
}

struct Open {
    client: Arc<Client>,
    statements: HashMap<&'static str, Statement>,
}

impl Link {
    pub(super) fn new(database: Arc<Database>, synchronous: bool) -> Self {
        Self {
            database,
            synchronous,
            open: Mutex::new(None),
        }
    }

    /// The limit of one operation.
    pub(super) fn timeout(&self) -> Duration {
        self.database.timeout
    }

    /// Runs `operation` within the database's time limit. One that runs out drops the
    /// connection (unless another operation is reconnecting): a database that stopped
    /// answering would hold every statement pipelined after it.
    pub(super) async fn within<T>(
        &self,
        operation: impl Future<Output = io::Result<T>>,
    ) -> io::Result<T> {
        let limit = self.database.timeout;
        let outcome = within(limit, operation).await;
        if outcome
            .as_ref()
            .is_err_and(|e| e.kind() == io::ErrorKind::TimedOut)
            && let Ok(mut open) = self.open.try_lock()
        {
            *open = None;
        }
        outcome
    }

    /// Runs `statement` on `sql` prepared, within the time limit. One that finds the connection
    /// dropped (closed, or its session ended by the server) runs once more on a new connection:
    /// every statement of the link may run twice (updates to the same values, claims that
    /// include the journal's own entries).
    pub(super) async fn run<T, F, Fut>(&self, sql: &'static str, statement: F) -> io::Result<T>
    where
        F: Fn(Arc<Client>, Statement) -> Fut,
        Fut: Future<Output = Result<T, tokio_postgres::Error>>,
    {
        let once = async || {
            let (client, prepared) = self.prepared(sql).await?;
            let outcome = statement(client.clone(), prepared).await;
            if outcome.as_ref().is_err_and(dropped) {
                self.forget(&client).await;
            }
            outcome.map_err(unavailable)
        };
        self.within(async {
            match once().await {
                Err(e) if e.kind() == io::ErrorKind::ConnectionReset => once().await,
                outcome => outcome,
            }
        })
        .await
    }

    /// Forgets `client` unless another connection replaced it already.
    async fn forget(&self, client: &Arc<Client>) {
        let mut slot = self.open.lock().await;
        if slot
            .as_ref()
            .is_some_and(|open| Arc::ptr_eq(&open.client, client))
        {
            *slot = None;
        }
    }

    /// `sql` prepared on the open connection (a new one if there is none or it dropped).
    async fn prepared(&self, sql: &'static str) -> io::Result<(Arc<Client>, Statement)> {
        let mut slot = self.open.lock().await;
        if slot.as_ref().is_none_or(|open| open.client.is_closed()) {
            *slot = None;
            let client = Arc::new(connect(&self.database, self.synchronous).await?);
            *slot = Some(Open {
                client,
                statements: HashMap::new(),
            });
        }
        let open = slot.as_mut().expect("opened above");
        if let Some(statement) = open.statements.get(sql) {
            return Ok((open.client.clone(), statement.clone()));
        }
        let statement = match open.client.prepare(sql).await {
            Ok(statement) => statement,
            Err(e) => {
                if dropped(&e) {
                    *slot = None;
                }
                return Err(unavailable(e));
            }
        };
        open.statements.insert(sql, statement.clone());
        Ok((open.client.clone(), statement))
    }
}

/// Opens a connection (its driver task spawned on the current runtime). Unbounded: callers
/// run it [`within`] their time limit.
pub(super) async fn connect(database: &Database, synchronous: bool) -> io::Result<Client> {
    let (client, connection) = database
        .config
        .connect(database.tls.clone())
        .await
        .map_err(unavailable)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "the write journal's database connection ended");
        }
    });
    if !synchronous {
        // Settlements and acknowledgements need not wait for the disk (see `WriteJournal`),
        // when the journal was built so (`durable_acknowledgements(false)`).
        sql_result(client.batch_execute("SET synchronous_commit = off")).await?;
    }
    Ok(client)
}

/// Whether `e` says the connection is gone: closed, or its session ended by the server
/// (SQLSTATE classes 08, connection exception, and 57P, e.g. an administrator's termination or
/// a shutdown).
fn dropped(e: &tokio_postgres::Error) -> bool {
    e.is_closed()
        || e.code()
            .is_some_and(|c| c.code().starts_with("08") || c.code().starts_with("57P"))
}

/// `operation`, or a [`io::ErrorKind::TimedOut`] error once `limit` has passed.
pub(super) async fn within<T>(
    limit: Duration,
    operation: impl Future<Output = io::Result<T>>,
) -> io::Result<T> {
    tokio::time::timeout(limit, operation)
        .await
        .unwrap_or_else(|_| {
            Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the write journal's database did not answer within {limit:?}; retry later"
                ),
            ))
        })
}

/// A statement's result, its error as an I/O error.
pub(super) async fn sql_result<T>(
    statement: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> io::Result<T> {
    statement.await.map_err(unavailable)
}

/// A driver error as an I/O error that says what it means for the write, with its cause (the
/// server's message, or why TLS failed; the driver's errors never hold the password).
pub(super) fn unavailable(e: tokio_postgres::Error) -> io::Error {
    let kind = if dropped(&e) {
        io::ErrorKind::ConnectionReset
    } else if e.as_db_error().is_some() {
        io::ErrorKind::Other
    } else {
        io::ErrorKind::NotConnected
    };
    let cause = match std::error::Error::source(&e) {
        Some(source) => format!("{e}: {source}"),
        None => e.to_string(),
    };
    io::Error::new(
        kind,
        format!("the write journal's database failed or is unreachable ({cause}); retry later"),
    )
}
