//! The idempotency store: one entry per (credential, method, path, key). Same key and same body
//! bytes replay the stored response; a different request is a conflict; a request still running
//! answers `idempotency_in_progress`. It also keeps the lookup identities of `GET /v1/operations`.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::errors::ApiError;

/// A stored response, replayed verbatim (status, body, content type).
#[derive(Clone, Debug)]
pub struct StoredResponse {
    /// HTTP status.
    pub status: u16,
    /// Body bytes.
    pub body: bytes::Bytes,
}

/// How long a stored response is replayed (reference part 8).
pub const RETENTION_HOURS: i64 = 24;

#[derive(Clone, Debug)]
enum Slot {
    InFlight,
    Done(StoredResponse, DateTime<Utc>),
}

#[derive(Clone, Debug)]
struct Entry {
    fingerprint: [u8; 32],
    slot: Slot,
}

/// The identity of an idempotent write, kept for operation lookup.
#[derive(Clone, Debug)]
pub struct LookupIdentity {
    /// The credential that sent the write.
    pub credential_id: Uuid,
    /// Uppercase method.
    pub method: String,
    /// Exact path.
    pub path: String,
    /// The Idempotency-Key.
    pub key: String,
    /// The operation created by the write.
    pub operation_id: String,
}

/// What to do with an incoming keyed write.
#[derive(Debug)]
pub enum Begin {
    /// First time: run it (the slot is now in flight).
    Run,
    /// Replay this stored response.
    Replay(StoredResponse),
}

/// Store key: credential, method, path, idempotency key.
pub type StoreKey = (Uuid, String, String, String);

/// The store.
#[derive(Debug, Default)]
pub struct IdempotencyStore {
    entries: HashMap<StoreKey, Entry>,
    /// Lookup identities, in creation order.
    pub identities: Vec<LookupIdentity>,
}

/// SHA-256 of the request body bytes (plus the query string, which is part of the request).
pub fn fingerprint(query: &str, body: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(query.as_bytes());
    h.update([0u8]);
    h.update(body);
    h.finalize().into()
}

impl IdempotencyStore {
    /// Decides what an incoming write does.
    /// After [`RETENTION_HOURS`] the stored response is gone but the write's identity stays
    /// (durable writes): the write is never run again, and a retry answers 409
    /// `idempotency_conflict` pointing at the operation lookup.
    pub fn begin(
        &mut self,
        key: &StoreKey,
        fp: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Begin, ApiError> {
        match self.entries.get(key) {
            None => {
                self.entries.insert(key.clone(), Entry { fingerprint: fp, slot: Slot::InFlight });
                Ok(Begin::Run)
            }
            Some(e) if e.fingerprint != fp => Err(ApiError::new(
                409,
                "idempotency_conflict",
                "This Idempotency-Key was already used for a different request.",
            )),
            Some(Entry { slot: Slot::InFlight, .. }) => Err(ApiError::new(
                409,
                "idempotency_in_progress",
                "A matching request is still processing; retry later with the same key and request.",
            )
            .with_retry_after(1)),
            Some(Entry { slot: Slot::Done(_, at), .. }) if now - *at > Duration::hours(RETENTION_HOURS) => {
                Err(ApiError::new(
                    409,
                    "idempotency_conflict",
                    "The stored response of this write expired after 24 hours; the write was applied once and is not repeated. Look it up with GET /v1/operations.",
                ))
            }
            Some(Entry { slot: Slot::Done(r, _), .. }) => Ok(Begin::Replay(r.clone())),
        }
    }

    /// Stores the outcome: 2xx responses are kept for replay; others release the key.
    pub fn finish(&mut self, key: &StoreKey, response: Option<StoredResponse>, now: DateTime<Utc>) {
        match response {
            Some(r) if (200..300).contains(&r.status) => {
                if let Some(e) = self.entries.get_mut(key) {
                    e.slot = Slot::Done(r, now);
                }
            }
            _ => {
                self.entries.remove(key);
            }
        }
    }

    /// Number of keyed entries (for tests).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no keyed entry exists.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> StoreKey {
        (Uuid::nil(), "POST".into(), "/v1/x".into(), name.into())
    }

    fn stored(status: u16) -> Option<StoredResponse> {
        Some(StoredResponse {
            status,
            body: "{}".into(),
        })
    }

    #[test]
    fn replay_conflict_in_progress() {
        let mut s = IdempotencyStore::default();
        let k = key("key-00001");
        assert!(matches!(
            s.begin(&k, fingerprint("", b"a"), Utc::now()),
            Ok(Begin::Run)
        ));
        assert_eq!(
            s.begin(&k, fingerprint("", b"a"), Utc::now())
                .unwrap_err()
                .code,
            "idempotency_in_progress"
        );
        assert_eq!(
            s.begin(&k, fingerprint("", b"b"), Utc::now())
                .unwrap_err()
                .code,
            "idempotency_conflict"
        );
        s.finish(&k, stored(200), Utc::now());
        assert!(matches!(
            s.begin(&k, fingerprint("", b"a"), Utc::now()),
            Ok(Begin::Replay(_))
        ));
        let later = Utc::now() + Duration::hours(RETENTION_HOURS + 1);
        let expired = s.begin(&k, fingerprint("", b"a"), later).unwrap_err();
        assert_eq!(expired.code, "idempotency_conflict", "never run again");
    }

    #[test]
    fn a_failed_write_releases_its_key() {
        let mut s = IdempotencyStore::default();
        let k = key("key-00002");
        assert!(matches!(
            s.begin(&k, fingerprint("", b"a"), Utc::now()),
            Ok(Begin::Run)
        ));
        s.finish(&k, stored(402), Utc::now());
        assert!(matches!(
            s.begin(&k, fingerprint("", b"a"), Utc::now()),
            Ok(Begin::Run)
        ));
    }
}
