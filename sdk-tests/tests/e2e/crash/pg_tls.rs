//! TLS to the journal's database, against a cluster that accepts TLS connections only, with a
//! CA, a server certificate for `localhost` and a client certificate made here (`openssl`):
//! each `sslmode` connects or refuses as `docs/journal.md` says, client certificates are sent,
//! and no error repeats the password.

use oncegen_runtime::PostgresJournal;
use sdk_tests::postgres::{Cluster, LOCALHOST_SERVER, TlsFiles, certificates, required};

use super::*;

/// In every connection string; trust authentication never asks for it.
const PASSWORD: &str = "tls-secret-pw";

/// A cluster accepting TLS only, with a CA, a server certificate for `localhost` and a client
/// certificate for `sdk` made in `dir`; `None` (printed) without PostgreSQL, unless required.
fn tls_cluster(dir: &Path) -> Option<Cluster> {
    certificates(
        dir,
        &[
            LOCALHOST_SERVER,
            ("client", "/CN=sdk", "extendedKeyUsage=clientAuth\n"),
        ],
    );
    let files = TlsFiles {
        cert: &dir.join("server.crt"),
        key: &dir.join("server.key"),
        ca: &dir.join("ca.crt"),
    };
    match Cluster::start_tls("tls", &files) {
        Ok(cluster) => Some(cluster),
        Err(e) if !required() => {
            eprintln!("e2e: SKIPPING TLS: {e}");
            None
        }
        Err(e) => panic!("the TLS test needs PostgreSQL (CI=true): {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_journal_speaks_tls_as_sslmode_says() {
    let dir = temp_dir("pg-tls");
    let dir = dir.0.as_path();
    let Some(cluster) = tls_cluster(dir) else {
        return;
    };
    let port = cluster.port();
    let ca = dir.join("ca.crt").display().to_string();
    let url = |host: &str, query: &str| {
        format!("postgresql://sdk:{PASSWORD}@{host}:{port}/postgres?{query}")
    };
    let with_ca = |mode: &str| format!("sslmode={mode}&sslrootcert={ca}");
    connects(&url("localhost", &with_ca("verify-full"))).await;
    let untrusted = url("localhost", "sslmode=verify-full");
    refused(&untrusted, "a CA not trusted", "UnknownIssuer").await;
    let other_name = url("127.0.0.1", &with_ca("verify-full"));
    refused(
        &other_name,
        "a certificate for another host name",
        "not valid for name",
    )
    .await;
    connects(&url("127.0.0.1", &with_ca("verify-ca"))).await;
    connects(&url("127.0.0.1", "sslmode=require")).await;
    connects(&url("127.0.0.1", "sslmode=prefer")).await;
    let plain = url("127.0.0.1", "sslmode=disable");
    refused(&plain, "no TLS on a TLS-only server", "no encryption").await;
    client_certificates(dir, port, &ca).await;
}

/// A client certificate is sent (key=value form) where the server requires one.
async fn client_certificates(dir: &Path, port: u16, ca: &str) {
    let client = |extra: &str| {
        format!(
            "host=localhost port={port} user=sdk password='{PASSWORD}' dbname=template1 \
             sslmode=verify-full sslrootcert='{ca}' {extra}"
        )
    };
    let pair = format!(
        "sslcert={} sslkey={}",
        dir.join("client.crt").display(),
        dir.join("client.key").display()
    );
    connects(&client(&pair)).await;
    let without = client("");
    refused(
        &without,
        "no client certificate where one is required",
        "certificate",
    )
    .await;
}

async fn connects(url: &str) {
    let journal = PostgresJournal::connect(url).await;
    let journal = journal.unwrap_or_else(|e| panic!("{}: {e}", url.replace(PASSWORD, "***")));
    assert!(!format!("{journal:?}").contains(PASSWORD));
}

/// Connecting to `url` fails, saying `cause`, never the password.
async fn refused(url: &str, why: &str, cause: &str) {
    let e = PostgresJournal::connect(url).await.err();
    let e = e.unwrap_or_else(|| panic!("{why}: connected")).to_string();
    println!("postgres journal TLS, {why}: {e}");
    assert!(e.contains(cause), "{why}: {e}");
    assert!(!e.contains(PASSWORD), "{e}");
}
