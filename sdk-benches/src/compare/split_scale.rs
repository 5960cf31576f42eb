//! Issue #23 part 4: one crate against a crate per area (`cargo xtask gen --split-areas`), side
//! by side in one run, on the contract and on the synthetic documents: clean `cargo check` wall
//! and CPU time per operation, and the peak resident memory of the largest compiler process.

use super::{Binaries, Settings, Workdir, load, remove_dir, thousands, verdict};
use crate::crate_build::{cargo_bin, compiled_units, run_cargo};
use crate::generators::Generator;
use crate::{repo_root, synth};
use std::path::Path;
use std::process::Command;

const GNU_TIME: &str = "/usr/bin/time";

/// The bound on check time per operation at 5,000 operations against 1,000.
const LINEAR_BOUND: f64 = 1.1;
/// The bound on rustc's peak memory (4 GB, read as GiB), bytes.
const MEMORY_BOUND: u64 = 4 << 30;

/// One clean `cargo check` of a set of crates.
#[derive(Debug, Clone, Copy)]
struct Check {
    /// Wall seconds.
    wall: f64,
    /// User and system CPU seconds of cargo and every compiler it ran.
    cpu: f64,
    /// Peak resident set of the largest process among cargo and its compilers, bytes (GNU
    /// time's `%M`: the child's `ru_maxrss`, which includes the children it waited for).
    peak_rss: u64,
}

pub(super) fn run(settings: &Settings, work: &Workdir, binaries: &Binaries) {
    println!(
        "### One crate or a crate per area (issue #23 part 4)\n\n\
         The same documents generated as one crate (`--single-crate`) and split (`--split-areas`: \
         a core crate, one crate per area, a facade), each checked clean once (its dependencies \
         prebuilt; every generated crate of it recompiled) under GNU time. CPU is user + system \
         time of cargo and every rustc; peak is the largest process's resident memory (rustc's). \
         One area: `cargo check --no-default-features --features <first area>` of the split \
         set, clean.\n"
    );
    println!(
        "| document | operations | areas | one crate: check | ms / op | CPU | peak | split: check | ms / op | CPU | peak | split: one area |"
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    let contract = Path::new("spec/openapi.yaml");
    row(work, binaries, contract, "split-contract");
    // Operations, then wall and CPU seconds per operation of one crate and of the split set.
    let mut per_op: Vec<(usize, [f64; 4], u64)> = Vec::new();
    for &n in &settings.scale_ops {
        let absolute = synth::write_document(n, &repo_root().join("target/bench-specs"));
        let spec = absolute.strip_prefix(repo_root()).unwrap_or(&absolute);
        let (ops, single, split) = row(work, binaries, spec, &format!("split-synthetic-{n}"));
        let per = |secs: f64| secs / ops as f64;
        per_op.push((
            ops,
            [
                per(single.wall),
                per(single.cpu),
                per(split.wall),
                per(split.cpu),
            ],
            split.peak_rss,
        ));
    }
    if let [(ops0, first, _), .., (ops1, last, peak1)] = per_op[..] {
        let rel: Vec<f64> = last.iter().zip(first).map(|(l, f)| l / f).collect();
        println!(
            "\nCheck time per operation at {} operations against {}, wall / CPU: one crate \
             **{:.2} / {:.2}**, split **{:.2} / {:.2}** (target ≤ {LINEAR_BOUND}: wall {}, CPU \
             {}); the split set's largest rustc at {} operations: **{}** (target < 4 GiB: {}).",
            thousands(ops1),
            thousands(ops0),
            rel[0],
            rel[1],
            rel[2],
            rel[3],
            verdict(rel[2], LINEAR_BOUND),
            verdict(rel[3], LINEAR_BOUND),
            thousands(ops1),
            gib(peak1),
            verdict(peak1 as f64, MEMORY_BOUND as f64)
        );
    }
    println!("\nLoad after: {}.\n", load());
}

/// Generates `spec` both ways, checks both, prints the row; the operation count and checks.
fn row(work: &Workdir, binaries: &Binaries, spec: &Path, name: &str) -> (usize, Check, Check) {
    let ops = generated_operations(&repo_root().join(spec));
    let target = work.target_dir(Generator::Ours);
    let single_dir = work.crate_dir(&format!("{name}-one"));
    generate(binaries, spec, &single_dir, name, "--single-crate");
    let single = clean_check(&single_dir, &target, &[]);
    let split_dir = work.crate_dir(&format!("{name}-split"));
    generate(binaries, spec, &split_dir, name, "--split-areas");
    let split = clean_check(&split_dir, &target, &[]);
    let first_area = first_area(&split_dir);
    let one_area = clean_check(
        &split_dir,
        &target,
        &["--no-default-features", "--features", &first_area],
    );
    let areas = std::fs::read_dir(split_dir.join("areas"))
        .map(|d| d.count())
        .unwrap_or(0);
    println!(
        "| `{}` | {} | {areas} | {:.1} s | {:.1} | {:.1} s | {} | {:.1} s | {:.1} | {:.1} s | {} | {:.1} s |",
        spec.display(),
        thousands(ops),
        single.wall,
        single.wall * 1e3 / ops as f64,
        single.cpu,
        gib(single.peak_rss),
        split.wall,
        split.wall * 1e3 / ops as f64,
        split.cpu,
        gib(split.peak_rss),
        one_area.wall,
    );
    (ops, single, split)
}

/// The operations the generator makes of `spec` (the contract is YAML, the synthetic documents
/// JSON).
fn generated_operations(spec: &Path) -> usize {
    let doc = oncegen::read::load(spec).expect("document reads");
    oncegen::lower::lower(&doc)
        .expect("document lowers")
        .operations
        .len()
}

/// Runs our generator with `shape` (`--single-crate` or `--split-areas`) into a fresh `dir`,
/// keeping an earlier run's `Cargo.lock`.
fn generate(binaries: &Binaries, spec: &Path, dir: &Path, name: &str, shape: &str) {
    let lock = std::fs::read(dir.join("Cargo.lock")).ok();
    remove_dir(dir);
    let mut args = Generator::Ours.args(spec, dir, name);
    args.retain(|a| a.to_str() != Some("--single-crate"));
    args.push(shape.into());
    crate::timed::run(&repo_root(), &binaries.ours, args);
    if let Some(lock) = lock {
        std::fs::write(dir.join("Cargo.lock"), lock).expect("restore Cargo.lock");
    }
}

/// The feature of the split set's first area (directories under `areas/` are named by it).
fn first_area(split_dir: &Path) -> String {
    let mut areas: Vec<String> = std::fs::read_dir(split_dir.join("areas"))
        .expect("a split set has areas")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    areas.sort();
    areas.into_iter().next().expect("an area")
}

/// The package names of the generated crates in `dir` (the crate, or the facade, its core and
/// its areas), read from their manifests.
fn packages(dir: &Path) -> Vec<String> {
    let mut manifests = vec![dir.join("Cargo.toml"), dir.join("core/Cargo.toml")];
    if let Ok(areas) = std::fs::read_dir(dir.join("areas")) {
        manifests.extend(
            areas
                .filter_map(|e| e.ok())
                .map(|e| e.path().join("Cargo.toml")),
        );
    }
    manifests
        .iter()
        .filter_map(|m| std::fs::read_to_string(m).ok())
        .filter_map(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .map(str::to_owned)
        })
        .collect()
}

/// `cargo clean -p` every generated crate of `dir`, then `cargo check FEATURES` under GNU time;
/// measured again once if the check compiled anything but generated crates (dependencies
/// missing from the shared target directory).
fn clean_check(dir: &Path, target: &Path, features: &[&str]) -> Check {
    let packages = packages(dir);
    let own: Vec<String> = packages.iter().map(|p| p.replace('-', "_")).collect();
    for _ in 0..2 {
        let mut clean = vec!["clean".to_owned()];
        for p in &packages {
            clean.push("-p".to_owned());
            clean.push(p.clone());
        }
        run_cargo(dir, target, &clean);
        let report = std::env::temp_dir().join(format!("bench-split-{}.txt", std::process::id()));
        let out = Command::new(GNU_TIME)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target)
            .args(["-f", "%e %U %S %M", "-o"])
            .arg(&report)
            .arg(cargo_bin())
            .args(["check", "--quiet", "--message-format=json"])
            .args(features)
            .output()
            .expect("spawn /usr/bin/time");
        assert!(
            out.status.success(),
            "cargo check in {} failed:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let compiled = compiled_units(&out);
        assert!(
            !compiled.is_empty(),
            "cargo check compiled nothing in {}",
            dir.display()
        );
        if compiled.iter().all(|unit| own.contains(unit)) {
            return parse_report(&report);
        }
        eprintln!(
            "note: cargo check in {} also compiled {compiled:?}; measuring again",
            dir.display()
        );
    }
    panic!(
        "cargo check in {} keeps compiling dependencies",
        dir.display()
    );
}

fn parse_report(report: &Path) -> Check {
    let text = std::fs::read_to_string(report).expect("GNU time report");
    let fields: Vec<f64> = text
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    let [wall, user, sys, kib] = fields[..] else {
        panic!("GNU time report `{text}` is not `%e %U %S %M`");
    };
    Check {
        wall,
        cpu: user + sys,
        peak_rss: kib as u64 * 1024,
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}
