//! Named kill points of the journal protocol, for crash tests only (cargo feature
//! `crash-points`; an application never enables it).
//!
//! With `SDK_CRASH_POINT=<step>:<n>` in the environment, the `n`-th time the process reaches
//! `<step>` it prints `sdk-crash-point <step> <n>` on stdout and stops that thread for good, so
//! the test can kill the process with SIGKILL exactly there. The runtime's steps, in protocol
//! order: `append` (a write's record is in the file, not yet synced), `fsync` (synced, the
//! write not yet sent), `send` (an attempt about to go to the transport), `receive` (the call's
//! outcome is known, not yet recorded), `settle` (the outcome is in the journal, not yet
//! returned), `close` (an acknowledgement is in the journal). The application marks its own
//! steps (e.g. `acknowledge`: outcome recorded by the application, not yet acknowledged) with
//! [`reached`].

use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The environment variable naming the step to stop at: `<step>:<n>`.
pub const ENV: &str = "SDK_CRASH_POINT";

/// The step and hit number to stop at, and the hits counted so far.
struct Target {
    step: String,
    nth: u32,
    hits: AtomicU32,
}

static TARGET: OnceLock<Option<Target>> = OnceLock::new();

/// Counts a pass through `step`; stops the thread for good on the configured hit.
pub fn reached(step: &str) {
    let target = TARGET.get_or_init(|| {
        let value = std::env::var(ENV).ok()?;
        let (step, nth) = value.rsplit_once(':')?;
        Some(Target {
            step: step.to_owned(),
            nth: nth.parse().ok()?,
            hits: AtomicU32::new(0),
        })
    });
    let Some(target) = target else { return };
    if target.step != step || target.hits.fetch_add(1, Ordering::SeqCst) + 1 != target.nth {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "sdk-crash-point {step} {}", target.nth);
    let _ = out.flush();
    drop(out);
    loop {
        std::thread::park();
    }
}
