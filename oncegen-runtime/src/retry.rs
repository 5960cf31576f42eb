//! Retry policy: bounded exponential backoff with full jitter, attempt and time budgets.

use std::time::Duration;

/// How the client retries.
///
/// Reads (safe methods) are retried on transport errors, timeouts, 429 and 5xx. Writes are
/// resent only with the same `Idempotency-Key` and byte-identical body, and only when that is
/// safe (see [`Client::execute`](crate::Client::execute) for the decision table).
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Whether retries happen at all. When `false`, every call makes exactly one attempt
    /// (plus, for a write with an unknown outcome, one reconciliation lookup attempt when
    /// [`RetryPolicy::reconcile_unknown_writes`] is set).
    pub enabled: bool,
    /// Maximum number of HTTP attempts of the call itself (first attempt included), not
    /// counting the attempts answered with 429 (those have their own budget below).
    pub max_attempts: u32,
    /// How many 429 answers one call waits out (per `Retry-After`, through the client's gate)
    /// before it returns the `rate_limited` error. Bounded by the whole-call timeout too.
    pub max_rate_limit_waits: u32,
    /// Base delay of the exponential backoff.
    pub initial_backoff: Duration,
    /// Upper bound of one backoff delay.
    pub max_backoff: Duration,
    /// Longest single wait honoured from `Retry-After` / `RateLimit-Reset`; a longer advertised
    /// wait ends the call with the API error instead of sleeping.
    pub max_retry_after: Duration,
    /// Settle a write whose outcome is unknown through the API's operation lookup (see
    /// [`ApiProfile`](crate::ApiProfile)): the lookup is a read under this same policy (its own
    /// attempts, the write's deadline), then the write is resent with the same key when the
    /// lookup allows it.
    pub reconcile_unknown_writes: bool,
    /// Resend (same key, same body) when that lookup answers 404 `operation_not_found`.
    /// The server deduplicates by key, so the resend either returns the stored response or
    /// performs the write exactly once. Set to `false` to return
    /// [`Error::WriteOutcomeUnknown`](crate::Error::WriteOutcomeUnknown) instead.
    pub resend_when_not_found: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            enabled: true,
            max_attempts: 4,
            max_rate_limit_waits: 8,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            max_retry_after: Duration::from_secs(120),
            reconcile_unknown_writes: true,
            resend_when_not_found: true,
        }
    }
}

impl RetryPolicy {
    /// A policy that never retries (one attempt per call).
    pub fn disabled() -> Self {
        Self {
            enabled: false,
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// Attempts allowed by this policy.
    pub fn attempts(&self) -> u32 {
        if self.enabled {
            self.max_attempts.max(1)
        } else {
            1
        }
    }

    /// 429 answers one call may wait out under this policy.
    pub fn rate_limit_waits(&self) -> u32 {
        if self.enabled {
            self.max_rate_limit_waits
        } else {
            0
        }
    }

    /// Upper bound of the backoff before retry number `retry` (0-based):
    /// `min(max_backoff, initial_backoff * 2^retry)`.
    pub fn backoff_ceiling(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(31)).unwrap_or(u32::MAX);
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    /// A full-jitter backoff delay: uniform in `[0, backoff_ceiling(retry)]`.
    pub fn backoff(&self, retry: u32) -> Duration {
        let ceiling = self.backoff_ceiling(retry);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(rand::random_range(0..=nanos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceiling_grows_and_caps() {
        let p = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(1),
            ..RetryPolicy::default()
        };
        assert_eq!(p.backoff_ceiling(0), Duration::from_millis(100));
        assert_eq!(p.backoff_ceiling(1), Duration::from_millis(200));
        assert_eq!(p.backoff_ceiling(3), Duration::from_millis(800));
        assert_eq!(p.backoff_ceiling(4), Duration::from_secs(1));
        assert_eq!(p.backoff_ceiling(200), Duration::from_secs(1));
    }

    #[test]
    fn disabled_is_one_attempt() {
        assert_eq!(RetryPolicy::disabled().attempts(), 1);
    }
}
