//! Handlers by area, and the table that routes each operation of the spec to its handler by
//! `operationId`: hand-written where the sandbox keeps state, [`generic::answer`] where a
//! documented-shape answer is enough.

mod context;

pub mod billing;
pub mod catalog;
pub mod dedicated;
pub mod deploy;
pub mod dns;
pub mod generic;
pub mod integrations;
pub mod ssh;
pub mod tcp_proxy;

pub use context::{Ctx, Handler, Reply};

/// Every operation of the spec, by `operationId`, with its handler.
pub const HANDLERS: &[(&str, Handler)] = &[
    // Integrations and operations.
    ("getVersion", integrations::version),
    ("getCapabilities", integrations::capabilities),
    ("apiCredentials", integrations::list_credentials),
    ("apiCredentialCreate", integrations::create_credential),
    ("apiCredential", integrations::get_credential),
    ("patchWebhooksById", generic::answer),
    ("webhookDelete", generic::answer),
    ("getOperations", integrations::lookup_operation),
    ("getOperationsByOperationId", integrations::get_operation),
    // Catalog and deployment.
    ("getRegions", catalog::regions),
    ("getProducts", catalog::products),
    ("getProductsByRegion", catalog::products),
    ("getDedicatedImages", catalog::images),
    ("productVariantDeploy", deploy::deploy),
    // Billing and services.
    ("payInvoice", billing::pay_invoice),
    ("billingOrderDraft", billing::draft_order),
    ("billingServices", billing::billing_services),
    ("billingTransactions", billing::transactions),
    ("getServices", billing::services),
    ("getServicesGrouped", generic::answer),
    ("serviceBillingChangeCheckout", generic::answer),
    ("serviceRenewalCheckout", generic::answer),
    // VPS.
    ("vpsBackupRestore", generic::answer),
    ("vpsBackupRun", generic::answer),
    ("postVpsByServiceIdReboot", generic::answer),
    ("vpsSnapshotRollback", generic::answer),
    ("vpsFirewallPolicyApply", generic::answer),
    // Dedicated servers.
    ("dedicatedDeploy", dedicated::deploy),
    ("dedicatedPasswordReset", dedicated::password_reset),
    ("getDedicatedByServiceIdRescueOptions", generic::answer),
    ("dedicatedTasks", dedicated::tasks),
    ("dedicatedTask", dedicated::task),
    ("getDedicatedByServiceIdTraffic", generic::answer),
    // DNS and domains.
    ("getDnsTemplates", generic::answer),
    ("dnsTemplateCreate", generic::answer),
    ("getDnsTemplate", generic::answer),
    ("listDnsZones", dns::list_zones),
    ("createDnsZone", dns::create_zone),
    ("getDnsZone", dns::get_zone),
    ("serviceDnsWafProxyConfigUploadLoader", generic::answer),
    ("serviceDnsWafProxyConfigUploadSsl", generic::answer),
    ("domainContactCreate", generic::answer),
    ("domainAssignContacts", generic::answer),
    ("getDomainsByServiceIdDnssec", dns::get_dnssec),
    ("postDomainsByServiceIdDnssec", dns::enable_dnssec),
    // TCP proxy, SSH keys, firewall, storage.
    ("getTcpProxy", tcp_proxy::get),
    ("tcpProxyUpdate", tcp_proxy::update),
    ("sshKeyImport", generic::answer),
    ("sshKeyGenerate", ssh::generate),
    ("firewallPolicyCreate", generic::answer),
    ("storageVolumeAttach", generic::answer),
    ("storageVolumeDetach", generic::answer),
];

/// The handler of an `operationId`; [`generic::answer`] for operations the table does not
/// know (those of a spec passed in `SandboxConfig::spec_yaml`).
pub fn handler_for(operation_id: &str) -> Handler {
    HANDLERS
        .iter()
        .find(|(id, _)| *id == operation_id)
        .map_or(generic::answer as Handler, |(_, h)| *h)
}

#[cfg(test)]
mod tests {
    use super::HANDLERS;
    use crate::spec::SPEC;

    #[test]
    fn the_table_lists_every_spec_operation_once_and_nothing_else() {
        for op in &SPEC.operations {
            let entries = HANDLERS
                .iter()
                .filter(|(id, _)| *id == op.operation_id)
                .count();
            assert_eq!(
                entries, 1,
                "{}: list it once in HANDLERS (generic::answer for a generic answer)",
                op.operation_id
            );
        }
        for (id, _) in HANDLERS {
            assert!(
                SPEC.operations.iter().any(|o| o.operation_id == *id),
                "{id} is not an operationId of the spec"
            );
        }
    }
}
