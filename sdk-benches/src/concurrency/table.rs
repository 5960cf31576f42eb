//! One row per concurrency level: interleaved rounds of SDK and raw runs, and their table.

use std::sync::Arc;

use super::Settings;
use super::load::{Kind, Run, Side, run};
use crate::requests::Paths;
use crate::stats::median;

/// Throughput target: SDK/raw at least this.
const THROUGHPUT_TARGET: f64 = 0.95;
/// Tail latency target: SDK/raw p99 at most this.
const P99_TARGET: f64 = 1.10;

/// The medians of one level's rounds.
#[derive(Debug)]
pub struct Row {
    tasks: usize,
    /// Calls per second: raw, SDK.
    throughput: [f64; 2],
    /// p50 and p99 µs: raw, SDK.
    p50: [f64; 2],
    p99: [f64; 2],
    /// Peak bytes per in-flight call: raw, SDK.
    per_call_bytes: [f64; 2],
    /// SDK/raw: throughput, p99.
    ratios: [f64; 2],
    /// SDK without timeouts / raw: throughput, p99.
    no_timeouts: [f64; 2],
}

/// The sides in the order of [`Row`]'s arrays, the SDK without timeouts last.
const SIDES: [Side; 3] = [Side::Raw, Side::Sdk, Side::SdkNoTimeouts];

/// Warms the pool for `tasks` connections, then runs `settings.rounds` interleaved rounds.
pub async fn level(paths: &Arc<Paths>, kind: Kind, tasks: usize, settings: &Settings) -> Row {
    let calls = settings.calls.max(tasks);
    for side in SIDES {
        run(paths, side, kind, tasks, (tasks * 4).max(512)).await;
    }
    let mut runs: [Vec<Run>; 3] = [vec![], vec![], vec![]];
    for round in 0..settings.rounds {
        for i in 0..SIDES.len() {
            // Who goes first rotates, and the direction alternates by round.
            let i = if round % 2 == 0 {
                i
            } else {
                SIDES.len() - 1 - i
            };
            let side = (i + round) % SIDES.len();
            runs[side].push(run(paths, SIDES[side], kind, tasks, calls).await);
        }
    }
    let each = |f: &dyn Fn(&Run) -> f64| -> [f64; 2] {
        [0, 1].map(|i| median(&mut runs[i].iter().map(f).collect::<Vec<_>>()))
    };
    let ratio = |sdk: usize, f: &dyn Fn(&Run) -> f64| -> f64 {
        median(
            &mut runs[sdk]
                .iter()
                .zip(&runs[0])
                .map(|(sdk, raw)| f(sdk) / f(raw))
                .collect::<Vec<_>>(),
        )
    };
    let p99 = |r: &Run| r.latency_us(0.99);
    Row {
        tasks,
        throughput: each(&Run::throughput),
        p50: each(&|r| r.latency_us(0.50)),
        p99: each(&p99),
        per_call_bytes: each(&|r| r.peak_over_base as f64 / tasks as f64),
        ratios: [ratio(1, &Run::throughput), ratio(1, &p99)],
        no_timeouts: [ratio(2, &Run::throughput), ratio(2, &p99)],
    }
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "**not met**" }
}

/// Prints the rows of one request kind.
pub fn print(kind: Kind, rows: &[Row]) {
    println!("### {}\n", kind.label());
    println!(
        "| tasks | raw calls/s | SDK calls/s | **throughput SDK/raw** (≥ {THROUGHPUT_TARGET}) | raw p50 / p99 µs | SDK p50 / p99 µs | **p99 SDK/raw** (≤ {P99_TARGET}) | raw KiB / in-flight call | SDK KiB / in-flight call | targets | SDK without timeouts / raw: throughput, p99 |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
    for r in rows {
        let met = r.ratios[0] >= THROUGHPUT_TARGET && r.ratios[1] <= P99_TARGET;
        println!(
            "| {} | {:.0} | {:.0} | **{:.3}** | {:.1} / {:.1} | {:.1} / {:.1} | **{:.3}** | {:.1} | {:.1} | {} | {:.3}, {:.3} |",
            r.tasks,
            r.throughput[0],
            r.throughput[1],
            r.ratios[0],
            r.p50[0],
            r.p99[0],
            r.p50[1],
            r.p99[1],
            r.ratios[1],
            r.per_call_bytes[0] / 1024.0,
            r.per_call_bytes[1] / 1024.0,
            verdict(met),
            r.no_timeouts[0],
            r.no_timeouts[1],
        );
    }
    println!();
}
