//! One row per concurrency level: interleaved rounds of the SDK and its raw twins, and their
//! tables (against raw hyper with the targets of issue #29, against raw reqwest beside it).

use std::sync::Arc;

use super::Settings;
use super::cpu::Threads;
use super::load::{Kind, Run, Side, run};
use crate::requests::Paths;
use crate::stats::median;

/// Throughput target: SDK/raw hyper at least this.
const THROUGHPUT_TARGET: f64 = 0.95;
/// Client CPU target: SDK/raw hyper CPU per request at most this.
const CPU_TARGET: f64 = 1.05;
/// Tail latency target: SDK/raw hyper p99 at most this.
const P99_TARGET: f64 = 1.10;

/// The sides, in the order of [`Row::runs`].
const SIDES: [Side; 4] = [
    Side::RawHyper,
    Side::RawReqwest,
    Side::Sdk,
    Side::SdkNoTimeouts,
];
const HYPER: usize = 0;
const REQWEST: usize = 1;
const SDK: usize = 2;
const SDK_NO_TIMEOUTS: usize = 3;

/// Every run of one level, by side.
#[derive(Debug)]
pub struct Row {
    tasks: usize,
    runs: [Vec<Run>; 4],
}

/// Warms the pool for `tasks` connections, then runs `settings.rounds` interleaved rounds.
pub async fn level(
    paths: &Arc<Paths>,
    client: &Threads,
    kind: Kind,
    tasks: usize,
    settings: &Settings,
) -> Row {
    let calls = settings.calls.max(tasks);
    for side in SIDES {
        run(paths, client, side, kind, tasks, (tasks * 4).max(512)).await;
    }
    let mut runs: [Vec<Run>; 4] = Default::default();
    for round in 0..settings.rounds {
        for i in 0..SIDES.len() {
            // Who goes first rotates, and the direction alternates by round.
            let i = if round % 2 == 0 {
                i
            } else {
                SIDES.len() - 1 - i
            };
            let side = (i + round) % SIDES.len();
            runs[side].push(run(paths, client, SIDES[side], kind, tasks, calls).await);
        }
    }
    Row { tasks, runs }
}

fn throughput(r: &Run) -> f64 {
    r.throughput()
}

fn cpu(r: &Run) -> f64 {
    r.cpu_us_per_call()
}

fn p50(r: &Run) -> f64 {
    r.latency_us(0.50)
}

fn p99(r: &Run) -> f64 {
    r.latency_us(0.99)
}

impl Row {
    /// The median over rounds of `f` for `side`.
    fn median(&self, side: usize, f: fn(&Run) -> f64) -> f64 {
        median(&mut self.runs[side].iter().map(f).collect::<Vec<_>>())
    }

    /// The median over rounds of the per-round ratio `f(side) / f(base)`.
    fn ratio(&self, side: usize, base: usize, f: fn(&Run) -> f64) -> f64 {
        let runs = self.runs[side].iter().zip(&self.runs[base]);
        median(&mut runs.map(|(a, b)| f(a) / f(b)).collect::<Vec<_>>())
    }

    /// Peak KiB per in-flight call of `side`.
    fn kib_per_call(&self, side: usize) -> f64 {
        let tasks = self.tasks as f64;
        let runs = self.runs[side].iter();
        median(
            &mut runs
                .map(|r| r.peak_over_base as f64 / tasks / 1024.0)
                .collect::<Vec<_>>(),
        )
    }
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "**not met**" }
}

/// Prints the rows of one request kind: against raw hyper (the targets), then raw reqwest.
pub fn print(kind: Kind, rows: &[Row]) {
    println!("### {}\n", kind.label());
    println!(
        "| tasks | raw hyper calls/s | SDK calls/s | **throughput SDK/hyper** (≥ {THROUGHPUT_TARGET}) | raw hyper client CPU µs/call | SDK client CPU µs/call | **CPU SDK/hyper** (≤ {CPU_TARGET}) | raw hyper p50 / p99 µs | SDK p50 / p99 µs | **p99 SDK/hyper** (≤ {P99_TARGET}) | targets |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for r in rows {
        let ratios = [
            r.ratio(SDK, HYPER, throughput),
            r.ratio(SDK, HYPER, cpu),
            r.ratio(SDK, HYPER, p99),
        ];
        let met =
            ratios[0] >= THROUGHPUT_TARGET && ratios[1] <= CPU_TARGET && ratios[2] <= P99_TARGET;
        println!(
            "| {} | {:.0} | {:.0} | **{:.3}** | {:.2} | {:.2} | **{:.3}** | {:.1} / {:.1} | {:.1} / {:.1} | **{:.3}** | {} |",
            r.tasks,
            r.median(HYPER, throughput),
            r.median(SDK, throughput),
            ratios[0],
            r.median(HYPER, cpu),
            r.median(SDK, cpu),
            ratios[1],
            r.median(HYPER, p50),
            r.median(HYPER, p99),
            r.median(SDK, p50),
            r.median(SDK, p99),
            ratios[2],
            verdict(met),
        );
    }
    println!(
        "\nThe same rounds against raw reqwest, memory, and the SDK without attempt and call timeouts:\n"
    );
    println!(
        "| tasks | raw reqwest calls/s | throughput SDK/reqwest | CPU SDK/reqwest | p99 SDK/reqwest | KiB / in-flight call: hyper, reqwest, SDK | SDK without timeouts / hyper: throughput, CPU, p99 |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | {:.0} | {:.3} | {:.3} | {:.3} | {:.1}, {:.1}, {:.1} | {:.3}, {:.3}, {:.3} |",
            r.tasks,
            r.median(REQWEST, throughput),
            r.ratio(SDK, REQWEST, throughput),
            r.ratio(SDK, REQWEST, cpu),
            r.ratio(SDK, REQWEST, p99),
            r.kib_per_call(HYPER),
            r.kib_per_call(REQWEST),
            r.kib_per_call(SDK),
            r.ratio(SDK_NO_TIMEOUTS, HYPER, throughput),
            r.ratio(SDK_NO_TIMEOUTS, HYPER, cpu),
            r.ratio(SDK_NO_TIMEOUTS, HYPER, p99),
        );
    }
    println!();
}
