//! The SDK generated from a running server's own document, and the driver program that calls
//! that server through it: written into a scratch directory, built with cargo, run, and its
//! checks collected.
//!
//! A driver crate has one binary per behaviour of issue #19 (`basics`, `nulls`, `bodies`,
//! `errors`, `auth`, `servers`), so a generator feature that is missing fails to compile only
//! its own binary, and the report says which. Each binary prints one line per check:
//! `CHECK <name> ok` or `CHECK <name> FAIL <why>` (`driver_lib.rs` has the helpers).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use oncegen::emit::{Layout, Options};
use oncegen::write::{Mode, ensure_files};
use serde_json::Value;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("workspace root")
}

/// What one binary of the driver did.
#[derive(Debug)]
pub enum BinOutcome {
    /// It did not compile (the first compiler errors).
    DidNotCompile(String),
    /// It ran: its checks, in order, and whether it exited successfully.
    Ran {
        checks: Vec<(String, Result<(), String>)>,
        exit: Result<(), String>,
    },
}

/// The results of a driver crate, by binary.
pub struct DriverReport {
    pub generate_time: Duration,
    pub build_time: Duration,
    pub run_time: Duration,
    pub operations: usize,
    pub bins: BTreeMap<String, BinOutcome>,
    /// Facts about the generated crate's files that the issue names (`name: problem`).
    pub crate_findings: Vec<String>,
}

impl DriverReport {
    /// Every failure, one per line (empty when all passed).
    pub fn failures(&self) -> Vec<String> {
        let mut out = self.crate_findings.clone();
        for (bin, outcome) in &self.bins {
            match outcome {
                BinOutcome::DidNotCompile(errors) => {
                    out.push(format!("{bin}: does not compile:\n{errors}"))
                }
                BinOutcome::Ran { checks, exit } => {
                    for (name, result) in checks {
                        if let Err(why) = result {
                            out.push(format!("{bin}/{name}: {why}"));
                        }
                    }
                    if let Err(why) = exit {
                        out.push(format!("{bin}: {why}"));
                    }
                }
            }
        }
        out
    }

    /// A summary: per binary, passed and failed checks.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for (bin, outcome) in &self.bins {
            match outcome {
                BinOutcome::DidNotCompile(_) => {
                    let _ = writeln!(s, "  {bin:8} does not compile");
                }
                BinOutcome::Ran { checks, .. } => {
                    let ok = checks.iter().filter(|(_, r)| r.is_ok()).count();
                    let _ = writeln!(
                        s,
                        "  {bin:8} {ok}/{} checks passed: {}",
                        checks.len(),
                        checks
                            .iter()
                            .map(|(n, r)| format!("{n}{}", if r.is_ok() { "" } else { " FAILED" }))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
            }
        }
        s
    }
}

/// Generates the SDK crate `<name>-sdk` from `document` into `scratch/<name>-sdk`, writes the
/// driver crate `scratch/<name>-driver` from `sdk-tests/realservers/<name>/*.rs`, builds every
/// binary (dependencies cached in `sdk_tests::generated_crates_target()`), and runs each with `env`.
pub fn generate_build_run(
    name: &str,
    document: &str,
    scratch: &Path,
    env: &[(&str, String)],
) -> DriverReport {
    let sdk = format!("{name}-sdk");
    let sdk_dir = scratch.join(&sdk);
    let started = Instant::now();
    let operations = generate_sdk(name, document, &sdk, &sdk_dir);
    let generate_time = started.elapsed();
    let crate_findings = inspect_generated(&sdk_dir);

    let driver_dir = scratch.join(format!("{name}-driver"));
    let bins = write_driver(name, &sdk, &driver_dir);
    let target = sdk_tests::generated_crates_target();

    let started = Instant::now();
    let compiled = build(&driver_dir, &target, &bins);
    let build_time = started.elapsed();

    let started = Instant::now();
    let mut outcomes = BTreeMap::new();
    for bin in &bins {
        let outcome = match compiled.get(bin) {
            Some(errors) => BinOutcome::DidNotCompile(errors.clone()),
            None => run(&target.join("debug").join(bin_name(name, bin)), env),
        };
        outcomes.insert(bin.clone(), outcome);
    }
    DriverReport {
        generate_time,
        build_time,
        run_time: started.elapsed(),
        operations,
        bins: outcomes,
        crate_findings,
    }
}

/// Writes the SDK crate `sdk` generated from `document` into `sdk_dir`; returns how many
/// operations it has (none skipped).
fn generate_sdk(name: &str, document: &str, sdk: &str, sdk_dir: &Path) -> usize {
    let options = Options {
        crate_name: sdk.to_owned(),
        spec_label: format!("the OpenAPI document served by {name}"),
        // The runtime by a path relative to the crate (the crate lies under `target/`): written
        // as it is, so the crate names no absolute path. The driver's `[patch.crates-io]` makes a
        // crate that names the runtime by version use this checkout's too.
        layout: Layout::Standalone {
            runtime_path: runtime_from(sdk_dir),
        },
        crate_version: None,
        manifest: Default::default(),
    };
    let (api, files) = oncegen::generate_str(document, name, &options)
        .unwrap_or_else(|e| panic!("{name}: the generator failed on the served document: {e}"));
    assert!(
        api.skipped.is_empty(),
        "{name}: operations skipped: {:?}",
        api.skipped
    );
    let _ = std::fs::remove_dir_all(sdk_dir);
    ensure_files(sdk_dir, &files, &sdk_dir.join("src/generated"), Mode::Write)
        .expect("generated crate written");
    api.operations.len()
}

/// The path of this checkout's `oncegen-runtime` relative to `dir`, a directory inside the checkout.
fn runtime_from(dir: &Path) -> PathBuf {
    let root = workspace();
    let depth = dir
        .strip_prefix(&root)
        .map_or(0, |p| p.components().count());
    let mut path: PathBuf = std::iter::repeat_n("..", depth).collect();
    path.push("oncegen-runtime");
    path
}

/// What issue #19 says a generated crate must not hold, found in its files.
fn inspect_generated(dir: &Path) -> Vec<String> {
    let mut findings = Vec::new();
    let root = workspace();
    let root = root.to_string_lossy();
    for file in walk(dir) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let shown = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .display()
            .to_string();
        if text.contains(root.as_ref()) {
            findings.push(format!(
                "standalone crate: {shown} holds the absolute path of this checkout ({root})"
            ));
        }
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with("Array2(") || line.starts_with("Array3(") {
                findings.push(format!(
                    "names: {shown} has a union variant numbered like `{line}`"
                ));
                break;
            }
            if line.starts_with("pub struct HashMap") || line.starts_with("pub type HashMap ") {
                findings.push(format!(
                    "names: {shown} declares a type named like std's `HashMap`: `{line}`"
                ));
                break;
            }
        }
    }
    findings
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The package name of a driver binary (unique across drivers, so that one target directory
/// holds both).
fn bin_name(server: &str, bin: &str) -> String {
    format!("{server}-{bin}")
}

/// Writes the driver crate; returns its binaries (the `*.rs` files of
/// `sdk-tests/realservers/<name>/` other than `driver_lib.rs`).
fn write_driver(name: &str, sdk: &str, dir: &Path) -> Vec<String> {
    let sources = workspace().join("sdk-tests/realservers").join(name);
    let bins = driver_bins(&sources);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("src/bin")).expect("driver directory");
    let lib = std::fs::read_to_string(workspace().join("sdk-tests/realservers/driver_lib.rs"))
        .expect("sdk-tests/realservers/driver_lib.rs");
    std::fs::write(dir.join("src/lib.rs"), lib).expect("driver lib.rs");
    let mut manifest = driver_manifest(name, sdk);
    for bin in &bins {
        std::fs::copy(
            sources.join(format!("{bin}.rs")),
            dir.join(format!("src/bin/{bin}.rs")),
        )
        .expect("driver source copied");
        let _ = write!(
            manifest,
            "\n[[bin]]\nname = \"{}\"\npath = \"src/bin/{bin}.rs\"\n",
            bin_name(name, bin)
        );
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("driver manifest");
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock copied");
    bins
}

/// The driver's binaries: the `*.rs` files of `sources`, sorted (at least one).
fn driver_bins(sources: &Path) -> Vec<String> {
    let mut bins: Vec<String> = std::fs::read_dir(sources)
        .unwrap_or_else(|e| panic!("{}: {e}", sources.display()))
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".rs")
                .map(str::to_owned)
        })
        .collect();
    bins.sort();
    assert!(
        !bins.is_empty(),
        "no driver sources in {}",
        sources.display()
    );
    bins
}

/// The driver crate's manifest, before its `[[bin]]` sections: the SDK `sdk` by path and the
/// runtime patched to this checkout's.
fn driver_manifest(name: &str, sdk: &str) -> String {
    format!(
        r#"[package]
name = "{name}-driver"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
sdk = {{ package = "{sdk}", path = "../{sdk}" }}
tokio = {{ version = "1", features = ["rt-multi-thread", "macros"] }}
serde_json = "1"

# The generated crate names `oncegen-runtime` by version or by path; either way it is this checkout's.
[patch.crates-io]
oncegen-runtime = {{ path = {runtime:?} }}

[profile.dev]
debug = false
incremental = false
"#,
        runtime = workspace().join("oncegen-runtime").display().to_string(),
    )
}

/// Builds every binary with `--keep-going`; returns the compiler errors of those that failed.
fn build(dir: &Path, target: &Path, bins: &[String]) -> BTreeMap<String, String> {
    let output = Command::new(env!("CARGO"))
        .args(["build", "--bins", "--keep-going", "--message-format=json"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    let mut errors: BTreeMap<String, String> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-message" || msg["message"]["level"] != "error" {
            continue;
        }
        let Some(target_name) = msg["target"]["name"].as_str() else {
            continue;
        };
        let entry = errors.entry(target_name.to_owned()).or_default();
        if entry.lines().count() < 60 {
            entry.push_str(msg["message"]["rendered"].as_str().unwrap_or("?"));
        }
    }
    let mut by_bin = BTreeMap::new();
    for (target_name, text) in errors {
        let bin = bins
            .iter()
            .find(|b| target_name.ends_with(&format!("-{b}")) || target_name == **b)
            .cloned();
        match bin {
            Some(bin) => {
                by_bin.insert(bin, text);
            }
            // The generated crate or the driver's library failed: every binary fails with it.
            None => {
                for bin in bins {
                    by_bin.insert(bin.clone(), format!("({target_name}) {text}"));
                }
            }
        }
    }
    if !output.status.success() && by_bin.is_empty() {
        panic!(
            "cargo build of {} failed without a compiler error:\n{}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    by_bin
}

/// Runs one binary (at most 5 minutes) and reads its `CHECK` lines.
fn run(binary: &Path, env: &[(&str, String)]) -> BinOutcome {
    let mut command = Command::new(binary);
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let checks = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("CHECK "))
        .map(|l| {
            let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
            let result = match rest.strip_prefix("FAIL ") {
                Some(why) => Err(why.replace("\\n", "\n")),
                None if rest == "ok" => Ok(()),
                None => Err(format!("unreadable check line: {l}")),
            };
            (name.to_owned(), result)
        })
        .collect();
    let exit = if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "exited with {}; stderr:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    };
    BinOutcome::Ran { checks, exit }
}
