//! What one call may still spend: attempts, waits after 429, and time.

use std::time::Duration;

use tokio::time::Instant;

use crate::retry::RetryPolicy;

/// The spending limits of one call and what it has spent.
///
/// Attempts answered with 429 are not counted against `max_attempts`: they have their own
/// limit (`max_rate_limit_waits`). Every wait must end before the deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    max_attempts: u32,
    max_rate_limit_waits: u32,
    max_retry_after: Duration,
    deadline: Option<Instant>,
    sent: u32,
    rate_limited: u32,
}

impl Budget {
    /// The budget `policy` gives a call ending at `deadline`.
    pub fn new(policy: &RetryPolicy, deadline: Option<Instant>) -> Self {
        Self {
            max_attempts: policy.attempts(),
            max_rate_limit_waits: policy.rate_limit_waits(),
            max_retry_after: policy.max_retry_after,
            deadline,
            sent: 0,
            rate_limited: 0,
        }
    }

    /// Counts an attempt handed to the transport.
    pub fn spend_attempt(&mut self) {
        self.sent += 1;
    }

    /// Counts an attempt answered with 429 (it does not use up an attempt).
    pub fn spend_rate_limit(&mut self) {
        self.rate_limited += 1;
    }

    /// Attempts sent, 429s included (what the caller sees as `attempts`).
    pub fn sent(&self) -> u32 {
        self.sent
    }

    /// The end of the call, if it has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether waiting `wait` from `now` still ends before the deadline.
    pub fn fits(&self, wait: Duration, now: Instant) -> bool {
        self.deadline.is_none_or(|d| now + wait < d)
    }

    /// Whether another attempt is allowed after waiting `wait`.
    pub fn may_retry(&self, wait: Duration, now: Instant) -> bool {
        self.sent.saturating_sub(self.rate_limited) < self.max_attempts && self.fits(wait, now)
    }

    /// Whether a write its lookup found recorded may be sent again to fetch its stored answer:
    /// such a replay cannot apply it twice, so it may use up to `max_attempts` beyond the
    /// attempts, within the deadline.
    pub fn may_replay(&self, now: Instant) -> bool {
        self.sent.saturating_sub(self.rate_limited) < 2 * self.max_attempts
            && self.fits(Duration::ZERO, now)
    }

    /// Whether a server-advertised wait (`Retry-After`) may be honoured before another attempt.
    pub fn may_wait_retry_after(&self, wait: Duration, now: Instant) -> bool {
        wait <= self.max_retry_after && self.may_retry(wait, now)
    }

    /// Whether the 429 just counted may be waited out (`wait` as advertised).
    pub fn may_wait_rate_limit(&self, wait: Duration, now: Instant) -> bool {
        self.rate_limited <= self.max_rate_limit_waits
            && wait <= self.max_retry_after
            && self.fits(wait, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(attempts: u32, waits: u32, deadline: Option<Duration>) -> (Budget, Instant) {
        let now = Instant::now();
        let policy = RetryPolicy {
            max_attempts: attempts,
            max_rate_limit_waits: waits,
            max_retry_after: Duration::from_secs(5),
            ..RetryPolicy::default()
        };
        (Budget::new(&policy, deadline.map(|d| now + d)), now)
    }

    #[test]
    fn attempts_exclude_429s() {
        let (mut b, now) = budget(2, 1, None);
        b.spend_attempt();
        assert!(b.may_retry(Duration::ZERO, now));
        b.spend_attempt();
        b.spend_rate_limit();
        assert!(
            b.may_retry(Duration::ZERO, now),
            "the 429 did not use an attempt"
        );
        assert!(b.may_wait_rate_limit(Duration::from_secs(1), now));
        b.spend_attempt();
        assert!(!b.may_retry(Duration::ZERO, now));
        b.spend_rate_limit();
        assert!(
            !b.may_wait_rate_limit(Duration::ZERO, now),
            "second 429 over the limit"
        );
        assert_eq!(b.sent(), 3);
    }

    #[test]
    fn waits_end_before_the_deadline_and_honour_the_retry_after_cap() {
        let (mut b, now) = budget(5, 5, Some(Duration::from_secs(2)));
        b.spend_attempt();
        assert!(b.fits(Duration::from_secs(1), now));
        assert!(!b.fits(Duration::from_secs(2), now));
        assert!(!b.may_retry(Duration::from_secs(3), now));
        let (b, now) = budget(5, 5, None);
        assert!(b.may_wait_retry_after(Duration::from_secs(5), now));
        assert!(!b.may_wait_retry_after(Duration::from_secs(6), now));
    }

    #[test]
    fn a_disabled_policy_allows_one_attempt_and_no_429_wait() {
        let now = Instant::now();
        let mut b = Budget::new(&RetryPolicy::disabled(), None);
        b.spend_attempt();
        assert!(!b.may_retry(Duration::ZERO, now));
        b.spend_rate_limit();
        assert!(!b.may_wait_rate_limit(Duration::ZERO, now));
    }
}
