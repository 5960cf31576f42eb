//! A `--json` body is exactly what the user wrote, or an error before anything is sent: a
//! member the document does not define, a value that does not decode (inside an
//! `x-at-most-one-of` group too) and two members of one group are refused with exit 2, naming
//! the member; `--allow-unknown-members` sends unknown members as given, with a warning.
//!
//! The sandbox runs in this process; each command is a child process of the real binary, its
//! output read through pipes; what reached the sandbox is read back from it.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;

/// Whether the sandbox holds the zone `name` (read through the CLI: a read is the witness).
fn zone_exists(cli: &Cli, name: &str) -> bool {
    cli.output(&["dns", "get-dns-zone", name]).status.success()
}

/// `create-dns-zone` with `body`, which must be refused with exit 2: its stderr.
fn refused(cli: &Cli, sb: &Sandbox, body: &str) -> String {
    let sent = sb.requests().len();
    let (code, stderr) = cli.fails(&["dns", "create-dns-zone", "--json", body]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(sb.requests().len(), sent, "nothing is sent: {stderr}");
    stderr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_member_is_refused_naming_it_and_nothing_is_created() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "inputs-unknown");
    let stderr = refused(&cli, &sb, r#"{"name":"a.example","dryrun":true}"#);
    assert!(
        stderr.contains("at `dryrun`: unknown member `dryrun`, did you mean `dryRun`?"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`name`, `dryRun`, `template_id`"),
        "{stderr}"
    );
    assert!(!zone_exists(&cli, "a.example"));

    let nested = r#"{"name":"a.example","records":[{"name":"@","tll":300}]}"#;
    let stderr = refused(&cli, &sb, nested);
    assert!(
        stderr.contains("at `records[0].tll`: unknown member `tll`, did you mean `ttl`?"),
        "{stderr}"
    );
    assert!(!zone_exists(&cli, "a.example"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_of_a_group_that_does_not_decode_or_a_second_member_is_refused() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "inputs-group");
    let ttl = r#"{"name":"b.example","records":[{"name":"@","type":"A","ttl":"300","values":["192.0.2.1"]}]}"#;
    let stderr = refused(&cli, &sb, ttl);
    assert!(
        stderr.contains("at `records[0].ttl`: invalid type: string \"300\""),
        "{stderr}"
    );
    let template = r#"{"name":"b.example","template_id":"default"}"#;
    let stderr = refused(&cli, &sb, template);
    assert!(stderr.contains("at `template_id`: "), "{stderr}");
    let both = r#"{"name":"b.example","zone_file":"@ 300 IN A 192.0.2.1\n","records":[]}"#;
    let stderr = refused(&cli, &sb, both);
    assert!(
        stderr.contains("`zone_file` and `records` are both given, and at most one of"),
        "{stderr}"
    );
    assert!(!zone_exists(&cli, "b.example"));

    let records = r#"{"name":"b.example","records":[{"name":"@","type":"A","ttl":300,"values":["192.0.2.1"]}]}"#;
    cli.ok(&["dns", "create-dns-zone", "--json", records]);
    let zone = cli.ok(&["dns", "get-dns-zone", "b.example"]);
    assert!(
        zone.to_string().contains("192.0.2.1"),
        "the records were sent: {zone}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_unknown_members_sends_them_as_given_with_a_warning() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "inputs-allow");
    // The sandbox validates bodies against the contract, which closes this object: its 400
    // naming `dry_run` shows the member was sent, not dropped.
    let body = r#"{"name":"c.example","dry_run":true}"#;
    let args = [
        "dns",
        "create-dns-zone",
        "--allow-unknown-members",
        "--json",
        body,
    ];
    let sent = sb.requests().len();
    let (code, stderr) = cli.fails(&args);
    assert!(
        stderr.contains(
            "warning: --allow-unknown-members: sending members the API document does not \
             define, as given: `dry_run`"
        ),
        "{stderr}"
    );
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("'dry_run' was unexpected"), "{stderr}");
    assert_eq!(sb.requests().len(), sent + 1, "sent once: {stderr}");
    assert!(!zone_exists(&cli, "c.example"));
    // Without unknown members the flag changes nothing.
    let known = r#"{"name":"c.example"}"#;
    cli.ok(&[
        "dns",
        "create-dns-zone",
        "--allow-unknown-members",
        "--json",
        known,
    ]);
    assert!(zone_exists(&cli, "c.example"));
}
