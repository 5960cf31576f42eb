//! Ours against progenitor on `sdk-tests/realspecs/nexus.json`, from one interleaved run: both
//! generators take turns in every round (who goes first alternates), and each headline ratio
//! is the median of the per-round ours/progenitor ratios.

use std::path::Path;

use super::{Binaries, Settings, Workdir, load, remove_dir, thousands, verdict};
use crate::alloc::human;
use crate::code_size::{operations, rust_lines};
use crate::crate_build::CrateBuild;
use crate::generators::Generator;
use crate::repo_root;
use crate::stats::median;

/// The document compared (progenitor's own test document, vendored).
const SPEC: &str = "sdk-tests/realspecs/nexus.json";
/// Timed generations per generator in each round (generation is short and noisy).
const GENERATIONS_PER_ROUND: usize = 3;
/// Targets (ours / progenitor, and lines per operation of ours): generation and memory from
/// issue #13, compile time and lines from issue #23.
const TARGET_GENERATION: f64 = 0.5;
const TARGET_MEMORY: f64 = 0.3;
const TARGET_CHECK: f64 = 0.25;
const TARGET_BUILD: f64 = 0.20;
const TARGET_LINES_PER_OP: f64 = 80.0;

/// One figure measured for both generators, in pairs.
#[derive(Default)]
struct Paired {
    ours: Vec<f64>,
    progenitor: Vec<f64>,
}

impl Paired {
    fn push(&mut self, generator: Generator, value: f64) {
        match generator {
            Generator::Ours => self.ours.push(value),
            Generator::Progenitor => self.progenitor.push(value),
        }
    }

    /// Medians of ours, of progenitor, and of the pairwise ratios ours/progenitor.
    fn summary(&self) -> (f64, f64, f64) {
        let mut ratios: Vec<f64> = (self.ours.iter().zip(&self.progenitor))
            .map(|(o, p)| o / p)
            .collect();
        (
            median(&mut self.ours.clone()),
            median(&mut self.progenitor.clone()),
            median(&mut ratios),
        )
    }
}

fn crate_name(generator: Generator) -> String {
    format!("nexus-{}", generator.label())
}

pub(super) fn run(settings: &Settings, work: &Workdir, binaries: &Binaries) {
    let spec = Path::new(SPEC);
    let ops = operations(&repo_root().join(spec));
    let both = [Generator::Ours, Generator::Progenitor];
    let builds = both.map(|g| {
        let dir = work.crate_dir(&crate_name(g));
        binaries.write_crate(g, spec, &dir, &crate_name(g));
        let build = CrateBuild::new(&crate_name(g), &dir, &work.target_dir(g));
        build.prebuild(&["check"]);
        build.prebuild(&["build"]);
        build
    });
    let lines = both.map(|g| rust_lines(&work.crate_dir(&crate_name(g)).join("src")).0);
    println!(
        "### Ours vs progenitor 0.15.1 (builder style) on `{SPEC}` ({ops} operations)\n\n\
         {} interleaved rounds (load before: {}). Each round: {GENERATIONS_PER_ROUND} generations \
         per generator, then a clean `cargo check` and a clean debug `cargo build` of each \
         generated crate, taking turns (who goes first alternates by round).\n",
        settings.rounds,
        load()
    );
    let mut generation = Paired::default();
    let mut memory = Paired::default();
    let mut check = Paired::default();
    let mut build = Paired::default();
    for round in 0..settings.rounds {
        let order = if round % 2 == 0 {
            both
        } else {
            [both[1], both[0]]
        };
        for _ in 0..GENERATIONS_PER_ROUND {
            for g in order {
                let out = work.scratch(g);
                remove_dir(&out);
                let usage = binaries.time(g, spec, &out, &crate_name(g));
                generation.push(g, usage.secs);
                memory.push(g, usage.peak_rss as f64);
            }
        }
        for g in order {
            check.push(g, builds[g as usize].clean_secs(&["check"]));
        }
        for g in order {
            build.push(g, builds[g as usize].clean_secs(&["build"]));
        }
    }
    print_table(ops, lines, &generation, &memory, &check, &build);
    println!(
        "\nLoad after: {}. Generation: release binaries, whole process (spawn to exit, under \
         `/usr/bin/time`), writing the crate into an emptied directory; peak memory is the \
         child's peak RSS (`ru_maxrss`). Lines: `.rs` files of the generated crate, both \
         formatted by prettyplease. Clean check/build: dependencies prebuilt once per \
         generator in `target/bench-compare/target-{{ours,progenitor}}`, `cargo clean -p CRATE` \
         before each timed command, and the timed command's JSON messages must show that only \
         the generated crate was compiled.\n",
        load()
    );
}

fn print_table(
    ops: usize,
    lines: [usize; 2],
    generation: &Paired,
    memory: &Paired,
    check: &Paired,
    build: &Paired,
) {
    println!("| measure | ours | progenitor | ours / progenitor | target | |");
    println!("| --- | ---: | ---: | ---: | --- | --- |");
    let (o, p, r) = generation.summary();
    println!(
        "| generation (release binary, whole process) | {:.3} s | {:.3} s | **{r:.2}** | ≤ {TARGET_GENERATION} | {} |",
        o,
        p,
        verdict(r, TARGET_GENERATION)
    );
    let (o, p, r) = memory.summary();
    println!(
        "| generator peak memory (RSS) | {} | {} | **{r:.2}** | ≤ {TARGET_MEMORY} | {} |",
        human(o as u64),
        human(p as u64),
        verdict(r, TARGET_MEMORY)
    );
    let per_op = lines.map(|l| l as f64 / ops.max(1) as f64);
    println!(
        "| generated lines (per operation) | {} ({:.0}) | {} ({:.0}) | {:.2} | ≤ {TARGET_LINES_PER_OP} lines / op | {} |",
        thousands(lines[0]),
        per_op[0],
        thousands(lines[1]),
        per_op[1],
        lines[0] as f64 / lines[1] as f64,
        verdict(per_op[0], TARGET_LINES_PER_OP)
    );
    let (o, p, r) = check.summary();
    println!(
        "| clean `cargo check` of the generated crate | {o:.2} s | {p:.2} s | **{r:.2}** | ≤ {TARGET_CHECK:.2} | {} |",
        verdict(r, TARGET_CHECK)
    );
    let (o, p, r) = build.summary();
    println!(
        "| clean debug build of the generated crate | {o:.2} s | {p:.2} s | **{r:.2}** | ≤ {TARGET_BUILD:.2} | {} |",
        verdict(r, TARGET_BUILD)
    );
}
