//! The journal's tables, created and migrated by the SDK itself: `sdk_journal_schema` holds the
//! version applied, and each migration runs once, in a transaction, under an advisory lock so
//! that processes starting together migrate one at a time.

use std::io;

use tokio_postgres::Client;

use super::link::{sql_result, unavailable};

/// The advisory lock taken while migrating (an arbitrary constant: "sdkjrnl" in ASCII).
const MIGRATION_LOCK: i64 = 0x0073_646b_6a72_6e6c;

/// The migrations, in order; the schema's version is how many have run.
const MIGRATIONS: [&str; 3] = [
    r#"
CREATE TABLE sdk_journal_writes (
    key text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    namespace text NOT NULL,
    intent text,
    operation_id text NOT NULL,
    method text NOT NULL,
    target text NOT NULL,
    server text,
    content_type text,
    body bytea NOT NULL,
    client_request_id text,
    headers text NOT NULL,
    settlement text,
    applied boolean,
    owner text NOT NULL,
    lease_until timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    acknowledged_at timestamptz,
    released boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX sdk_journal_writes_one_key_per_intent
    ON sdk_journal_writes (namespace, intent) WHERE intent IS NOT NULL AND NOT released;
CREATE INDEX sdk_journal_writes_open
    ON sdk_journal_writes (namespace, seq) WHERE acknowledged_at IS NULL;
CREATE INDEX sdk_journal_writes_owner
    ON sdk_journal_writes (owner) WHERE acknowledged_at IS NULL;
CREATE INDEX sdk_journal_writes_acknowledged
    ON sdk_journal_writes (acknowledged_at) WHERE acknowledged_at IS NOT NULL;
"#,
    r#"
ALTER TABLE sdk_journal_writes
    ADD COLUMN base_url text,
    ADD COLUMN credential text,
    ADD COLUMN settled_at timestamptz;
"#,
    r#"
ALTER TABLE sdk_journal_writes
    ADD COLUMN owner_host text,
    ADD COLUMN owner_pid integer;
"#,
];

/// Brings the schema to the version this SDK knows; fails on a newer one.
pub(super) async fn migrate(client: &mut Client) -> io::Result<()> {
    let tx = client.transaction().await.map_err(unavailable)?;
    sql_result(tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])).await?;
    // Looked up before creating: `CREATE TABLE IF NOT EXISTS` needs the CREATE privilege even
    // when the table exists, which a role given pre-created tables lacks.
    let exists =
        sql_result(tx.query_one("SELECT to_regclass('sdk_journal_schema') IS NOT NULL", &[]))
            .await?
            .get::<_, bool>(0);
    if !exists {
        sql_result(tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS sdk_journal_schema (version integer NOT NULL)",
        ))
        .await?;
    }
    let row = sql_result(tx.query_opt("SELECT max(version) FROM sdk_journal_schema", &[])).await?;
    let version = row.and_then(|r| r.get::<_, Option<i32>>(0)).unwrap_or(0);
    let known = MIGRATIONS.len() as i32;
    if version > known {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "the write journal's schema is at version {version}, newer than this SDK knows \
                 ({known}): upgrade the SDK"
            ),
        ));
    }
    for (done, migration) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        sql_result(tx.batch_execute(migration)).await?;
        let next = done as i32 + 1;
        sql_result(tx.execute(
            "INSERT INTO sdk_journal_schema (version) VALUES ($1)",
            &[&next],
        ))
        .await?;
    }
    sql_result(tx.commit()).await
}
