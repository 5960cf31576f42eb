//! Rate-limit headers (`RateLimit-*`, legacy `X-RateLimit-Reset`, `Retry-After`) and the per-client 429 gate.

use openapi_conventions::headers;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use http::HeaderMap;
use tokio::time::Instant;

/// Rate-limit information read from a response's headers (reference part 8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimitInfo {
    /// `RateLimit-Limit`: the request budget.
    pub limit: Option<u64>,
    /// `RateLimit-Remaining`: requests left in the window.
    pub remaining: Option<u64>,
    /// `RateLimit-Reset`: seconds until the window resets.
    pub reset_seconds: Option<u64>,
    /// Legacy `X-RateLimit-Reset`: Unix timestamp of the reset.
    pub legacy_reset_unix: Option<i64>,
    /// `Retry-After` (429 and 409 `idempotency_in_progress`), as a delay.
    pub retry_after: Option<Duration>,
}

impl RateLimitInfo {
    /// Reads the rate-limit headers; unparsable values are ignored, and of a repeated header
    /// only the first value counts (as `HeaderMap::get` gives). One pass over the headers: a
    /// response has a handful, and five lookups would hash each name five times.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        Self::with_request_id(headers).0
    }

    /// [`Self::from_headers`], and the server's `x-request-id` (its first value, if it is
    /// text) read in the same pass.
    pub(crate) fn with_request_id(headers: &HeaderMap) -> (Self, Option<&str>) {
        let mut info = Self::default();
        let mut request_id = None;
        let mut seen = [false; 6];
        for (name, value) in headers {
            let field = match name.as_str() {
                "ratelimit-limit" => 0,
                "ratelimit-remaining" => 1,
                "ratelimit-reset" => 2,
                "x-ratelimit-reset" => 3,
                "retry-after" => 4,
                headers::REQUEST_ID => 5,
                _ => continue,
            };
            if std::mem::replace(&mut seen[field], true) {
                continue;
            }
            if field == 5 {
                request_id = value.to_str().ok();
                continue;
            }
            let Some(value) = value.to_str().ok().map(str::trim) else {
                continue;
            };
            match field {
                0 => info.limit = value.parse().ok(),
                1 => info.remaining = value.parse().ok(),
                2 => info.reset_seconds = value.parse().ok(),
                3 => info.legacy_reset_unix = value.parse().ok(),
                _ => info.retry_after = parse_retry_after(value),
            }
        }
        (info, request_id)
    }

    /// How long to wait before the next request after a 429: `Retry-After`, else
    /// `RateLimit-Reset`, else the legacy reset timestamp. `None` when no header says.
    pub fn suggested_wait(&self) -> Option<Duration> {
        if let Some(d) = self.retry_after {
            return Some(d);
        }
        if let Some(s) = self.reset_seconds {
            return Some(Duration::from_secs(s));
        }
        self.legacy_reset_unix.map(|ts| {
            let now = chrono::Utc::now().timestamp();
            Duration::from_secs(ts.saturating_sub(now).max(0) as u64)
        })
    }
}

/// Parses `Retry-After`: delta seconds or an HTTP date (IMF-fixdate).
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(f) = value.parse::<f64>() {
        if f.is_finite() && f >= 0.0 {
            return Some(Duration::from_secs_f64(f));
        }
        return None;
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = date.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

/// The per-client 429 gate.
///
/// When a response is 429 the gate closes until the advertised time. While it is closed every
/// request of the client waits; when it reopens exactly one request (the probe) goes through,
/// the others wait for its outcome: on success the gate opens for all, on another 429 it closes
/// again. Retries after a 429 are therefore never parallel.
///
/// An open gate costs one atomic load per attempt: callers are never serialized by it.
#[derive(Debug)]
pub struct RateLimitGate {
    /// When the gate was made: `closed_until` counts from here.
    epoch: Instant,
    /// Nanoseconds after `epoch` until which the gate is closed, `OPEN` when open.
    closed_until: AtomicU64,
    probe: tokio::sync::Mutex<()>,
}

/// `closed_until` of an open gate (a closed one is at least 1 ns after the epoch).
const OPEN: u64 = 0;

/// The gate's end of time (about 30 years after it was made, as tokio's own "far future").
const LONGEST_CLOSE: Duration = Duration::from_secs(30 * 365 * 24 * 3600);

impl Default for RateLimitGate {
    fn default() -> Self {
        Self {
            epoch: Instant::now(),
            closed_until: AtomicU64::new(OPEN),
            probe: tokio::sync::Mutex::new(()),
        }
    }
}

/// Held by the one request allowed to probe a gate that was closed; release it by dropping.
#[derive(Debug)]
pub struct ProbePermit<'a> {
    _guard: tokio::sync::MutexGuard<'a, ()>,
}

impl RateLimitGate {
    /// A new, open gate.
    pub fn new() -> Self {
        Self::default()
    }

    fn state(&self) -> Option<Instant> {
        match self.closed_until.load(Ordering::Acquire) {
            OPEN => None,
            nanos => Some(self.epoch + Duration::from_nanos(nanos)),
        }
    }

    /// Whether the gate is currently closed (a 429 was seen and no request succeeded since).
    pub fn is_closed(&self) -> bool {
        self.closed_until.load(Ordering::Acquire) != OPEN
    }

    /// Waits until this request may be sent. Returns a permit when this request is the probe.
    pub async fn acquire(&self) -> Option<ProbePermit<'_>> {
        loop {
            let until = self.state()?;
            tokio::time::sleep_until(until).await;
            let guard = self.probe.lock().await;
            match self.state() {
                None => return None,
                Some(t) if t > Instant::now() => continue,
                Some(_) => return Some(ProbePermit { _guard: guard }),
            }
        }
    }

    /// Closes the gate for `wait` (after a 429); a later end already set stays.
    pub fn close_for(&self, wait: Duration) {
        let until = Instant::now()
            .saturating_duration_since(self.epoch)
            .saturating_add(wait)
            .min(LONGEST_CLOSE);
        // At least 1 ns (`OPEN` is 0).
        let nanos = u64::try_from(until.as_nanos()).unwrap_or(u64::MAX).max(1);
        self.closed_until.fetch_max(nanos, Ordering::AcqRel);
    }

    /// Opens the gate (a request went through without a 429).
    pub fn open(&self) {
        self.closed_until.store(OPEN, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn reads_headers() {
        let mut h = HeaderMap::new();
        h.insert("RateLimit-Limit", HeaderValue::from_static("100"));
        h.insert("RateLimit-Remaining", HeaderValue::from_static("7"));
        h.insert("RateLimit-Reset", HeaderValue::from_static("30"));
        h.insert("X-RateLimit-Reset", HeaderValue::from_static("1700000000"));
        h.insert("Retry-After", HeaderValue::from_static("3"));
        let info = RateLimitInfo::from_headers(&h);
        assert_eq!(info.limit, Some(100));
        assert_eq!(info.remaining, Some(7));
        assert_eq!(info.reset_seconds, Some(30));
        assert_eq!(info.legacy_reset_unix, Some(1_700_000_000));
        assert_eq!(info.retry_after, Some(Duration::from_secs(3)));
        assert_eq!(info.suggested_wait(), Some(Duration::from_secs(3)));
        // A repeated header: its first value counts, even when it does not parse.
        h.append("Retry-After", HeaderValue::from_static("9"));
        h.insert("RateLimit-Remaining", HeaderValue::from_static("x"));
        h.append("RateLimit-Remaining", HeaderValue::from_static("5"));
        let info = RateLimitInfo::from_headers(&h);
        assert_eq!(info.retry_after, Some(Duration::from_secs(3)));
        assert_eq!(info.remaining, None);
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("0"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn the_gate_keeps_the_later_end_and_survives_absurd_waits() {
        let gate = RateLimitGate::new();
        gate.close_for(Duration::from_secs(60));
        let later = gate.state().unwrap();
        gate.close_for(Duration::from_secs(1));
        assert_eq!(
            gate.state(),
            Some(later),
            "a shorter wait does not shorten the closure"
        );
        gate.close_for(Duration::MAX);
        assert!(gate.state().unwrap() > later);
        gate.open();
        assert!(!gate.is_closed());
        gate.close_for(Duration::ZERO);
        assert!(gate.is_closed(), "closed, if only until now");
    }

    #[tokio::test]
    async fn gate_open_by_default() {
        let gate = RateLimitGate::new();
        assert!(gate.acquire().await.is_none());
        gate.close_for(Duration::from_millis(10));
        assert!(gate.is_closed());
        let permit = gate.acquire().await;
        assert!(permit.is_some());
        gate.open();
        drop(permit);
        assert!(gate.acquire().await.is_none());
    }
}
