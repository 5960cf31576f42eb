//! `CallBuilder`: the per-call setters every generated request builder shares.

use std::time::Duration;

use crate::request::CallOptions;
use crate::retry::RetryPolicy;

/// Implements [`CallBuilder`] for a generated request builder whose call options are its
/// `options` field: `sdk_runtime::call_builder!(CreateZone);`.
#[macro_export]
macro_rules! call_builder {
    ($builder:ident) => {
        impl $crate::CallBuilder for $builder<'_> {
            fn call_options(&mut self) -> &mut $crate::CallOptions {
                &mut self.options
            }
        }
    };
}

/// Per-call control for a generated request builder: correlation id, timeouts, retry policy and
/// extra headers. Every builder implements it; bring it into scope with
/// `use cloud_sdk::CallBuilder` (or the SDK's prelude). Each setting is validated before any
/// I/O, and applies to this call only.
pub trait CallBuilder: Sized {
    /// The builder's call options (what the setters below change).
    fn call_options(&mut self) -> &mut CallOptions;

    /// Sets the `x-client-request-id` correlation label (1 to 120 characters).
    fn client_request_id(mut self, id: impl Into<String>) -> Self {
        self.call_options().set_client_request_id(id);
        self
    }

    /// Ties the call to the application's own identifier of what it does: never sent, kept
    /// in the write journal and handed back by recovery (see `CallOptions::set_intent`).
    fn intent(mut self, intent: impl Into<String>) -> Self {
        self.call_options().set_intent(intent);
        self
    }

    /// Limits the whole call, retries and waits included (must be greater than zero).
    fn timeout(mut self, whole_call: Duration) -> Self {
        self.call_options().set_timeout(whole_call);
        self
    }

    /// Limits each HTTP attempt of the call (must be greater than zero).
    fn attempt_timeout(mut self, per_attempt: Duration) -> Self {
        self.call_options().set_attempt_timeout(per_attempt);
        self
    }

    /// Uses this retry policy for this call instead of the client's.
    fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.call_options().set_retry_policy(policy);
        self
    }

    /// Adds a header to this call. A header the SDK sets itself (auth, signing, idempotency,
    /// framing) is refused with a validation error.
    fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.call_options().add_header(name, value);
        self
    }
}
