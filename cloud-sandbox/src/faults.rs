//! Fault injection: rules scheduled by tests (next N requests, optionally matching a method and
//! path prefix) and a seeded random schedule with a probability per fault kind, reproducible
//! (per idempotency key, whatever the interleaving of concurrent requests, when asked).

use std::collections::HashMap;
use std::time::Duration;

/// A failure the sandbox can inject.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// Commit the write (and store its idempotent response), then drop the connection without
    /// answering: the client sees a transport error and an unknown outcome.
    DropAfterCommit,
    /// Commit the write, then wait this long before answering (the key stays in flight meanwhile).
    Delay(Duration),
    /// Answer this 5xx status with `service_unavailable`, before anything is committed.
    Status(u16),
    /// Commit the write, then answer this 5xx status (`service_unavailable`).
    StatusAfterCommit(u16),
    /// Answer a non-JSON edge error: 502 with an HTML page, nothing committed.
    EdgeHtml,
    /// Answer this documented error (status and part-7 code, e.g. 503 `catalog_unavailable`)
    /// before anything is committed.
    Error {
        /// HTTP status.
        status: u16,
        /// The error code; it must be one the operation documents for `status`.
        code: String,
    },
    /// Commit the write, then answer this documented error (e.g. 502
    /// `proxy_policy_unavailable`: the change may have persisted).
    ErrorAfterCommit {
        /// HTTP status.
        status: u16,
        /// The error code; it must be one the operation documents for `status`.
        code: String,
    },
    /// Answer 429 `rate_limited` with `Retry-After` seconds, nothing committed.
    RateLimited {
        /// Value of `Retry-After`.
        retry_after: u64,
    },
}

impl Fault {
    /// Whether the fault strikes after a write committed (nothing to commit on a read).
    pub fn after_commit(&self) -> bool {
        matches!(
            self,
            Fault::DropAfterCommit | Fault::StatusAfterCommit(_) | Fault::ErrorAfterCommit { .. }
        )
    }
}

/// Which requests a rule applies to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matcher {
    /// Uppercase method, any when `None`.
    pub method: Option<String>,
    /// Path prefix (`/v1/deploy/`), any when `None`.
    pub path_prefix: Option<String>,
    /// Only requests about this idempotency key: a write carrying it in `Idempotency-Key`, or an
    /// operation lookup carrying it in the `idempotency_key` query parameter. Any when `None`.
    pub idempotency_key: Option<String>,
}

impl Matcher {
    /// Matches every request.
    pub fn any() -> Self {
        Self::default()
    }

    /// Matches one method and a path prefix.
    pub fn new(method: &str, path_prefix: &str) -> Self {
        Self {
            method: Some(method.to_ascii_uppercase()),
            path_prefix: Some(path_prefix.to_owned()),
            idempotency_key: None,
        }
    }

    /// Matches every write (non-GET) request.
    pub fn writes() -> Self {
        Self {
            method: Some("WRITE".into()),
            ..Self::default()
        }
    }

    /// Matches every request about one idempotency key: the write carrying it and the
    /// reconciliation lookups (`GET /v1/operations?idempotency_key=…`) naming it. Lets a test
    /// give each logical write its own fault sequence, independent of how concurrent writes
    /// interleave.
    pub fn key(idempotency_key: &str) -> Self {
        Self {
            idempotency_key: Some(idempotency_key.to_owned()),
            ..Self::default()
        }
    }

    fn matches(&self, req: &FaultTarget<'_>) -> bool {
        let m = match self.method.as_deref() {
            None => true,
            Some("WRITE") => req.is_write(),
            Some(x) => x == req.method,
        };
        m && self
            .path_prefix
            .as_deref()
            .is_none_or(|p| req.path.starts_with(p))
            && self
                .idempotency_key
                .as_deref()
                .is_none_or(|k| req.idempotency_key == Some(k))
    }
}

/// What the fault plan sees of a request.
#[derive(Clone, Copy, Debug)]
pub struct FaultTarget<'a> {
    /// Uppercase method.
    pub method: &'a str,
    /// Path without query.
    pub path: &'a str,
    /// The `Idempotency-Key` header, else the `idempotency_key` query parameter.
    pub idempotency_key: Option<&'a str>,
}

impl FaultTarget<'_> {
    /// Whether the request is a write (not GET, HEAD or OPTIONS).
    pub fn is_write(&self) -> bool {
        !matches!(self.method, "GET" | "HEAD" | "OPTIONS")
    }
}

#[derive(Clone, Debug)]
struct Rule {
    fault: Fault,
    matcher: Matcher,
    remaining: u32,
}

/// A seeded random schedule: each request draws once, uniformly in `[0, 1)`, and the draw picks
/// at most one fault, each with its own probability (the probabilities are consecutive ranges,
/// so they should sum to at most 1). A fault that strikes after a commit is never given to a
/// read: the read goes through unharmed.
#[derive(Clone, Debug, Default)]
pub struct RandomFaults {
    /// PRNG seed.
    pub seed: u64,
    /// (fault, probability 0..=1) pairs.
    pub faults: Vec<(Fault, f64)>,
    /// Which requests may be hit.
    pub matcher: Matcher,
    /// Draw per idempotency key: the n-th request about a key (the write, its resends, its
    /// lookups) gets the same draw whatever the interleaving of concurrent requests, so a run
    /// is reproducible. Requests without a key draw from one shared sequence.
    pub per_key: bool,
}

impl RandomFaults {
    /// The fault a draw in `[0, 1)` picks for `req`, if any.
    fn pick(&self, draw: f64, req: &FaultTarget<'_>) -> Option<Fault> {
        let mut upper = 0.0;
        for (fault, p) in &self.faults {
            upper += p;
            if draw < upper {
                return (req.is_write() || !fault.after_commit()).then(|| fault.clone());
            }
        }
        None
    }
}

/// The fault plan of one sandbox.
#[derive(Debug, Default)]
pub struct FaultPlan {
    rules: Vec<Rule>,
    random: Option<(RandomFaults, u64)>,
    /// Requests seen per idempotency key (per-key draws).
    per_key_seen: HashMap<String, u64>,
    /// Faults injected so far: (method, path, fault).
    pub injected: Vec<(String, String, Fault)>,
}

/// splitmix64: a tiny, reproducible PRNG.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a key: the per-key seed offset.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

impl FaultPlan {
    /// Injects `fault` into the next `times` requests matching `matcher`.
    pub fn push(&mut self, fault: Fault, matcher: Matcher, times: u32) {
        self.rules.push(Rule {
            fault,
            matcher,
            remaining: times,
        });
    }

    /// Installs (or clears) a seeded random schedule.
    pub fn set_random(&mut self, random: Option<RandomFaults>) {
        self.per_key_seen.clear();
        self.random = random.map(|r| {
            let s = r.seed;
            (r, s)
        });
    }

    /// Removes every rule and the random schedule.
    pub fn clear(&mut self) {
        self.rules.clear();
        self.set_random(None);
    }

    /// The fault for this request, if any (consumes one use of a rule).
    pub fn next(&mut self, method: &str, path: &str) -> Option<Fault> {
        self.next_for(&FaultTarget {
            method,
            path,
            idempotency_key: None,
        })
    }

    /// The fault for this request, if any (consumes one use of a rule; rules are tried in the
    /// order they were pushed).
    pub fn next_for(&mut self, req: &FaultTarget<'_>) -> Option<Fault> {
        let (method, path) = (req.method, req.path);
        let mut chosen = None;
        if let Some(rule) = self
            .rules
            .iter_mut()
            .find(|r| r.remaining > 0 && r.matcher.matches(req))
        {
            rule.remaining -= 1;
            chosen = Some(rule.fault.clone());
        }
        self.rules.retain(|r| r.remaining > 0);
        if chosen.is_none()
            && let Some((random, state)) = self.random.as_mut()
            && random.matcher.matches(req)
        {
            let bits = match req.idempotency_key.filter(|_| random.per_key) {
                Some(key) => {
                    let seen = self.per_key_seen.entry(key.to_owned()).or_default();
                    let mut key_state =
                        random.seed ^ fnv1a(key) ^ seen.wrapping_mul(0xA24B_AED4_963E_E407);
                    *seen += 1;
                    splitmix64(&mut key_state)
                }
                None => splitmix64(state),
            };
            let draw = (bits >> 11) as f64 / (1u64 << 53) as f64;
            chosen = random.pick(draw, req);
        }
        if let Some(f) = &chosen {
            self.injected
                .push((method.to_owned(), path.to_owned(), f.clone()));
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_count_down_and_match() {
        let mut p = FaultPlan::default();
        p.push(Fault::Status(503), Matcher::new("POST", "/v1/deploy/"), 2);
        assert_eq!(p.next("GET", "/v1/deploy/x"), None);
        assert_eq!(p.next("POST", "/v1/deploy/x"), Some(Fault::Status(503)));
        assert_eq!(p.next("POST", "/v1/deploy/x"), Some(Fault::Status(503)));
        assert_eq!(p.next("POST", "/v1/deploy/x"), None);
    }

    #[test]
    fn key_matcher_follows_one_write_and_its_lookups() {
        let mut p = FaultPlan::default();
        p.push(Fault::EdgeHtml, Matcher::key("key-aaaa"), 1);
        p.push(Fault::Status(503), Matcher::key("key-aaaa"), 1);
        let target = |method, key| FaultTarget {
            method,
            path: "/v1/x",
            idempotency_key: key,
        };
        assert_eq!(p.next_for(&target("POST", Some("key-bbbb"))), None);
        assert_eq!(p.next_for(&target("POST", None)), None);
        assert_eq!(
            p.next_for(&target("POST", Some("key-aaaa"))),
            Some(Fault::EdgeHtml)
        );
        assert_eq!(
            p.next_for(&target("GET", Some("key-aaaa"))),
            Some(Fault::Status(503))
        );
        assert_eq!(p.next_for(&target("POST", Some("key-aaaa"))), None);
    }

    #[test]
    fn random_schedule_is_reproducible() {
        let run = || {
            let mut p = FaultPlan::default();
            p.set_random(Some(RandomFaults {
                seed: 7,
                faults: vec![(Fault::EdgeHtml, 0.3)],
                matcher: Matcher::any(),
                per_key: false,
            }));
            (0..200)
                .map(|_| p.next("GET", "/v1/x").is_some())
                .collect::<Vec<_>>()
        };
        let a = run();
        assert_eq!(a, run());
        let hits = a.iter().filter(|x| **x).count();
        assert!((30..90).contains(&hits), "{hits}");
    }

    #[test]
    fn per_key_draws_ignore_interleaving_and_commit_faults_spare_reads() {
        let plan = || {
            let mut p = FaultPlan::default();
            p.set_random(Some(RandomFaults {
                seed: 11,
                faults: vec![(Fault::DropAfterCommit, 0.4), (Fault::Status(503), 0.3)],
                matcher: Matcher::any(),
                per_key: true,
            }));
            p
        };
        let target = |method, key| FaultTarget {
            method,
            path: "/v1/x",
            idempotency_key: Some(key),
        };
        let keys = ["key-a", "key-b", "key-c"];
        // One plan sees the keys' requests round-robin, the other key after key.
        let mut interleaved = plan();
        let mut by_key: HashMap<&str, Vec<Option<Fault>>> = HashMap::new();
        for _ in 0..20 {
            for k in keys {
                by_key
                    .entry(k)
                    .or_default()
                    .push(interleaved.next_for(&target("POST", k)));
            }
        }
        let mut sequential = plan();
        for k in keys {
            let alone: Vec<_> = (0..20)
                .map(|_| sequential.next_for(&target("POST", k)))
                .collect();
            assert_eq!(by_key[k], alone, "{k}");
        }
        let all: Vec<_> = by_key.values().flatten().collect();
        assert!(all.contains(&&Some(Fault::DropAfterCommit)));
        assert!(all.contains(&&Some(Fault::Status(503))));
        assert!(all.contains(&&None));
        // Reads never get a fault that strikes after a commit.
        let mut reads = plan();
        let faults: Vec<_> = (0..200)
            .filter_map(|_| reads.next_for(&target("GET", "key-r")))
            .collect();
        assert!(!faults.is_empty());
        assert!(
            faults.iter().all(|f| *f == Fault::Status(503)),
            "{faults:?}"
        );
    }
}
