//! Help a person can act on (issue 41, item 6), read from the real binary: an operation's
//! `--help` lists its JSON body's members and gives an example that the tool accepts; a
//! positional argument is described; an area's help line names only what its commands do; a
//! command whose operationId reads like a URL has a readable name, and its former name still
//! works.

mod common;

use cloud_sandbox::Sandbox;
use common::Cli;
use std::collections::BTreeMap;

/// The binary's stdout for `args`, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud"))
        .args(args)
        .env_remove("COLUMNS")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The `--json '…'` of the example in `help`.
fn example_body(help: &str) -> String {
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("$ customer-cloud"))
        .unwrap_or_else(|| panic!("an example line in:\n{help}"));
    let (_, quoted) = line.split_once("--json '").expect("an example body");
    quoted.strip_suffix('\'').expect("quoted").to_owned()
}

#[test]
fn long_help_lists_the_body_members_and_an_example_short_help_does_not() {
    let help = stdout(&["dedicated-servers", "dedicated-deploy", "--help"]);
    for line in [
        "JSON body (--json):",
        "hostname            string, required. Lowercase DNS hostname.",
        "os_profile_id       integer, required. From the dedicated images list.",
        "billing.unit        string; one of: MONTH, QUARTAL, SEMIANNUAL, YEAR",
        "ssh_key_id          string (uuid). An owned key whose OS profile supports keys.",
    ] {
        assert!(help.contains(line), "{line:?} in:\n{help}");
    }
    let body: serde_json::Value =
        serde_json::from_str(&example_body(&help)).expect("the example is JSON");
    let mut members: Vec<&String> = body.as_object().expect("an object").keys().collect();
    members.sort();
    assert_eq!(
        members,
        [
            "configuration_code",
            "hostname",
            "os_profile_id",
            "region_code"
        ],
        "the required members"
    );
    let short = stdout(&["dedicated-servers", "dedicated-deploy", "-h"]);
    assert!(!short.contains("JSON body"), "{short}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_bodies_are_accepted_as_they_are() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "help-examples");
    let uuid = "00000000-0000-0000-0000-000000000001";
    for (command, positionals) in [
        (["dedicated-servers", "dedicated-deploy"], vec![]),
        (["storage", "volume-attach"], vec![uuid]),
        (["ssh", "key-import"], vec![]),
    ] {
        let mut args = command.to_vec();
        args.push("--help");
        let body = example_body(&stdout(&args));
        args.pop();
        args.extend(positionals);
        args.extend(["--dry-run", "--json", &body]);
        let request = cli.ok(&args);
        assert_eq!(
            request["body"],
            serde_json::from_str::<serde_json::Value>(&body).expect("JSON"),
            "{args:?}"
        );
    }
}

#[test]
fn a_positional_argument_the_document_does_not_describe_says_what_it_is() {
    let help = stdout(&["integrations", "webhook-delete", "--help"]);
    assert!(
        help.contains("<id>\n          `{id}` of `/v1/webhooks/{id}`: string (uuid)"),
        "{help}"
    );
}

/// Each tag of the contract by its area command, with the summaries of its operations.
fn summaries_by_area() -> BTreeMap<String, (String, Vec<String>)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml"))
            .expect("the contract");
    let spec: serde_json::Value = yaml_serde::from_str(&text).expect("YAML");
    let mut out: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    for tag in spec["tags"].as_array().expect("tags") {
        let name = tag["name"].as_str().expect("a name");
        let command = name.to_lowercase().replace([' ', '/'], "-");
        let description = tag["description"].as_str().unwrap_or_default().to_owned();
        out.insert(command, (description, Vec::new()));
    }
    for item in spec["paths"].as_object().expect("paths").values() {
        for op in item.as_object().expect("a path item").values() {
            let (Some(tags), Some(summary)) = (op["tags"].as_array(), op["summary"].as_str())
            else {
                continue;
            };
            let tag = tags[0].as_str().expect("a tag");
            let command = tag.to_lowercase().replace([' ', '/'], "-");
            out.get_mut(&command)
                .expect("a declared tag")
                .1
                .push(summary.to_lowercase());
        }
    }
    out
}

#[test]
fn an_area_names_only_what_its_commands_do() {
    let help = stdout(&["--help"]);
    let areas = summaries_by_area();
    let mut checked = 0;
    for line in help.lines().map(str::trim) {
        let Some((command, about)) = line.split_once(char::is_whitespace) else {
            continue;
        };
        let Some((description, summaries)) = areas.get(command) else {
            continue;
        };
        checked += 1;
        assert_ne!(
            about.trim(),
            description,
            "`{command}` repeats its tag's description"
        );
        for part in about.trim().split("; ") {
            let part = part.to_lowercase();
            assert!(
                summaries.contains(&part) || part.starts_with("and ") && part.ends_with(" more"),
                "`{command}`: {part:?} is none of its operations: {summaries:?}"
            );
        }
    }
    assert_eq!(checked, areas.len(), "every area is listed:\n{help}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_like_command_is_named_readably_and_its_former_name_still_works() {
    let vps = stdout(&["vps", "--help"]);
    assert!(vps.contains("\n  reboot "), "{vps}");
    assert!(!vps.contains("post-vps-by-service-id-reboot"), "{vps}");
    let domains = stdout(&["domains", "--help"]);
    assert!(
        domains.contains("\n  get-dnssec ") && domains.contains("\n  post-dnssec "),
        "{domains}"
    );

    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "help-former-name");
    let service = "00000000-0000-0000-0000-000000000002";
    let now = cli.ok(&["--dry-run", "vps", "reboot", service]);
    let before = cli.ok(&["--dry-run", "vps", "post-vps-by-service-id-reboot", service]);
    assert_eq!(now["url"], before["url"]);
    assert!(
        now["url"]
            .as_str()
            .expect("a URL")
            .ends_with(&format!("/v1/vps/{service}/reboot"))
    );
}
