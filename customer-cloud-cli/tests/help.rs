//! The help texts users read, as snapshots reviewed in the repository
//! (`tests/snapshots/`; `SNAPSHOTS=overwrite cargo test -p customer-cloud-cli --test help` updates them).

use snapbox::cmd::Command;

fn help(args: &[&str]) -> snapbox::cmd::OutputAssert {
    Command::new(snapbox::cmd::cargo_bin!("customer-cloud"))
        .args(args)
        .env_remove("COLUMNS")
        .assert()
        .success()
}

#[test]
fn the_tool_lists_its_areas_flags_and_exit_codes() {
    help(&["--help"]).stdout_eq(snapbox::file!["snapshots/help.txt"]);
}

#[test]
fn an_area_lists_its_operations() {
    help(&["dns", "--help"]).stdout_eq(snapbox::file!["snapshots/dns-help.txt"]);
}

#[test]
fn an_operation_shows_its_description_arguments_and_enum_values() {
    help(&["catalog", "get-products", "--help"])
        .stdout_eq(snapbox::file!["snapshots/catalog-get-products-help.txt"]);
}

#[test]
fn a_purchase_requires_its_ceiling() {
    help(&["deployments", "product-variant-deploy", "--help"]).stdout_eq(snapbox::file![
        "snapshots/deployments-product-variant-deploy-help.txt"
    ]);
}

/// The binary's stdout for `args`, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = std::process::Command::new(snapbox::cmd::cargo_bin!("customer-cloud"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_bash_completion_script_is_valid_bash_and_completes_operations() {
    let script = stdout(&["completions", "bash"]);
    assert!(
        script.contains("create-dns-zone"),
        "operations are completed"
    );
    // bash itself reads the script, defines the completion and completes an area's commands.
    let probe = format!(
        "{script}\nCOMP_WORDS=(customer-cloud dns cre); COMP_CWORD=2; _customer__cloud customer-cloud cre dns; printf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
    );
    let mut bash = std::process::Command::new("bash")
        .arg("--norc")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bash runs");
    let mut stdin = bash.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut stdin, probe.as_bytes()).expect("script written");
    drop(stdin);
    let out = bash.wait_with_output().expect("bash ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let offered = String::from_utf8_lossy(&out.stdout);
    assert!(
        offered.lines().any(|l| l == "create-dns-zone"),
        "{offered}\n{stderr}"
    );
}

#[test]
fn man_pages_cover_the_tool_and_every_command() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH customer-cloud 1"), "{page}");
    let dir = std::env::temp_dir().join(format!("customer-cloud-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    stdout(&["man", "--dir", dir.to_str().expect("UTF-8 path")]);
    let pages: Vec<String> = std::fs::read_dir(&dir)
        .expect("pages written")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    std::fs::remove_dir_all(&dir).expect("cleaned up");
    for expected in [
        "customer-cloud.1",
        "customer-cloud-dns.1",
        "customer-cloud-dns-create-dns-zone.1",
        "customer-cloud-writes-recover.1",
    ] {
        assert!(
            pages.iter().any(|p| p == expected),
            "{expected} in {pages:?}"
        );
    }
}
