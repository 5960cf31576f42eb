//! Asynchronous operations: the pending → running → terminal lifecycle (advancing on each poll or
//! by time), test-forced outcomes, and the two response shapes (canonical envelope and legacy).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// Operation status as documented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpStatus {
    /// Accepted, not completed.
    Pending,
    /// Executing.
    Running,
    /// Needs reconciliation; not terminal.
    Unknown,
    /// Completed; exposes a result.
    Succeeded,
    /// Terminal failure.
    Failed,
    /// Terminal cancellation.
    Cancelled,
}

impl OpStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            OpStatus::Pending => "pending",
            OpStatus::Running => "running",
            OpStatus::Unknown => "unknown",
            OpStatus::Succeeded => "succeeded",
            OpStatus::Failed => "failed",
            OpStatus::Cancelled => "cancelled",
        }
    }

    /// True for `succeeded`, `failed`, `cancelled`.
    pub fn done(self) -> bool {
        matches!(
            self,
            OpStatus::Succeeded | OpStatus::Failed | OpStatus::Cancelled
        )
    }
}

/// How operations move forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progression {
    /// One step per poll (`GET /v1/operations/{id}`): pending → running → outcome.
    PerPoll,
    /// One step each time this much time has passed since the previous step.
    ByTime(Duration),
    /// Never advance by itself; tests move operations through the handle.
    Manual,
}

/// How new operations behave, as tests set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationSettings {
    /// How operations and tasks advance.
    pub progression: Progression,
    /// The terminal status new operations reach.
    pub outcome: OpStatus,
}

impl Default for OperationSettings {
    fn default() -> Self {
        Self {
            progression: Progression::PerPoll,
            outcome: OpStatus::Succeeded,
        }
    }
}

/// One asynchronous operation.
#[derive(Clone, Debug, Serialize)]
pub struct OperationRecord {
    /// Opaque id.
    pub id: String,
    /// What it does, e.g. `deploy`, `vps.reboot`.
    pub kind: String,
    /// Current status.
    pub status: OpStatus,
    /// The terminal status reached when it completes.
    pub outcome: OpStatus,
    /// Polls so far.
    pub polls: u32,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Time of the last status change.
    pub changed_at: DateTime<Utc>,
    /// Result exposed once succeeded.
    pub result: Value,
    /// Known identities: `service`, `invoice`, `order` relative URLs.
    pub links: Map<String, Value>,
    /// Legacy `actionId`.
    pub action_id: String,
}

impl OperationRecord {
    /// A new pending operation.
    pub fn new(kind: &str, outcome: OpStatus, result: Value, links: Map<String, Value>) -> Self {
        let now = Utc::now();
        let id = format!("op_{}", uuid::Uuid::new_v4().simple());
        let mut links = links;
        links.insert("operation".into(), json!(format!("/v1/operations/{id}")));
        Self {
            action_id: uuid::Uuid::new_v4().to_string(),
            id,
            kind: kind.into(),
            status: OpStatus::Pending,
            outcome,
            polls: 0,
            created_at: now,
            changed_at: now,
            result,
            links,
        }
    }

    /// Moves one step forward (terminal and unknown receipts never change by themselves).
    pub fn step(&mut self) {
        let next = match self.status {
            OpStatus::Pending => OpStatus::Running,
            OpStatus::Running => self.outcome,
            s => s,
        };
        if next != self.status {
            self.status = next;
            self.changed_at = Utc::now();
        }
    }

    /// Applies the progression rule for one read.
    pub fn advance(&mut self, rule: Progression) {
        match rule {
            Progression::PerPoll => {
                self.polls += 1;
                self.step();
            }
            Progression::ByTime(d) => {
                self.polls += 1;
                for _ in 0..2 {
                    let elapsed = (Utc::now() - self.changed_at).to_std().unwrap_or_default();
                    if elapsed >= d {
                        self.step();
                    }
                }
            }
            Progression::Manual => self.polls += 1,
        }
    }

    /// Forces a status; the first terminal receipt is immutable, so returns false then.
    pub fn force(&mut self, status: OpStatus) -> bool {
        if self.status.done() {
            return false;
        }
        self.status = status;
        self.changed_at = Utc::now();
        true
    }

    /// The `operation` object of the canonical envelope.
    pub fn to_json(&self) -> Value {
        let mut o = json!({
            "id": self.id,
            "status": self.status.as_str(),
            "done": self.status.done(),
            "progress": match self.status { OpStatus::Pending => json!(0), OpStatus::Running => json!(50), s if s.done() => json!(100), _ => Value::Null },
            "stage": match self.status { OpStatus::Pending => "queued", OpStatus::Running => "provisioning", OpStatus::Unknown => "reconciling", _ => "completed" },
            "links": self.links,
        });
        match self.status {
            OpStatus::Succeeded => {
                o["result"] = self.result.clone();
            }
            OpStatus::Failed => {
                o["error"] =
                    json!({"code": "operation_failed", "message": "The operation failed."});
            }
            OpStatus::Cancelled => {
                o["error"] = json!({"code": "operation_cancelled", "message": "The operation was cancelled."});
            }
            _ => {}
        }
        o
    }

    /// The canonical envelope `{ok, operation}`.
    pub fn envelope(&self) -> Value {
        json!({"ok": true, "operation": self.to_json()})
    }

    /// The legacy write shape: `actionId`, `operation_id`, `operation_url`, `links`, plus `extra`.
    pub fn legacy(&self, extra: Value) -> Value {
        let mut o = json!({
            "ok": true,
            "actionId": self.action_id,
            "operation_id": self.id,
            "operation_url": format!("/v1/operations/{}", self.id),
            "links": self.links,
        });
        if let (Some(o), Value::Object(extra)) = (o.as_object_mut(), extra) {
            for (k, v) in extra {
                o.entry(k).or_insert(v);
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_poll_lifecycle_and_immutable_terminal() {
        let mut op = OperationRecord::new("t", OpStatus::Succeeded, json!({"x": 1}), Map::new());
        assert_eq!(op.status, OpStatus::Pending);
        op.advance(Progression::PerPoll);
        assert_eq!(op.status, OpStatus::Running);
        assert!(op.to_json().get("result").is_none());
        op.advance(Progression::PerPoll);
        assert_eq!(op.status, OpStatus::Succeeded);
        assert_eq!(op.to_json()["result"]["x"], 1);
        assert!(!op.force(OpStatus::Failed));
        assert_eq!(op.status, OpStatus::Succeeded);
    }
}
