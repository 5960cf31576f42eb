//! The write journal a command uses: the SQLite file in the user's state directory (the
//! default, shared by every process of the machine) or, for a `postgres://` location, the
//! SDK's PostgreSQL journal shared with other machines.

use crate::{Failure, exit};
use oncegen_runtime::SqliteJournal;
use oncegen_runtime::journal::WriteJournal;
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
    Ok(Arc::new(SqliteJournal::open(path).map_err(failed)?))
}

#[cfg(feature = "postgres")]
async fn open_postgres(url: &str) -> Result<Arc<dyn WriteJournal>, Failure> {
    let journal = oncegen_runtime::PostgresJournal::connect(url)
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

/// A journal that failed while a command used it.
pub fn failed(e: io::Error) -> Failure {
    Failure {
        code: exit::OTHER,
        message: format!("the write journal: {e} (nothing was sent)"),
        settled_key: None,
    }
}
