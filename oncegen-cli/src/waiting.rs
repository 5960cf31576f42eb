//! One line on stderr each time the client waits before sending again (`waiting 12s: rate
//! limited (429), attempt 2 of 4`), on a terminal and in a pipe: a command quiet for seconds
//! says why. A hook of the runtime's ([`Hook::before_wait`]); stdout is untouched.

use oncegen_runtime::hooks::{AttemptInfo, Hook, Wait};
use std::io::Write as _;
use std::time::Duration;

/// Prints the waits of every call.
#[derive(Debug, Default)]
pub(crate) struct Notice;

impl Hook for Notice {
    fn before_wait(&self, attempt: &AttemptInfo<'_>, wait: &Wait) {
        // Nothing to do when stderr is closed: the wait goes on regardless.
        let _ = writeln!(std::io::stderr(), "{}", line(attempt.attempt, wait));
    }
}

/// The line for a wait after attempt `sent`.
fn line(sent: u32, wait: &Wait) -> String {
    let why = match wait.status {
        Some(429) => "rate limited (429)".to_owned(),
        Some(status) => format!("answered {status}"),
        None => "no answer".to_owned(),
    };
    let next = sent + 1;
    format!(
        "waiting {}: {why}, attempt {next} of {}",
        seconds(wait.duration),
        wait.max_attempts.max(next)
    )
}

/// `duration` in whole seconds, rounded up (`12s`), or in milliseconds under a second.
fn seconds(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{}ms", duration.as_millis())
    } else {
        format!(
            "{}s",
            duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
        )
    }
}
