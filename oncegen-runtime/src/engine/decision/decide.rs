//! Decide: what to do after an attempt, as a pure function of its [`Class`], the call's facts
//! and its [`Budget`]. This is the decision table of [`Client::execute`](crate::Client::execute);
//! the client then acts on the [`Decision`].

use std::time::Duration;

use tokio::time::Instant;

use crate::engine::budget::Budget;
use crate::engine::decision::classify::Class;

/// What the decision depends on besides the attempt's class and the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The call is a write (not a safe method).
    pub is_write: bool,
    /// The call carries an `Idempotency-Key`.
    pub has_key: bool,
    /// The policy allows reconciling unknown write outcomes.
    pub reconcile: bool,
    /// An earlier attempt of this write may have been processed.
    pub maybe_delivered: bool,
}

/// What to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Return the response.
    Done,
    /// Wait this long, then send the identical request again (same key and body).
    Retry {
        /// The wait.
        after: Duration,
    },
    /// The 429 gate is closed: send again once it lets this call through.
    AwaitGate,
    /// The write's outcome is unknown: look it up by its key, then decide again.
    Reconcile,
    /// End the call with this error.
    Fail(Failure),
}

/// Which error ends the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The answer as [`Error::Api`](crate::Error::Api).
    Api,
    /// [`Error::Redirected`](crate::Error::Redirected).
    Redirected,
    /// [`Error::ResponseTooLarge`](crate::Error::ResponseTooLarge).
    TooLarge,
    /// [`Error::Decode`](crate::Error::Decode): a 2xx that is not JSON.
    Decode,
    /// [`Error::Transport`](crate::Error::Transport).
    Transport,
    /// [`Error::Timeout`](crate::Error::Timeout).
    Timeout,
    /// [`Error::WriteOutcomeUnknown`](crate::Error::WriteOutcomeUnknown).
    Unknown,
    /// [`Error::WriteApplied`](crate::Error::WriteApplied): recorded, its answer not fetched.
    Applied,
}

/// Decides after an attempt of class `class`. `backoff` is the jittered delay before the next
/// attempt, drawn by the caller (so this function stays deterministic).
pub(crate) fn decide(
    class: &Class,
    facts: &Facts,
    budget: &Budget,
    backoff: Duration,
    now: Instant,
) -> Decision {
    match class {
        Class::Success => Decision::Done,
        Class::Redirect => Decision::Fail(Failure::Redirected),
        Class::TooLarge { .. } => Decision::Fail(Failure::TooLarge),
        Class::Rejected => Decision::Fail(Failure::Api),
        Class::RateLimited { wait } => {
            if budget.may_wait_rate_limit(wait.unwrap_or_default(), now) {
                Decision::AwaitGate
            } else {
                Decision::Fail(exhausted(facts, Failure::Api))
            }
        }
        Class::RetryCode { wait } => {
            let after = wait.unwrap_or(backoff);
            if budget.may_wait_retry_after(after, now) {
                Decision::Retry { after }
            } else {
                Decision::Fail(exhausted(facts, Failure::Api))
            }
        }
        Class::NotDelivered => retry_or(facts, budget, backoff, now, Failure::Transport),
        Class::Garbled | Class::ServerError | Class::Lost { .. } if facts.is_write => {
            if facts.has_key && facts.reconcile && budget.fits(Duration::ZERO, now) {
                Decision::Reconcile
            } else {
                Decision::Fail(Failure::Unknown)
            }
        }
        Class::Garbled => retry_or(facts, budget, backoff, now, Failure::Decode),
        Class::ServerError => retry_or(facts, budget, backoff, now, Failure::Api),
        Class::Lost { timeout: true } => retry_or(facts, budget, backoff, now, Failure::Timeout),
        Class::Lost { timeout: false } => retry_or(facts, budget, backoff, now, Failure::Transport),
    }
}

/// After a write's outcome was found unknown, whether to resend it (same key, same body):
/// when the lookup says the write is recorded (the server answers with the stored response,
/// no wait needed; a replay may go beyond the attempts, see [`Budget::may_replay`], and when
/// none is left the outcome is still known: applied) or not found (the server deduplicates by
/// key; `resend_when_not_found`) and an attempt is left.
pub(crate) fn after_lookup(
    found: Lookup,
    resend_when_not_found: bool,
    budget: &Budget,
    backoff: Duration,
    now: Instant,
) -> Decision {
    match found {
        Lookup::Recorded if budget.may_replay(now) => Decision::Retry {
            after: Duration::ZERO,
        },
        Lookup::Recorded => Decision::Fail(Failure::Applied),
        Lookup::NotFound if resend_when_not_found && budget.may_retry(backoff, now) => {
            Decision::Retry { after: backoff }
        }
        _ => Decision::Fail(Failure::Unknown),
    }
}

/// What a reconciliation lookup found, as far as the decision goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The write is recorded.
    Recorded,
    /// No write recorded under the key.
    NotFound,
    /// Anything that cannot justify a resend: ambiguous, expired, or the lookup failed.
    Inconclusive,
}

/// The error when the budget is spent: for a write that may already have been processed, its
/// outcome is unknown; otherwise `failure`.
pub(crate) fn exhausted(facts: &Facts, failure: Failure) -> Failure {
    if facts.is_write && facts.maybe_delivered {
        Failure::Unknown
    } else {
        failure
    }
}

fn retry_or(
    facts: &Facts,
    budget: &Budget,
    backoff: Duration,
    now: Instant,
    failure: Failure,
) -> Decision {
    if budget.may_retry(backoff, now) {
        Decision::Retry { after: backoff }
    } else {
        Decision::Fail(exhausted(facts, failure))
    }
}

#[cfg(test)]
mod tests {
    //! The decision table of `Client::execute`, row by row, without a server.

    use super::*;
    use crate::retry::RetryPolicy;

    const BACKOFF: Duration = Duration::from_millis(50);
    const SECOND: Option<Duration> = Some(Duration::from_secs(1));

    const READ: Facts = Facts {
        is_write: false,
        has_key: false,
        reconcile: true,
        maybe_delivered: false,
    };
    const WRITE: Facts = Facts {
        is_write: true,
        has_key: true,
        reconcile: true,
        maybe_delivered: false,
    };
    const WRITE_NO_KEY: Facts = Facts {
        has_key: false,
        ..WRITE
    };
    const WRITE_NO_RECONCILE: Facts = Facts {
        reconcile: false,
        ..WRITE
    };
    const WRITE_DELIVERED: Facts = Facts {
        maybe_delivered: true,
        ..WRITE
    };

    /// A budget with attempts and 429 waits left (`spent` attempts already sent) and 10 s of
    /// time, or an exhausted one.
    fn budget(left: bool) -> (Budget, Instant) {
        let now = Instant::now();
        let policy = RetryPolicy {
            max_attempts: 3,
            max_rate_limit_waits: 1,
            max_retry_after: Duration::from_secs(5),
            ..RetryPolicy::default()
        };
        let mut b = Budget::new(&policy, Some(now + Duration::from_secs(10)));
        let spent = if left { 1 } else { 3 };
        for _ in 0..spent {
            b.spend_attempt();
        }
        (b, now)
    }

    fn rate_limited_budget(waits_left: bool) -> (Budget, Instant) {
        let (mut b, now) = budget(true);
        b.spend_attempt();
        b.spend_rate_limit();
        if !waits_left {
            b.spend_attempt();
            b.spend_rate_limit();
        }
        (b, now)
    }

    fn d(class: Class, facts: Facts, left: bool) -> Decision {
        let (b, now) = budget(left);
        decide(&class, &facts, &b, BACKOFF, now)
    }

    use Decision::{AwaitGate, Done, Fail, Reconcile, Retry};
    const RETRY: Decision = Retry { after: BACKOFF };

    #[test]
    fn row_success() {
        for facts in [READ, WRITE, WRITE_NO_KEY] {
            assert_eq!(d(Class::Success, facts, true), Done);
            assert_eq!(d(Class::Success, facts, false), Done);
        }
    }

    #[test]
    fn row_connection_not_established() {
        // Not delivered: resend reads and writes alike while attempts remain.
        assert_eq!(d(Class::NotDelivered, READ, true), RETRY);
        assert_eq!(d(Class::NotDelivered, WRITE, true), RETRY);
        assert_eq!(d(Class::NotDelivered, WRITE_NO_KEY, true), RETRY);
        assert_eq!(
            d(Class::NotDelivered, READ, false),
            Fail(Failure::Transport)
        );
        assert_eq!(
            d(Class::NotDelivered, WRITE, false),
            Fail(Failure::Transport)
        );
        // ...unless an earlier attempt may have been processed.
        assert_eq!(
            d(Class::NotDelivered, WRITE_DELIVERED, false),
            Fail(Failure::Unknown)
        );
    }

    #[test]
    fn row_429() {
        let limited = Class::RateLimited { wait: SECOND };
        let (b, now) = rate_limited_budget(true);
        for facts in [READ, WRITE, WRITE_NO_KEY] {
            assert_eq!(decide(&limited, &facts, &b, BACKOFF, now), AwaitGate);
        }
        // A 429 does not use up an attempt: the gate is awaited even with none left.
        let (mut spent, now) = budget(false);
        spent.spend_attempt();
        spent.spend_rate_limit();
        assert_eq!(decide(&limited, &WRITE, &spent, BACKOFF, now), AwaitGate);
        // Waits exhausted, or an advertised wait over `max_retry_after` or past the deadline.
        let (b, now) = rate_limited_budget(false);
        assert_eq!(
            decide(&limited, &READ, &b, BACKOFF, now),
            Fail(Failure::Api)
        );
        assert_eq!(
            decide(&limited, &WRITE_DELIVERED, &b, BACKOFF, now),
            Fail(Failure::Unknown)
        );
        let (b, now) = rate_limited_budget(true);
        for wait in [6, 11] {
            let long = Class::RateLimited {
                wait: Some(Duration::from_secs(wait)),
            };
            assert_eq!(
                decide(&long, &READ, &b, BACKOFF, now),
                Fail(Failure::Api),
                "{wait}s"
            );
        }
    }

    #[test]
    fn row_automatic_retry_code() {
        let code = Class::RetryCode { wait: SECOND };
        let after = Retry {
            after: Duration::from_secs(1),
        };
        assert_eq!(d(code.clone(), READ, true), after);
        assert_eq!(d(code.clone(), WRITE, true), after);
        assert_eq!(d(Class::RetryCode { wait: None }, WRITE, true), RETRY);
        assert_eq!(d(code.clone(), WRITE, false), Fail(Failure::Api));
        assert_eq!(
            d(code.clone(), WRITE_DELIVERED, false),
            Fail(Failure::Unknown)
        );
        let too_long = Class::RetryCode {
            wait: Some(Duration::from_secs(6)),
        };
        assert_eq!(d(too_long, WRITE, true), Fail(Failure::Api));
    }

    #[test]
    fn row_maybe_processed_reads_back_off_and_resend() {
        for (class, failure) in [
            (Class::Lost { timeout: true }, Failure::Timeout),
            (Class::Lost { timeout: false }, Failure::Transport),
            (Class::ServerError, Failure::Api),
            (Class::Garbled, Failure::Decode),
        ] {
            assert_eq!(d(class.clone(), READ, true), RETRY, "{class:?}");
            assert_eq!(d(class.clone(), READ, false), Fail(failure), "{class:?}");
        }
    }

    #[test]
    fn row_maybe_processed_writes_reconcile() {
        for class in [
            Class::Lost { timeout: true },
            Class::Lost { timeout: false },
            Class::ServerError,
            Class::Garbled,
        ] {
            // With a key: reconcile, attempts left or not (the lookup decides on a resend).
            assert_eq!(d(class.clone(), WRITE, true), Reconcile, "{class:?}");
            assert_eq!(d(class.clone(), WRITE, false), Reconcile, "{class:?}");
            // Without a key, or with reconciliation off: never resent.
            assert_eq!(d(class.clone(), WRITE_NO_KEY, true), Fail(Failure::Unknown));
            assert_eq!(
                d(class.clone(), WRITE_NO_RECONCILE, true),
                Fail(Failure::Unknown)
            );
        }
        // No time left for a lookup.
        let (b, _) = budget(true);
        let late = Instant::now() + Duration::from_secs(11);
        assert_eq!(
            decide(&Class::ServerError, &WRITE, &b, BACKOFF, late),
            Fail(Failure::Unknown)
        );
    }

    #[test]
    fn row_final_answers() {
        for facts in [READ, WRITE, WRITE_DELIVERED] {
            assert_eq!(d(Class::Rejected, facts, true), Fail(Failure::Api));
            assert_eq!(d(Class::Redirect, facts, true), Fail(Failure::Redirected));
            assert_eq!(
                d(Class::TooLarge { status: 200 }, facts, true),
                Fail(Failure::TooLarge)
            );
        }
    }

    #[test]
    fn rows_after_the_lookup() {
        let (left, now) = budget(true);
        let (spent, _) = budget(false);
        let after = |found, resend, b: &Budget| after_lookup(found, resend, b, BACKOFF, now);
        // Recorded: resend at once, the server answers with the stored response.
        assert_eq!(
            after(Lookup::Recorded, true, &left),
            Retry {
                after: Duration::ZERO
            }
        );
        assert_eq!(
            after(Lookup::Recorded, false, &left),
            Retry {
                after: Duration::ZERO
            }
        );
        // Not found: resend after a backoff, unless the policy says not to.
        assert_eq!(after(Lookup::NotFound, true, &left), RETRY);
        assert_eq!(
            after(Lookup::NotFound, false, &left),
            Fail(Failure::Unknown)
        );
        // Ambiguous, expired, failed lookup: never resent.
        assert_eq!(
            after(Lookup::Inconclusive, true, &left),
            Fail(Failure::Unknown)
        );
        // No attempt left: a recorded write is still replayed (to fetch its stored answer),
        // and once replays run out too it is known to be applied, never unknown.
        assert_eq!(
            after(Lookup::Recorded, true, &spent),
            Retry {
                after: Duration::ZERO
            }
        );
        let (mut replayed, _) = budget(false);
        for _ in 0..3 {
            replayed.spend_attempt();
        }
        assert_eq!(
            after(Lookup::Recorded, true, &replayed),
            Fail(Failure::Applied)
        );
        assert_eq!(
            after(Lookup::NotFound, true, &spent),
            Fail(Failure::Unknown)
        );
    }
}
