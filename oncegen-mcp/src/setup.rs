//! The write journal: a file in the user's state directory by default, or PostgreSQL when the
//! journal is a `postgres://` URL (feature `postgres`), shared by many processes.

use oncegen_runtime::SqliteJournal;
use oncegen_runtime::journal::WriteJournal;
use std::path::PathBuf;
use std::sync::Arc;

/// Where the journal is: `flag`, else `<PREFIX>_JOURNAL`, else
/// `$XDG_STATE_HOME/<bin>/journal` (`~/.local/state/<bin>/journal`).
pub(crate) fn journal_location(
    bin: &str,
    prefix: &str,
    flag: Option<&str>,
) -> Result<String, String> {
    if let Some(given) = flag {
        return Ok(given.to_owned());
    }
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if let Some(given) = set(&format!("{prefix}_JOURNAL")) {
        return Ok(given);
    }
    let state = set("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".local/state")))
        .ok_or_else(|| {
            format!("no state directory for the write journal: set XDG_STATE_HOME or HOME, {prefix}_JOURNAL or --journal")
        })?;
    Ok(state.join(bin).join("journal").display().to_string())
}

/// Opens the journal at `location`: a PostgreSQL URL or a file path.
pub(crate) async fn open_journal(location: &str) -> Result<Arc<dyn WriteJournal>, String> {
    if location.starts_with("postgres://") || location.starts_with("postgresql://") {
        return postgres(location).await;
    }
    let path = PathBuf::from(location);
    let failed = |e: std::io::Error| format!("write journal {}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(failed)?;
    }
    let journal = SqliteJournal::open(&path).map_err(failed)?;
    Ok(Arc::new(journal))
}

#[cfg(feature = "postgres")]
async fn postgres(url: &str) -> Result<Arc<dyn WriteJournal>, String> {
    // The URL may hold a password: errors name the database, never the URL.
    oncegen_runtime::PostgresJournal::connect(url)
        .await
        .map(|j| Arc::new(j) as Arc<dyn WriteJournal>)
        .map_err(|e| format!("the PostgreSQL write journal: {e}"))
}

#[cfg(not(feature = "postgres"))]
async fn postgres(_url: &str) -> Result<Arc<dyn WriteJournal>, String> {
    Err("a PostgreSQL journal needs this server built with the `postgres` feature".into())
}
