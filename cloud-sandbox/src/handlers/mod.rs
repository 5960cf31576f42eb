//! Handlers by area, and the table that routes each operation of the spec to its handler by
//! `operationId`. Every operation of the spec answers from state; [`generic::answer`] serves
//! only operations a revised spec adds.

mod context;

pub mod billing;
pub mod catalog;
pub mod contacts;
pub mod dedicated;
pub mod deploy;
pub mod dns;
pub mod generic;
pub mod integrations;
pub mod services;
pub mod ssh;
pub mod storage;
pub mod tcp_proxy;
pub mod templates;
pub mod vps;
pub mod webhooks;
pub mod websites;

pub use context::{Ctx, Handler, Reply};

/// Every operation of the spec, by `operationId`, with its handler.
pub const HANDLERS: &[(&str, Handler)] = &[
    // Integrations and operations.
    ("getVersion", integrations::version),
    ("getCapabilities", integrations::capabilities),
    ("apiCredentials", integrations::list_credentials),
    ("apiCredentialCreate", integrations::create_credential),
    ("apiCredential", integrations::get_credential),
    ("patchWebhooksById", webhooks::update),
    ("webhookDelete", webhooks::delete),
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
    ("getServicesGrouped", services::grouped),
    ("serviceBillingChangeCheckout", services::change_checkout),
    ("serviceRenewalCheckout", services::renewal_checkout),
    // VPS.
    ("vpsBackupRestore", vps::backup_restore),
    ("vpsBackupRun", vps::backup_run),
    ("postVpsByServiceIdReboot", vps::reboot),
    ("vpsSnapshotRollback", vps::snapshot_rollback),
    ("vpsFirewallPolicyApply", vps::firewall_apply),
    // Dedicated servers.
    ("dedicatedDeploy", dedicated::deploy),
    ("dedicatedPasswordReset", dedicated::password_reset),
    (
        "getDedicatedByServiceIdRescueOptions",
        dedicated::rescue_options,
    ),
    ("dedicatedTasks", dedicated::tasks),
    ("dedicatedTask", dedicated::task),
    ("getDedicatedByServiceIdTraffic", dedicated::traffic),
    // DNS and domains.
    ("getDnsTemplates", templates::list),
    ("dnsTemplateCreate", templates::create),
    ("getDnsTemplate", templates::get),
    ("listDnsZones", dns::list_zones),
    ("createDnsZone", dns::create_zone),
    ("getDnsZone", dns::get_zone),
    (
        "serviceDnsWafProxyConfigUploadLoader",
        websites::upload_loader,
    ),
    ("serviceDnsWafProxyConfigUploadSsl", websites::upload_ssl),
    ("domainContactCreate", contacts::create),
    ("domainAssignContacts", contacts::assign),
    ("getDomainsByServiceIdDnssec", dns::get_dnssec),
    ("postDomainsByServiceIdDnssec", dns::enable_dnssec),
    // TCP proxy, SSH keys, firewall, storage.
    ("getTcpProxy", tcp_proxy::get),
    ("tcpProxyUpdate", tcp_proxy::update),
    ("sshKeyImport", ssh::import),
    ("sshKeyGenerate", ssh::generate),
    ("firewallPolicyCreate", vps::create_policy),
    ("storageVolumeAttach", storage::attach),
    ("storageVolumeDetach", storage::detach),
];

/// The handler of an `operationId`; [`generic::answer`] only for operations the table does
/// not know (an operation a revised spec passed in `SandboxConfig::spec_yaml` adds).
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
                "{}: list it once in HANDLERS, with a handler that answers from state",
                op.operation_id
            );
        }
        for (id, handler) in HANDLERS {
            assert!(
                !std::ptr::fn_addr_eq(*handler, super::generic::answer as super::Handler),
                "{id} answers from generic::answer alone: give it a handler that keeps state"
            );
            assert!(
                SPEC.operations.iter().any(|o| o.operation_id == *id),
                "{id} is not an operationId of the spec"
            );
        }
    }
}
