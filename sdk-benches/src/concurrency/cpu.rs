//! The client's CPU time, apart from the server's: the clients run on a tokio runtime of their
//! own whose threads are recorded as they start, and their CPU time is read from Linux's
//! `/proc/self/task/TID/schedstat` (nanoseconds on a CPU), summed over those threads. The same
//! files give another process's CPU time (`bench-report mcp`'s child processes).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The threads of one runtime (and the thread that drives it), and their CPU time.
#[derive(Clone, Debug, Default)]
pub struct Threads {
    /// Thread id → the CPU nanoseconds last read (kept once a thread has exited).
    seen: Arc<Mutex<HashMap<u32, u64>>>,
}

/// This thread's id, from `/proc/thread-self` (`PID/task/TID`); `None` off Linux.
fn current_tid() -> Option<u32> {
    std::fs::read_link("/proc/thread-self")
        .ok()?
        .file_name()?
        .to_str()?
        .parse()
        .ok()
}

/// CPU nanoseconds of thread `tid` of this process, `None` once it has exited.
fn thread_cpu_ns(tid: u32) -> Option<u64> {
    schedstat_ns(Path::new(&format!("/proc/self/task/{tid}/schedstat")))
}

/// CPU nanoseconds process `pid` has run so far, summed over its threads (`None` off Linux).
pub(crate) fn process_cpu_ns(pid: u32) -> Option<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0;
    for task in tasks {
        total += schedstat_ns(&task.ok()?.path().join("schedstat"))?;
    }
    Some(total)
}

/// The time on a CPU a `schedstat` file records (its first field, in nanoseconds).
fn schedstat_ns(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Threads {
    /// Records the calling thread.
    pub fn register_current(&self) {
        if let Some(tid) = current_tid() {
            let now = thread_cpu_ns(tid).unwrap_or(0);
            self.seen.lock().expect("threads").insert(tid, now);
        }
    }

    /// A multi-threaded runtime of `workers` workers whose every thread (workers and blocking
    /// threads) is recorded in `self`.
    pub fn runtime(&self, workers: usize, name: &str) -> tokio::runtime::Runtime {
        let threads = self.clone();
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .thread_name(name)
            .on_thread_start(move || threads.register_current())
            .enable_all()
            .build()
            .expect("tokio runtime")
    }

    /// CPU nanoseconds of every recorded thread so far; `None` when none could be read (not
    /// Linux, or no `schedstat`).
    pub fn cpu_ns(&self) -> Option<u64> {
        let mut seen = self.seen.lock().expect("threads");
        let mut read_any = false;
        for (tid, last) in seen.iter_mut() {
            if let Some(now) = thread_cpu_ns(*tid) {
                *last = now;
                read_any = true;
            }
        }
        read_any.then(|| seen.values().sum())
    }
}

#[cfg(test)]
mod tests {
    use super::Threads;

    /// Busy work on a recorded runtime shows up as its CPU time (a lower bound, no timing).
    #[test]
    fn a_recorded_runtime_counts_its_threads_cpu() {
        let threads = Threads::default();
        let rt = threads.runtime(1, "cpu-test");
        // A worker records itself when it starts, which may be after this read: the test's own
        // thread is recorded too, so the first read never finds an empty set.
        threads.register_current();
        let before = threads.cpu_ns().expect("schedstat readable on Linux");
        let spun = rt.block_on(async {
            tokio::spawn(async {
                let t = cpu_time::ThreadTime::now();
                let mut x = 0u64;
                while t.elapsed().as_millis() < 20 {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
                t.elapsed().as_nanos() as u64
            })
            .await
            .expect("task")
        });
        let after = threads.cpu_ns().expect("schedstat readable on Linux");
        assert!(
            after - before >= spun / 2,
            "{before} → {after}, spun {spun}"
        );
    }
}
