//! `--wait`: following a long-running write (its receipt's `wait`) or a pollable read (its
//! builder's `wait`) to the end, with a spinner on a terminal (indicatif, drawn on stderr
//! only when it is one) and `--timeout`.

use crate::{Failure, Sent, exit};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use oncegen_runtime::{Error, Response};
use serde::Serialize;
use std::future::Future;
use std::io::IsTerminal;
use std::time::Duration;

/// What `--wait` was given.
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// `--timeout`: the longest wait.
    pub timeout: Option<Duration>,
}

/// Runs `work` under a spinner labelled `what` (on a terminal) and the timeout; `None` when
/// the timeout struck first.
pub async fn follow<T>(wait: Wait, what: &str, work: impl Future<Output = T>) -> Option<T> {
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if std::io::stderr().is_terminal() {
        spinner.set_draw_target(ProgressDrawTarget::stderr());
        spinner.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        spinner.set_message(format!("waiting for {what}"));
        spinner.enable_steady_tick(Duration::from_millis(120));
    }
    let result = match wait.timeout {
        Some(limit) => tokio::time::timeout(limit, work).await.ok(),
        None => Some(work.await),
    };
    spinner.finish_and_clear();
    result
}

/// The outcome of a write followed to its end: the final state (`waited`), under the write's
/// key (`response`). A failed or timed-out wait is reported with the write's key settled (the
/// write itself was answered).
pub fn waited<T, W: Serialize>(
    response: &Response<T>,
    waited: Option<Result<W, Error>>,
) -> Result<Sent, Failure> {
    let key = response.meta().idempotency_key.clone();
    finished(key, waited)
}

/// The outcome of a pollable read followed to its end.
pub fn polled<W: Serialize>(waited: Option<Result<W, Error>>) -> Result<Sent, Failure> {
    finished(None, waited)
}

fn finished<W: Serialize>(
    key: Option<String>,
    waited: Option<Result<W, Error>>,
) -> Result<Sent, Failure> {
    let accepted = if key.is_some() {
        "the write was accepted; "
    } else {
        ""
    };
    match waited {
        None => Err(Failure {
            code: exit::OTHER,
            message: format!(
                "{accepted}--timeout struck before it ended (look again with --wait later)"
            ),
            settled_key: key,
        }),
        Some(Err(e)) => {
            let failure = Failure::from(e);
            Err(Failure {
                message: format!("{accepted}waiting for its end failed: {}", failure.message),
                settled_key: key,
                ..failure
            })
        }
        Some(Ok(done)) => {
            let value = serde_json::to_value(done).map_err(|e| Failure {
                code: exit::OTHER,
                message: format!("the final state does not encode as JSON: {e}"),
                settled_key: key.clone(),
            })?;
            Ok(Sent {
                value,
                idempotency_key: key,
                printed: false,
            })
        }
    }
}
