//! `bench-report compare` (issue #13): our generator against progenitor 0.15.1 on
//! `sdk-tests/realspecs/nexus.json`, one area against all on `spec/openapi.yaml`, and growth on
//! synthetic documents. Every crate is generated at run time by the current generators into
//! `target/bench-compare/crates/`; nothing generated is read from the repository.
//!
//! Settings from the environment: `BENCH_COMPARE_ROUNDS` (interleaved rounds, default 5),
//! `BENCH_AREA` (the area built alone, default `dns`), `BENCH_SCALE_OPS` (comma-separated
//! operation counts of the synthetic documents, default `100,1000,5000`), `BENCH_COMPARE_PARTS`
//! (comma-separated among `side-by-side`, `areas`, `scale`, `split`; default all).

mod areas;
mod scale;
mod side_by_side;
mod split_scale;

use std::path::{Path, PathBuf};

use crate::generators::Generator;
use crate::{repo_root, timed};

/// What the environment asks for.
pub struct Settings {
    /// Interleaved rounds of the side-by-side and area comparisons.
    pub rounds: usize,
    /// The area (cargo feature) of `spec/openapi.yaml` built alone.
    pub area: String,
    /// Operation counts of the synthetic documents.
    pub scale_ops: Vec<usize>,
    /// The parts to run (`side-by-side`, `areas`, `scale`, `split`).
    pub parts: Vec<String>,
}

impl Settings {
    /// Reads `BENCH_COMPARE_ROUNDS`, `BENCH_AREA` and `BENCH_SCALE_OPS`.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Settings {
            rounds: var("BENCH_COMPARE_ROUNDS")
                .map(|v| v.trim().parse().expect("BENCH_COMPARE_ROUNDS: a number"))
                .unwrap_or(5)
                .max(1),
            area: var("BENCH_AREA").unwrap_or_else(|| "dns".to_owned()),
            scale_ops: var("BENCH_SCALE_OPS")
                .map(|v| {
                    v.split(',')
                        .map(|n| n.trim().replace('_', "").parse().expect("BENCH_SCALE_OPS"))
                        .collect()
                })
                .unwrap_or_else(|| vec![100, 1_000, 5_000]),
            parts: var("BENCH_COMPARE_PARTS")
                .map(|v| v.split(',').map(|p| p.trim().to_owned()).collect())
                .unwrap_or_else(|| PARTS.map(str::to_owned).to_vec()),
        }
    }

    fn asked(&self, part: &str) -> bool {
        self.parts.iter().any(|p| p == part)
    }
}

/// The parts of the section, in the order they run.
const PARTS: [&str; 4] = ["side-by-side", "areas", "scale", "split"];

/// The directories of one run, all under `target/bench-compare/`.
struct Workdir {
    base: PathBuf,
}

impl Workdir {
    fn new() -> Self {
        Workdir {
            base: repo_root().join("target").join("bench-compare"),
        }
    }

    /// The generated crate `name`, kept between runs for its `Cargo.lock`.
    fn crate_dir(&self, name: &str) -> PathBuf {
        self.base.join("crates").join(name)
    }

    /// Where a timed generation writes (emptied before each run).
    fn scratch(&self, generator: Generator) -> PathBuf {
        self.base.join("scratch").join(generator.label())
    }

    /// The target directory of `generator`'s crates: their dependencies are built once and
    /// shared by all of them.
    fn target_dir(&self, generator: Generator) -> PathBuf {
        self.base.join(format!("target-{}", generator.label()))
    }

    /// The target directory of the progenitor tool crate.
    fn tool_target_dir(&self) -> PathBuf {
        self.base.join("tool")
    }
}

/// The release binaries of the generators (progenitor's only when a part compares with it).
struct Binaries {
    ours: PathBuf,
    progenitor: Option<PathBuf>,
}

impl Binaries {
    fn build(work: &Workdir, with_progenitor: bool) -> Self {
        Binaries {
            ours: Generator::Ours.build(&work.tool_target_dir()),
            progenitor: with_progenitor
                .then(|| Generator::Progenitor.build(&work.tool_target_dir())),
        }
    }

    fn of(&self, generator: Generator) -> &Path {
        match generator {
            Generator::Ours => &self.ours,
            Generator::Progenitor => self
                .progenitor
                .as_deref()
                .expect("progenitor is built for the side-by-side part"),
        }
    }

    /// Generates the crate `name` for `spec` (relative to the repository root) into a fresh
    /// `dir`, keeping the `Cargo.lock` of an earlier run, so that dependency versions stay put.
    fn write_crate(&self, generator: Generator, spec: &Path, dir: &Path, name: &str) {
        let lock = std::fs::read(dir.join("Cargo.lock")).ok();
        remove_dir(dir);
        self.time(generator, spec, dir, name);
        if let Some(lock) = lock {
            std::fs::write(dir.join("Cargo.lock"), lock).expect("restore Cargo.lock");
        }
    }

    /// One whole-process run of `generator` writing into `out`.
    fn time(&self, generator: Generator, spec: &Path, out: &Path, name: &str) -> timed::Usage {
        timed::run(
            &repo_root(),
            self.of(generator),
            generator.args(spec, out, name),
        )
    }
}

/// Removes `dir` and everything in it, if it exists.
fn remove_dir(dir: &Path) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).expect("remove a generated crate");
    }
}

/// The 1-, 5- and 15-minute load averages.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// `n` with thousands separators.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `met` or `**not met**` for a figure against an upper bound.
fn verdict(value: f64, target: f64) -> &'static str {
    if value <= target {
        "met"
    } else {
        "**not met**"
    }
}

/// Prints the whole `compare` section.
pub fn section(settings: &Settings) {
    let work = Workdir::new();
    println!("## Comparison with progenitor, areas and scale (issue #13)\n");
    for part in &settings.parts {
        assert!(
            PARTS.contains(&part.as_str()),
            "BENCH_COMPARE_PARTS: `{part}` is none of {PARTS:?}"
        );
    }
    let binaries = Binaries::build(&work, settings.asked("side-by-side"));
    if settings.asked("side-by-side") {
        side_by_side::run(settings, &work, &binaries);
    }
    if settings.asked("areas") {
        areas::run(settings, &work, &binaries);
    }
    if settings.asked("scale") {
        scale::run(settings, &work, &binaries);
    }
    if settings.asked("split") {
        split_scale::run(settings, &work, &binaries);
    }
}
