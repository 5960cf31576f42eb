//! Fault injection: rules scheduled by tests (next N requests, optionally matching a method and
//! path prefix) and a seeded random schedule with a probability per fault kind, reproducible.

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
    /// Answer 429 `rate_limited` with `Retry-After` seconds, nothing committed.
    RateLimited {
        /// Value of `Retry-After`.
        retry_after: u64,
    },
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
            Some("WRITE") => !matches!(req.method, "GET" | "HEAD" | "OPTIONS"),
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

#[derive(Clone, Debug)]
struct Rule {
    fault: Fault,
    matcher: Matcher,
    remaining: u32,
}

/// A seeded random schedule: each request draws once per entry, in order.
#[derive(Clone, Debug, Default)]
pub struct RandomFaults {
    /// PRNG seed.
    pub seed: u64,
    /// (fault, probability 0..=1) pairs; the first one drawn applies.
    pub faults: Vec<(Fault, f64)>,
    /// Which requests may be hit.
    pub matcher: Matcher,
}

/// The fault plan of one sandbox.
#[derive(Debug, Default)]
pub struct FaultPlan {
    rules: Vec<Rule>,
    random: Option<(RandomFaults, u64)>,
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
        self.random = random.map(|r| {
            let s = r.seed;
            (r, s)
        });
    }

    /// Removes every rule and the random schedule.
    pub fn clear(&mut self) {
        self.rules.clear();
        self.random = None;
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
            for (fault, p) in &random.faults {
                let draw = (splitmix64(state) >> 11) as f64 / (1u64 << 53) as f64;
                if chosen.is_none() && draw < *p {
                    chosen = Some(fault.clone());
                }
            }
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
}
