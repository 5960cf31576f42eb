//! Durable acknowledgements on the PostgreSQL journal, a setting
//! (`PostgresJournalBuilder::durable_acknowledgements`, default on): whether an
//! acknowledgement's commit waits until it is durable (`synchronous_commit` on) or not. Seen
//! without timing: the cluster is restarted with a synchronous standby that does not exist,
//! so a commit that waits for durability never completes (its journal operation ends at the
//! journal's `timeout`), while one that does not wait returns at once.

use std::io;

use oncegen_runtime::PostgresJournal;

use super::pg_rules::write;
use super::postgres::cluster;
use super::*;

async fn journal(url: &str, durable: Option<bool>) -> PostgresJournal {
    let mut builder = PostgresJournal::builder(url)
        .namespace("durable")
        .timeout(Duration::from_secs(3));
    if let Some(durable) = durable {
        builder = builder.durable_acknowledgements(durable);
    }
    builder.connect().await.expect("journal connects")
}

/// Runs `sql` (one statement outside a transaction) as the cluster's superuser.
async fn superuser(url: &str, sql: &str) {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the test connects to its cluster");
    tokio::spawn(connection);
    client.batch_execute(sql).await.expect(sql);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledgements_wait_for_durability_unless_set_otherwise() {
    let Some(cluster) = cluster("durable") else {
        return;
    };
    let url = cluster.url();
    let by_default = journal(&url, None).await;
    let relaxed = journal(&url, Some(false)).await;
    by_default.record(&write("d1", "durable-1")).await.unwrap();
    relaxed.record(&write("d2", "durable-2")).await.unwrap();

    superuser(
        &url,
        "ALTER SYSTEM SET synchronous_standby_names = 'no_such_standby'",
    )
    .await;
    cluster.stop().unwrap();
    cluster.start_server().unwrap();

    relaxed
        .acknowledge("d2")
        .await
        .expect("an acknowledgement that does not wait for durability returns");
    let waited = by_default.acknowledge("d1").await.unwrap_err();
    assert_eq!(waited.kind(), io::ErrorKind::TimedOut, "{waited}");
}
