//! Per-credential fixed-window rate limiting with the RateLimit-* headers (off by default:
//! headers are still sent, with the unlimited budget).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use uuid::Uuid;

/// Budget shown when limiting is off.
pub const UNLIMITED: u32 = 1_000_000;

/// The headers to attach and whether the request is over budget.
#[derive(Clone, Copy, Debug)]
pub struct Verdict {
    /// Budget per window.
    pub limit: u32,
    /// Requests left in the window.
    pub remaining: u32,
    /// Seconds until the window resets.
    pub reset_secs: u64,
    /// True when the request must be answered 429.
    pub limited: bool,
}

impl Verdict {
    /// Headers: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Reset.
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        let unix = chrono::Utc::now().timestamp() as u64 + self.reset_secs;
        vec![
            ("ratelimit-limit", self.limit.to_string()),
            ("ratelimit-remaining", self.remaining.to_string()),
            ("ratelimit-reset", self.reset_secs.to_string()),
            ("x-ratelimit-reset", unix.to_string()),
        ]
    }
}

/// Fixed windows per credential.
#[derive(Debug, Default)]
pub struct RateLimiter {
    /// `(budget, window)`; `None` = off.
    pub config: Option<(u32, Duration)>,
    windows: HashMap<Uuid, (Instant, u32)>,
}

impl RateLimiter {
    /// A limiter with the given configuration.
    pub fn new(config: Option<(u32, Duration)>) -> Self {
        Self {
            config,
            windows: HashMap::new(),
        }
    }

    /// Counts one request of `credential`.
    pub fn check(&mut self, credential: Option<Uuid>) -> Verdict {
        let Some((budget, window)) = self.config else {
            return Verdict {
                limit: UNLIMITED,
                remaining: UNLIMITED,
                reset_secs: 60,
                limited: false,
            };
        };
        let key = credential.unwrap_or(Uuid::nil());
        let now = Instant::now();
        let entry = self.windows.entry(key).or_insert((now, 0));
        if now.duration_since(entry.0) >= window {
            *entry = (now, 0);
        }
        let left = window.saturating_sub(now.duration_since(entry.0));
        let reset_secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        if entry.1 >= budget {
            return Verdict {
                limit: budget,
                remaining: 0,
                reset_secs: reset_secs.max(1),
                limited: true,
            };
        }
        entry.1 += 1;
        Verdict {
            limit: budget,
            remaining: budget - entry.1,
            reset_secs,
            limited: false,
        }
    }

    /// Forgets all windows.
    pub fn reset(&mut self) {
        self.windows.clear();
    }
}
