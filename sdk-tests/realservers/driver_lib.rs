//! Helpers of the driver programs (`sdk-tests/tests/real_servers.rs` copies this file in as the
//! driver crate's `src/lib.rs`): each check prints `CHECK <name> ok` or `CHECK <name> FAIL <why>`.

use std::fmt::{Debug, Display};
use std::future::Future;

/// An environment variable the test sets.
pub fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"))
}

/// Runs one check and prints its line.
pub async fn check(name: &str, body: impl Future<Output = Result<(), String>>) {
    match body.await {
        Ok(()) => println!("CHECK {name} ok"),
        Err(why) => println!("CHECK {name} FAIL {}", why.replace('\n', "\\n")),
    }
}

/// `Ok` when `condition` holds, else the message.
pub fn ensure(condition: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if condition { Ok(()) } else { Err(message()) }
}

/// `Ok` when `left == right`, else a message naming both.
pub fn ensure_eq<T: PartialEq + Debug>(what: &str, left: T, right: T) -> Result<(), String> {
    ensure(left == right, || {
        format!("{what}: got {left:?}, expected {right:?}")
    })
}

/// Turns any error into the check's message, naming the call.
pub trait Context<T> {
    fn ctx(self, what: &str) -> Result<T, String>;
}

impl<T, E: Display + Debug> Context<T> for Result<T, E> {
    fn ctx(self, what: &str) -> Result<T, String> {
        self.map_err(|e| format!("{what}: {e} ({e:?})"))
    }
}

/// A name unique to this run (servers keep state between the binaries of one run).
pub fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{}-{nanos}", std::process::id())
}
