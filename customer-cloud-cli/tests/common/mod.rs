//! Runs the `customer-cloud` binary against a sandbox, as the tests of this crate do.

#![allow(dead_code)] // each test binary uses part of it

use cloud_sandbox::Sandbox;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the binary against one sandbox.
pub struct Cli {
    pub base_url: String,
    key: String,
    pub secret: String,
    /// `XDG_STATE_HOME` of the commands (fresh per test).
    pub state: PathBuf,
}

impl Cli {
    pub fn new(sb: &Sandbox, test: &str) -> Self {
        let cred = &sb.credentials().signed;
        let state =
            std::env::temp_dir().join(format!("customer-cloud-cli-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&state);
        Cli {
            base_url: sb.base_url(),
            key: cred.prefix.clone(),
            secret: cred.secret.clone(),
            state,
        }
    }

    /// The binary with `args`, its environment set for the sandbox.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_customer-cloud"));
        command
            .args(args)
            .env_remove("CUSTOMER_CLOUD_API_BEARER")
            .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
            .env_remove("SDK_CRASH_POINT")
            .env("CUSTOMER_CLOUD_API_BASE_URL", &self.base_url)
            .env("CUSTOMER_CLOUD_API_KEY", &self.key)
            .env("CUSTOMER_CLOUD_API_SECRET", &self.secret)
            .env("XDG_STATE_HOME", &self.state);
        command
    }

    /// The process's output for `args`.
    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("the binary runs")
    }

    /// The JSON answer of a command that must succeed.
    pub fn ok(&self, args: &[&str]) -> Value {
        let out = self.output(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "`cloud {}` failed: {stderr}",
            args.join(" ")
        );
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("`cloud {}`: stdout is not JSON: {e}", args.join(" ")))
    }

    /// The exit code and stderr of a command that must fail.
    pub fn fails(&self, args: &[&str]) -> (i32, String) {
        let out = self.output(args);
        assert!(
            !out.status.success(),
            "`cloud {}` succeeded",
            args.join(" ")
        );
        let code = out.status.code().expect("an exit code");
        (code, String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.state);
    }
}
