//! `writes list` and `writes recover` on a PostgreSQL journal shared by several processes
//! (issue 42, item 5), through the real `customer-cloud` binary against a throwaway cluster and
//! the sandbox. Two runs stop at the `send` kill point (their write recorded, not sent): one is
//! killed (a dead owner), the other stays stopped (a live owner, connected, its lease held).
//! `writes list` shows both with their owner as recorded (id, host, pid), whether it is alive
//! and since when; `writes recover` settles the dead owner's write now and skips the live
//! owner's, saying why. Waits are for output or state; their deadline only guards a hang.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Guards every wait against a hang (never reached when things work).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// `dns create-dns-zone` of zone `name` on the journal at `url`.
fn create_zone(url: &str, name: &str) -> Vec<String> {
    let body = json!({ "name": name }).to_string();
    ["--journal", url, "dns", "create-dns-zone", "--json", &body]
        .map(str::to_owned)
        .to_vec()
}

/// Runs `args` until its write is recorded and about to be sent (kill point `send`), and
/// leaves it stopped there.
fn stopped_before_sending(cli: &Cli, args: &[String]) -> Child {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = cli
        .command(&args)
        .env("SDK_CRASH_POINT", "send:1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let reached = lines.any(|l| l.is_ok_and(|l| l == "sdk-crash-point send 1"));
    assert!(reached, "the run ended before sending");
    child
}

/// The listed entry of `pid`'s run.
fn entry_of(listed: &Value, pid: u32) -> &Value {
    listed
        .as_array()
        .expect("a list")
        .iter()
        .find(|e| e["owner"]["pid"] == pid)
        .unwrap_or_else(|| panic!("no entry of pid {pid}: {listed}"))
}

/// `writes list`, again until the killed run's owner is seen gone (its database session ends
/// a moment after the kill).
fn listed_once_gone(cli: &Cli, url: &str, dead: u32) -> Value {
    let started = Instant::now();
    loop {
        let listed = cli.ok(&["--journal", url, "writes", "list"]);
        if entry_of(&listed, dead)["owner"]["alive"] == false {
            return listed;
        }
        assert!(
            started.elapsed() < HANG_GUARD,
            "the killed owner stays alive"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `entry` is an open `dns create-dns-zone` listed with its owner as recorded and its age.
fn listed_with_owner_and_age(entry: &Value) {
    assert_eq!(entry["command"], "dns create-dns-zone", "{entry}");
    assert_eq!(entry["state"], "open", "{entry}");
    assert!(
        entry["since"].as_str().is_some_and(|s| s.ends_with('Z')),
        "{entry}"
    );
    assert!(entry["age_seconds"].as_u64().is_some(), "{entry}");
    let id = entry["owner"]["id"].as_str().unwrap_or_default();
    assert!(id.starts_with("sdk-journal-"), "{entry}");
    let host = entry["owner"]["host"].as_str().unwrap_or_default();
    assert!(!host.is_empty(), "{entry}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_list_and_recover_work_across_owners_of_a_postgres_journal() {
    let cluster = match sdk_tests::postgres::Cluster::start("cli-owners") {
        Ok(c) => c,
        Err(e) if !sdk_tests::postgres::required() => {
            println!("skipped: no PostgreSQL ({e}); `bash .ci/postgres` installs it");
            return;
        }
        Err(e) => panic!("PostgreSQL is required under CI=true: {e}"),
    };
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "writes-owners");
    let url = cluster.url();
    tokio::task::block_in_place(|| across_owners(&sb, &cli, &url));
}

fn across_owners(sb: &Sandbox, cli: &Cli, url: &str) {
    // The live one first: a run starting takes over a dead owner's entries (as recovery does).
    let mut live = stopped_before_sending(cli, &create_zone(url, "live-owner.example"));
    let mut dead = stopped_before_sending(cli, &create_zone(url, "dead-owner.example"));
    let dead_pid = dead.id();
    dead.kill().expect("SIGKILL");
    dead.wait().expect("reaped");

    let listed = listed_once_gone(cli, url, dead_pid);
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    let (gone, alive) = (entry_of(&listed, dead_pid), entry_of(&listed, live.id()));
    for entry in [gone, alive] {
        listed_with_owner_and_age(entry);
    }
    assert_eq!(alive["owner"]["alive"], true, "{alive}");

    let recovered = cli.ok(&["--journal", url, "writes", "recover"]);
    let row = |key: &Value| {
        recovered
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["key"] == *key))
            .unwrap_or_else(|| panic!("{key} not reported: {recovered}"))
            .clone()
    };
    assert_eq!(row(&gone["key"])["state"], "applied", "{recovered}");
    let skipped = row(&alive["key"]);
    assert_eq!(skipped["state"], "skipped", "{skipped}");
    assert_eq!(skipped["owner"]["pid"], live.id(), "{skipped}");
    let reason = skipped["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("is alive"), "{skipped}");
    let zones = |name: &str| sb.zones().iter().filter(|z| z.name == name).count();
    assert_eq!(
        zones("dead-owner.example"),
        1,
        "the dead owner's write, once"
    );
    assert_eq!(
        zones("live-owner.example"),
        0,
        "nothing sent for the live owner"
    );

    let left = cli.ok(&["--journal", url, "writes", "list"]);
    assert_eq!(left.as_array().map(Vec::len), Some(1), "{left}");
    assert_eq!(left[0]["key"], alive["key"], "{left}");
    live.kill().expect("SIGKILL");
    live.wait().expect("reaped");
}
