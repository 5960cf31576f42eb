//! Clean compile times of one generated crate, measured the same way for every crate.
//!
//! "Clean" means the generated crate alone: its dependencies are prebuilt in the target
//! directory given (shared by the crates of one generator), `cargo clean -p CRATE` runs before
//! each timed command, and the timed command's JSON messages must show that it compiled the
//! crate's own library and nothing else (otherwise the measurement is repeated once, now with
//! the dependencies built, and fails if that is still not so).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// A generated crate (own `[workspace]`) and the target directory it builds in.
#[derive(Debug, Clone)]
pub struct CrateBuild {
    name: String,
    dir: PathBuf,
    target_dir: PathBuf,
}

impl CrateBuild {
    /// The crate `name` in `dir`, building in `target_dir`.
    pub fn new(name: &str, dir: &Path, target_dir: &Path) -> Self {
        CrateBuild {
            name: name.to_owned(),
            dir: dir.to_owned(),
            target_dir: target_dir.to_owned(),
        }
    }

    /// Runs `cargo ARGS` untimed: builds whatever dependencies are missing for that command.
    pub fn prebuild(&self, args: &[&str]) {
        self.cargo(args);
    }

    /// `cargo clean -p CRATE`, then `cargo ARGS` timed; wall seconds of the latter.
    pub fn clean_secs(&self, args: &[&str]) -> f64 {
        let own = self.name.replace('-', "_");
        for _ in 0..2 {
            self.cargo(&["clean", "-p", &self.name]);
            let start = Instant::now();
            let out = self.cargo(&[args, &["--message-format=json"]].concat());
            let secs = start.elapsed().as_secs_f64();
            let compiled = compiled_units(&out);
            assert!(
                compiled.contains(&own),
                "`cargo {}` did not compile {} after `cargo clean -p`",
                args.join(" "),
                self.name
            );
            if compiled.iter().all(|unit| *unit == own) {
                return secs;
            }
            eprintln!(
                "note: `cargo {}` in {} also compiled {compiled:?}; measuring again",
                args.join(" "),
                self.dir.display()
            );
        }
        panic!(
            "`cargo {}` keeps compiling more than {}",
            args.join(" "),
            self.name
        );
    }

    fn cargo(&self, args: &[&str]) -> Output {
        run_cargo(&self.dir, &self.target_dir, args)
    }
}

/// The cargo that runs this program (`$CARGO`), or `cargo` from `PATH`.
pub(crate) fn cargo_bin() -> PathBuf {
    std::env::var("CARGO")
        .unwrap_or_else(|_| "cargo".into())
        .into()
}

/// `cargo ARGS --quiet` in `dir` with the target directory `target_dir`; panics with cargo's
/// errors when it fails.
pub(crate) fn run_cargo<A: AsRef<OsStr> + std::fmt::Debug>(
    dir: &Path,
    target_dir: &Path,
    args: &[A],
) -> Output {
    let out = Command::new(cargo_bin())
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .args(args)
        .arg("--quiet")
        .output()
        .expect("spawn cargo");
    assert!(
        out.status.success(),
        "cargo {args:?} in {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Units compiled (not fresh) by a `--message-format=json` run.
pub(crate) fn compiled_units(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["fresh"] == false)
        .filter_map(|m| m["target"]["name"].as_str().map(str::to_owned))
        .collect()
}
