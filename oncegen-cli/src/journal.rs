//! The write journal a command uses: a file (the default, in the user's state directory) or,
//! for a `postgres://` location, the SDK's PostgreSQL journal shared with other machines; and
//! [`Only`], a view of a journal that recovery sees a few entries through.

use crate::{Failure, exit};
use futures::future::BoxFuture;
use oncegen_runtime::FileJournal;
use oncegen_runtime::journal::{JournaledWrite, Pending, Settlement, WriteJournal};
use std::collections::BTreeSet;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// Whether `location` names a PostgreSQL journal (a `postgres://` or `postgresql://` URL).
pub fn is_postgres(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// Opens the journal at `location`: a PostgreSQL URL, else a file path (its directory
/// created owner-only where that is a thing).
pub async fn open(location: &str) -> Result<Arc<dyn WriteJournal>, Failure> {
    if is_postgres(location) {
        return open_postgres(location).await;
    }
    let path = Path::new(location);
    let failed = |e: io::Error| journal_failure(&path.display().to_string(), e);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(failed)?;
    }
    Ok(Arc::new(FileJournal::open(path).map_err(failed)?))
}

#[cfg(feature = "postgres")]
async fn open_postgres(url: &str) -> Result<Arc<dyn WriteJournal>, Failure> {
    let journal = oncegen_runtime::postgres_journal::PostgresJournal::connect(url)
        .await
        // The URL may hold a password: only "the PostgreSQL journal" is named.
        .map_err(|e| journal_failure("the PostgreSQL journal", e))?;
    Ok(Arc::new(journal))
}

#[cfg(not(feature = "postgres"))]
async fn open_postgres(_url: &str) -> Result<Arc<dyn WriteJournal>, Failure> {
    Err(Failure::usage(
        "a PostgreSQL journal needs this tool built with the `postgres` feature",
    ))
}

fn journal_failure(what: &str, e: io::Error) -> Failure {
    Failure {
        code: exit::OTHER,
        message: format!("write journal {what}: {e} (nothing was sent)"),
        settled_key: None,
    }
}

/// A journal whose [`pending`](WriteJournal::pending) shows only the entries of `keys`: what
/// recovery settles when one command's earlier run is settled, leaving every other entry as
/// it is.
#[derive(Debug)]
pub struct Only {
    inner: Arc<dyn WriteJournal>,
    keys: BTreeSet<String>,
}

impl Only {
    /// `inner`, its pending entries limited to `keys`.
    pub fn new(inner: Arc<dyn WriteJournal>, keys: BTreeSet<String>) -> Self {
        Only { inner, keys }
    }
}

impl WriteJournal for Only {
    fn record<'a>(&'a self, write: &'a JournaledWrite) -> BoxFuture<'a, io::Result<()>> {
        self.inner.record(write)
    }

    fn settle<'a>(
        &'a self,
        key: &'a str,
        settlement: &'a Settlement,
    ) -> BoxFuture<'a, io::Result<()>> {
        self.inner.settle(key, settlement)
    }

    fn acknowledge<'a>(&'a self, key: &'a str) -> BoxFuture<'a, io::Result<()>> {
        self.inner.acknowledge(key)
    }

    fn pending(&self) -> BoxFuture<'_, io::Result<Pending>> {
        Box::pin(async move {
            let mut pending = self.inner.pending().await?;
            pending.writes.retain(|w| self.keys.contains(&w.write.key));
            pending.damaged.clear();
            Ok(pending)
        })
    }
}
