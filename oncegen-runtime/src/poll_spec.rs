//! How the status of a polled resource settles: the facts of one waiter as data ([`PollSpec`],
//! generated from `x-poll`) and what one observation says ([`Settled`]); [`poll`](crate::poll)
//! waits by them.

use serde_json::Value;

/// How the status of a polled resource settles (generated from the spec's `x-poll`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PollSpec {
    /// JSON pointer of the polled object (the subject) in the read's body; empty: the body.
    pub subject: &'static str,
    /// Member of the subject holding its status.
    pub status: &'static str,
    /// Boolean member of the subject that is true once the status is final, if the API has one.
    pub done: Option<&'static str>,
    /// Statuses that keep polling (used when there is no `done` member).
    pub pending: &'static [&'static str],
    /// Final statuses that mean success (empty: every final status not in `failed`).
    pub succeeded: &'static [&'static str],
    /// Final statuses that mean failure.
    pub failed: &'static [&'static str],
    /// Statuses whose outcome needs reconciliation when they last longer than
    /// [`WaitPolicy::unknown_patience`](crate::WaitPolicy::unknown_patience).
    pub unknown: &'static [&'static str],
}

/// What one observation of a subject says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Not final; the status, if any.
    Pending(Option<String>),
    /// A status whose outcome needs reconciliation.
    Unknown(String),
    /// Final and successful.
    Succeeded,
    /// Final and not successful; the status.
    Failed(Option<String>),
}

impl PollSpec {
    /// The status of `subject` as text (strings as they are, other JSON values as JSON).
    pub fn status_of(&self, subject: &Value) -> Option<String> {
        match subject.get(self.status)? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }

    /// Classifies one observation of the subject.
    pub fn classify(&self, subject: &Value) -> Settled {
        let status = self.status_of(subject);
        let is = |list: &[&str]| status.as_deref().is_some_and(|s| list.contains(&s));
        if is(self.unknown) {
            return Settled::Unknown(status.unwrap_or_default());
        }
        let listed_final = is(self.succeeded) || is(self.failed);
        let done = match self.done {
            Some(member) => subject
                .get(member)
                .and_then(Value::as_bool)
                .unwrap_or(listed_final),
            None => status.is_some() && !is(self.pending),
        };
        if !done {
            Settled::Pending(status)
        } else if is(self.failed) || !(self.succeeded.is_empty() || is(self.succeeded)) {
            Settled::Failed(status)
        } else {
            Settled::Succeeded
        }
    }

    /// The subject inside a read's body (`Null` when the pointer finds nothing).
    pub fn subject_of<'v>(&self, body: &'v Value) -> &'v Value {
        body.pointer(self.subject).unwrap_or(&Value::Null)
    }
}
