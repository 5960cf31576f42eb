//! The soak: many requests through one SDK client, live heap sampled along the way.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::Settings;
use super::load::{Kind, Side, call};
use crate::alloc::{self, human};
use crate::requests::Paths;
use crate::stats::median;

/// Live-heap samples taken over the soak.
const SAMPLES: u64 = 100;
/// Growth per request up to which memory is flat. A per-call leak of even one small
/// allocation is tens of bytes per request; the live heap of in-flight calls moves the window
/// medians by far less than this over hundreds of thousands of requests.
const FLAT_BYTES_PER_REQUEST: f64 = 0.5;
/// Total growth (share of the starting heap) that is flat whatever the rate: in a short soak,
/// buffers still settling after the warm-up tenth are a large rate over few requests.
const FLAT_SHARE: f64 = 0.01;

/// What the soak measured.
#[derive(Debug)]
pub struct Soak {
    /// Requests completed.
    pub requests: u64,
    /// Wall-clock seconds.
    pub secs: f64,
    /// `(requests issued so far, live heap bytes)`, in order.
    pub samples: Vec<(u64, usize)>,
    /// Whether the time limit stopped it early.
    pub cut_short: bool,
}

/// Sends `settings.soak_requests` requests (alternately a read and a keyed write) through the
/// signed SDK client from `settings.soak_tasks` tasks, or as many as fit in the time limit.
pub async fn soak(paths: &Arc<Paths>, settings: &Settings) -> Soak {
    let total = settings.soak_requests;
    let every = (total / SAMPLES).max(1);
    let issued = Arc::new(AtomicU64::new(0));
    let samples = Arc::new(Mutex::new(Vec::with_capacity(SAMPLES as usize + 2)));
    let start = Instant::now();
    let deadline = start + settings.soak_limit;
    let handles: Vec<_> = (0..settings.soak_tasks)
        .map(|_| {
            let (paths, issued, samples) = (paths.clone(), issued.clone(), samples.clone());
            tokio::spawn(async move {
                let mut done = 0u64;
                loop {
                    let n = issued.fetch_add(1, Ordering::Relaxed);
                    if n >= total || Instant::now() >= deadline {
                        return done;
                    }
                    if n % every == 0 {
                        samples.lock().expect("samples").push((n, alloc::current()));
                    }
                    let kind = if n % 2 == 0 {
                        Kind::Read
                    } else {
                        Kind::KeyedWrite
                    };
                    sdk_call(&paths, kind).await;
                    done += 1;
                }
            })
        })
        .collect();
    let mut requests = 0;
    for handle in handles {
        requests += handle.await.expect("soak task");
    }
    let secs = start.elapsed().as_secs_f64();
    let mut samples = std::mem::take(&mut *samples.lock().expect("samples"));
    samples.sort_unstable();
    Soak {
        requests,
        secs,
        samples,
        cut_short: requests < total,
    }
}

/// Both kinds go through the signed client: one client for the whole soak.
async fn sdk_call(paths: &Paths, kind: Kind) {
    match kind {
        Kind::Read => drop(paths.sdk_get(&paths.sdk_signed).await),
        Kind::KeyedWrite => call(paths, Side::Sdk, Kind::KeyedWrite).await,
    }
}

impl Soak {
    /// Median live heap of the samples between the fractions `from` and `to` of the run.
    fn window(&self, from: f64, to: f64) -> (u64, f64) {
        let n = self.samples.len();
        let a = ((n as f64 * from) as usize).min(n - 1);
        let b = ((n as f64 * to).ceil() as usize).clamp(a + 1, n);
        let slice = &self.samples[a..b];
        let mut bytes: Vec<f64> = slice.iter().map(|s| s.1 as f64).collect();
        let mut at: Vec<f64> = slice.iter().map(|s| s.0 as f64).collect();
        (median(&mut at) as u64, median(&mut bytes))
    }

    /// Prints the soak's paragraph and table.
    pub fn print(&self, settings: &Settings) {
        println!("### Soak\n");
        println!(
            "One SDK client (signed mode), {} tasks, reads and keyed writes alternating; {} \
             requests asked, at most {} s. Live heap sampled every {} requests; each row is the \
             median of the samples in its tenth of the run (the first tenth is warm-up).\n",
            settings.soak_tasks,
            settings.soak_requests,
            settings.soak_limit.as_secs(),
            (settings.soak_requests / SAMPLES).max(1)
        );
        if self.samples.len() < 3 {
            println!("Too few samples ({}): no verdict.\n", self.samples.len());
            return;
        }
        let start = self.window(0.1, 0.2);
        let middle = self.window(0.45, 0.55);
        let end = self.window(0.9, 1.0);
        println!("| point | requests sent | live heap |");
        println!("| --- | ---: | ---: |");
        for (label, (at, bytes)) in [("start", start), ("middle", middle), ("end", end)] {
            println!("| {label} | {at} | {} |", human(bytes as u64));
        }
        let max = self.samples.iter().map(|s| s.1).max().unwrap_or(0);
        let total = end.1 - start.1;
        let growth = total / (end.0.saturating_sub(start.0).max(1)) as f64;
        let flat = growth <= FLAT_BYTES_PER_REQUEST || total <= FLAT_SHARE * start.1;
        println!(
            "\n{} requests in {:.1} s ({:.0} requests/s){}; highest sample {}; growth from start \
             to end {total:+.0} bytes, {growth:+.3} bytes / request: **{}** (flat means at most \
             {FLAT_BYTES_PER_REQUEST} bytes / request or {}% of the starting heap).\n",
            self.requests,
            self.secs,
            self.requests as f64 / self.secs,
            if self.cut_short {
                ", **stopped by the time limit**"
            } else {
                ""
            },
            human(max as u64),
            if flat { "flat" } else { "not flat" },
            FLAT_SHARE * 100.0
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::{SAMPLES, soak};
    use crate::concurrency::Settings;
    use crate::requests::Paths;
    use crate::server::{ItemsConfig, start};

    /// The soak sends exactly what it was asked and samples the heap along the way.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sends_the_requests_asked_and_samples_them() {
        let paths = Arc::new(Paths::new(&start(ItemsConfig::default(), None).await));
        let settings = Settings {
            soak_requests: 400,
            soak_tasks: 8,
            soak_limit: Duration::from_secs(60),
            ..Settings::default()
        };
        let s = soak(&paths, &settings).await;
        assert_eq!(s.requests, 400);
        assert!(!s.cut_short);
        assert_eq!(s.samples.len() as u64, SAMPLES);
        assert!(s.samples.windows(2).all(|w| w[0].0 < w[1].0));
    }

    /// The time limit stops it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_time_limit_stops_it() {
        let paths = Arc::new(Paths::new(&start(ItemsConfig::default(), None).await));
        let settings = Settings {
            soak_requests: u64::MAX,
            soak_tasks: 4,
            soak_limit: Duration::from_millis(200),
            ..Settings::default()
        };
        let s = soak(&paths, &settings).await;
        assert!(s.cut_short);
        assert!(s.requests > 0);
    }
}
