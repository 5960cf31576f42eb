//! `cargo xtask gen` acts on the checkout it runs in, even when several checkouts share one
//! target directory (issue #29: cargo reused an xtask binary built in another checkout, and a
//! workspace root fixed at compile time made it regenerate that other checkout).
//!
//! Two copies of this checkout's tracked files (without the vendored corpus documents, which xtask
//! does not read) go under `target/xtask-checkouts/`, and both build and run xtask with ONE
//! `CARGO_TARGET_DIR`. Copy `b` is made stale before anything is built, so its sources are older
//! than the xtask binary built in `a`: cargo finds that binary fresh for `b` and reuses it, which
//! is the case that went wrong. `gen --check` must pass in `a` and report `b`'s stale file in `b`.
//!
//! About 2 minutes the first time (xtask and its dependencies built into the shared directory),
//! 20 s after that.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The checkout this test belongs to.
fn workspace_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest_dir
        .parent()
        .expect("xtask/ has a parent")
        .to_owned()
}

/// Copies the tracked files of `root` (as they are in the working tree) to `dest`, except the
/// vendored documents of the real-spec and real-server tests (17 MB xtask never reads).
fn copy_checkout(root: &Path, dest: &Path) {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("git ls-files runs (the test copies the tracked files)");
    assert!(listed.status.success(), "git ls-files: {listed:?}");
    for file in listed.stdout.split(|b| *b == 0).filter(|f| !f.is_empty()) {
        let file = std::str::from_utf8(file).expect("a UTF-8 path");
        if file.starts_with("sdk-tests/realspecs/") || file.starts_with("sdk-tests/realservers/") {
            continue;
        }
        let (from, to) = (root.join(file), dest.join(file));
        if !from.exists() {
            continue; // deleted in the working tree, not yet committed
        }
        std::fs::create_dir_all(to.parent().expect("a file has a folder")).expect("create folder");
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copy {file}: {e}"));
    }
}

/// `cargo xtask gen --check` in `checkout`, building into `target`.
fn gen_check(checkout: &Path, target: &Path) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["xtask", "gen", "--check"])
        .current_dir(checkout)
        .env("CARGO_TARGET_DIR", target)
        // What this test's own `cargo test` set for it must not leak into the runs.
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO_PKG_NAME")
        .output()
        .expect("cargo runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn gen_acts_on_the_checkout_it_runs_in_with_a_shared_target_directory() {
    let root = workspace_root();
    let base = root.join("target/xtask-checkouts");
    let (a, b) = (base.join("a"), base.join("b"));
    for copy in [&a, &b] {
        if copy.exists() {
            std::fs::remove_dir_all(copy).expect("remove an old copy");
        }
        copy_checkout(&root, copy);
    }
    let stale = "customer-cloud-sdk/src/generated/client.rs";
    let path = b.join(stale);
    let mut code = std::fs::read_to_string(&path).expect("the generated client");
    code.push_str("// an edit that makes checkout b stale\n");
    std::fs::write(&path, code).expect("edit checkout b");
    let target = base.join("target");

    let in_a = gen_check(&a, &target);
    let in_b = gen_check(&b, &target);
    let in_a_again = gen_check(&a, &target);

    assert!(
        in_a.status.success(),
        "checkout a is fresh:\n{}",
        text(&in_a)
    );
    assert!(
        !in_b.status.success() && text(&in_b).contains(stale),
        "checkout b reports its own stale file:\n{}",
        text(&in_b)
    );
    assert!(
        in_a_again.status.success(),
        "checkout a is still fresh after b's run:\n{}",
        text(&in_a_again)
    );
    for copy in [&a, &b] {
        std::fs::remove_dir_all(copy).expect("remove the copy");
    }
    // The shared target directory (about 270 MB) stays for the next local run, not on CI's disk.
    if std::env::var_os("CI").is_some_and(|v| v == "true") {
        std::fs::remove_dir_all(&target).expect("remove the shared target directory");
    }
}
