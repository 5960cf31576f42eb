//! The servers' Python environments, installed by `.ci/real-servers` (pinned versions from
//! `sdk-tests/realservers/*-requirements.txt`, under the git-ignored `target/real-servers/`).

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::driver::workspace;

/// Whether this run is CI (`CI=true`), where a server that cannot be installed fails the test.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The environment of `server` (`chroma`, `prefect`): its `bin/` directory, or why there is none.
/// `.ci/real-servers` runs once per test process and does nothing when the pins are installed.
pub fn venv_bin(server: &str) -> Result<PathBuf, String> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let script = workspace().join(".ci/real-servers");
            let output = Command::new("bash")
                .arg(&script)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
            print!("{}", String::from_utf8_lossy(&output.stdout));
            if output.status.success() {
                Ok(())
            } else {
                Err(format!(
                    ".ci/real-servers failed ({}):\n{}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr)
                ))
            }
        })
        .clone()?;
    let bin = workspace()
        .join("target/real-servers")
        .join(format!("venv-{server}"))
        .join("bin");
    if bin.join(server).is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "{} is missing after the install",
            bin.join(server).display()
        ))
    }
}

/// The environment of `server`, or `None` after printing why the test is skipped. Under CI a
/// missing server fails instead.
pub fn require(server: &str) -> Option<PathBuf> {
    match venv_bin(server) {
        Ok(bin) => Some(bin),
        Err(why) if under_ci() => panic!("{server}: cannot be installed under CI: {why}"),
        Err(why) => {
            say(format_args!(
                "SKIPPED: {server} cannot be installed here ({why}); CI=true makes this a failure"
            ));
            None
        }
    }
}

/// Writes a line straight to the process's stderr, past libtest's capture of `print!` macros,
/// so that a skip and the timings show in `cargo test` output.
pub fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
