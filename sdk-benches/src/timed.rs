//! Whole-process measurement of a child: wall time and peak resident memory, through GNU time
//! (`/usr/bin/time`, Debian package `time`), which reports the child's `ru_maxrss`.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const GNU_TIME: &str = "/usr/bin/time";

/// What one run of a child cost.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    /// Wall-clock seconds from spawn to exit (GNU time's own fork and exec included).
    pub secs: f64,
    /// Peak resident set of the child, bytes.
    pub peak_rss: u64,
}

/// Runs `program ARGS` in `cwd` under GNU time, output discarded; panics if it fails.
pub fn run<I, S>(cwd: &Path, program: &Path, args: I) -> Usage
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    assert!(
        Path::new(GNU_TIME).exists(),
        "{GNU_TIME} is missing: install GNU time (`apt-get install time`)"
    );
    let report = std::env::temp_dir().join(format!("bench-time-{}.txt", std::process::id()));
    let start = Instant::now();
    let out = Command::new(GNU_TIME)
        .current_dir(cwd)
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .arg(program)
        .args(args)
        .output()
        .expect("spawn /usr/bin/time");
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{} failed:\n{}",
        program.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&report).expect("GNU time report");
    let kib: u64 = text
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("GNU time prints the peak RSS in KiB");
    Usage {
        secs,
        peak_rss: kib * 1024,
    }
}
