//! What one running sandbox shares between its connections and its test handle: the contract,
//! and three locks, each guarding one thing: the account [`State`], the [`Edge`] behaviour tests
//! inject, and the [`Journal`] of what happened. Every critical section is short and synchronous:
//! no guard is held across an `.await`.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::faults::FaultPlan;
use crate::journal::Journal;
use crate::ratelimit::RateLimiter;
use crate::seed::SeededCredentials;
use crate::spec::Spec;
use crate::state::State;
use crate::validate::Validators;

/// Behaviour tests inject at the network edge, before any handler runs.
#[derive(Debug, Default)]
pub struct Edge {
    /// Scheduled and random faults.
    pub faults: FaultPlan,
    /// Per-credential rate limiting.
    pub rate_limiter: RateLimiter,
}

/// Everything one sandbox holds.
#[derive(Debug)]
pub struct Shared {
    /// The contract.
    pub spec: Arc<Spec>,
    /// Its validators.
    pub validators: Arc<Validators>,
    /// The seeded credentials.
    pub seeded: SeededCredentials,
    state: Mutex<State>,
    edge: Mutex<Edge>,
    journal: Mutex<Journal>,
}

impl Shared {
    /// A sandbox serving `spec` with this initial state and edge.
    pub(crate) fn new(
        spec: Arc<Spec>,
        validators: Arc<Validators>,
        seeded: SeededCredentials,
        state: State,
        edge: Edge,
    ) -> Self {
        Self {
            spec,
            validators,
            seeded,
            state: Mutex::new(state),
            edge: Mutex::new(edge),
            journal: Mutex::new(Journal::default()),
        }
    }

    /// The account state: ledger, credentials, idempotent writes, operations.
    pub fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// The faults and rate limits tests configured.
    pub fn edge(&self) -> MutexGuard<'_, Edge> {
        lock(&self.edge)
    }

    /// The request log and the schema violations seen so far.
    pub fn journal(&self) -> MutexGuard<'_, Journal> {
        lock(&self.journal)
    }
}

/// Locks `mutex`; a handler that panicked while holding it does not take the sandbox down.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
