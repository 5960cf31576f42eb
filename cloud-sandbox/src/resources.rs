//! The account's resources beyond the ledger: webhook endpoints, per-VPS backups, snapshots,
//! power state and applied firewall policy, firewall policies, storage volume attachments,
//! DNS templates, domain contacts and their assignment, and website (Service DNS/WAF) uploads.
//! Records the reference describes are kept as the JSON the API shows.

use std::collections::HashMap;

use serde_json::Value;
use uuid::Uuid;

/// What one VPS service holds.
#[derive(Clone, Debug)]
pub struct Vps {
    /// `running` or `stopped` (runtime power state, separate from the service status).
    pub power_state: String,
    /// Backup file names, oldest first.
    pub backups: Vec<String>,
    /// Snapshot names.
    pub snapshots: Vec<String>,
    /// The firewall policy applied to it.
    pub firewall_policy: Option<Value>,
    /// The backup file last restored.
    pub restored_from: Option<String>,
}

impl Default for Vps {
    /// A VPS as seeded: running, one nightly backup and a `nightly` snapshot.
    fn default() -> Self {
        Self {
            power_state: "running".into(),
            backups: vec!["backup-nightly.tar.gz".into()],
            snapshots: vec!["nightly".into()],
            firewall_policy: None,
            restored_from: None,
        }
    }
}

/// The account's resources.
#[derive(Debug, Default)]
pub struct Resources {
    /// Webhook endpoints (`WebhookEndpoint` records).
    pub webhooks: Vec<Value>,
    /// Per VPS service.
    pub vps: HashMap<Uuid, Vps>,
    /// Firewall policies (`FirewallPolicy` records), oldest first.
    pub firewall_policies: Vec<Value>,
    /// Storage volume (its service) → the server it is attached to.
    pub volume_attachments: HashMap<Uuid, Uuid>,
    /// DNS templates (`DnsTemplate` records), the seeded system ones first.
    pub dns_templates: Vec<Value>,
    /// Domain contacts (`DomainContact` records) with their handle.
    pub contacts: Vec<(Value, String)>,
    /// Domain name → its assigned contact ids by role.
    pub domain_contacts: HashMap<String, Value>,
    /// Website uploads per service: `loader` and `ssl` entries by `domain/name`.
    pub websites: HashMap<Uuid, HashMap<String, Value>>,
    /// Rescue mode per dedicated service (off unless set).
    pub rescue_enabled: HashMap<Uuid, bool>,
}
