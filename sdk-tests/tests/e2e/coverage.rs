//! Every documented operation gets a real round trip through the generated SDK, and the test
//! fails when an operation of `spec/openapi.yaml` has none.
//!
//! The calls run in sequence in one test against one sandbox, signed mode (the runtime's default
//! canonical string) throughout; the check afterwards compares the operationIds the sandbox
//! routed and answered 2xx (its request log) with those parsed from the spec file.

use std::collections::BTreeSet;

use cloud_sandbox::Sandbox;

use customer_cloud_sdk::{
    billing, catalog, dedicated_servers, deployments, dns, domains, firewall, integrations,
    service_dns_waf, services, ssh, storage, tcp_proxy, vps,
};
use futures::TryStreamExt;
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::harness::{Env, spec_operation_ids};

/// The generated SDK's client.
type Client = customer_cloud_sdk::Client;

/// Awaits an SDK call and panics with the operation's name on any error.
macro_rules! ok {
    ($what:literal, $call:expr) => {
        match $call.await {
            Ok(response) => response.into_body(),
            Err(e) => panic!("{}: {e}", $what),
        }
    };
}

/// The `id` of the first listed service of a type (items of `GET /v1/services` are untyped).
fn first_of(items: &[serde_json::Map<String, serde_json::Value>], kind: &str) -> (Uuid, String) {
    let item = items
        .iter()
        .find(|i| i.get("type").and_then(|t| t.as_str()) == Some(kind))
        .unwrap_or_else(|| panic!("no {kind} service listed"));
    let id = item["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("id");
    let host = item["hostname"].as_str().unwrap_or_default().to_owned();
    (id, host)
}

fn json_str(v: Option<&serde_json::Value>) -> String {
    v.and_then(|v| v.as_str()).expect("a string").to_owned()
}

#[tokio::test]
async fn every_documented_operation_has_a_round_trip() {
    let Some(env) = Env::sandbox_only(
        "every_documented_operation_has_a_round_trip",
        "seeded services and the request log",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let c = env.client_as(&sb.credentials().signed);
    integrations(&c, sb).await;
    let plans = catalog(&c).await;
    deployments(&c, &plans).await;
    billing(&c, sb, &plans.vps).await;
    let ids = services(&c).await;
    vps(&c, ids.vps).await;
    dedicated(&c, &plans.image, ids.dedicated).await;
    dns(&c).await;
    website_protection(&c, ids.vps).await;
    domains(&c, ids.domain).await;
    tcp_proxy(&c, ids.proxy).await;
    ssh(&c).await;
    storage(&c, sb, ids.vps).await;
    assert_every_spec_operation_covered(sb);
    assert_signed_throughout(sb);
}

/// Version, capabilities, API credentials (issue, list, read) and webhooks (update, delete).
async fn integrations(c: &Client, sb: &Sandbox) {
    ok!("getVersion", c.get_version().send());
    ok!("getCapabilities", c.get_capabilities().send());
    let created = ok!(
        "apiCredentialCreate",
        c.api_credential_create(
            integrations::ApiCredentialCreateRequest::new(
                integrations::ApiCredentialCreateRequestArgs {
                    name: "e2e coverage".to_owned(),
                    scopes: vec![
                        integrations::ApiCredentialCreateRequestScopesItem::BillingServicesRead,
                    ],
                },
            )
            .mode(integrations::ApiCredentialCreateRequestMode::Bearer),
        )
        .send()
    );
    assert!(
        created.secret.is_some(),
        "the secret is returned on issuance"
    );
    let credential_id = created.item.id.expect("credential id");
    let listed = ok!("apiCredentials", c.api_credentials().limit(100).send());
    assert!(listed.items.iter().any(|i| i.id == Some(credential_id)));
    ok!("apiCredential", c.api_credential(credential_id).send());
    let webhook: Uuid = sb.resources(|r| r.webhooks[0]["id"].as_str().unwrap().parse().unwrap());
    ok!(
        "patchWebhooksById",
        c.patch_webhooks_by_id(
            webhook,
            integrations::WebhookUpdateRequest::new().enabled(false)
        )
        .send()
    );
    ok!("webhookDelete", c.webhook_delete(webhook).send());
    assert_eq!(
        c.webhook_delete(webhook)
            .send()
            .await
            .expect_err("deleted")
            .status(),
        Some(404),
        "a deleted endpoint is gone"
    );
}

/// What the catalog offers that later calls buy or install.
struct Plans {
    /// The first listed VPS plan.
    vps: catalog::CatalogProduct,
    /// Its region.
    region: String,
    /// The first dedicated OS image.
    image: catalog::DedicatedOsProfile,
}

/// Regions (every page), products (all and by region) and dedicated images.
async fn catalog(c: &Client) -> Plans {
    let regions: Vec<catalog::Region> = c
        .get_regions()
        .into_stream()
        .try_collect()
        .await
        .expect("getRegions");
    assert!(regions.len() > 1);
    let products = ok!(
        "getProducts",
        c.get_products()
            .product_code(customer_cloud_sdk::catalog::GetProductsProductCode::Vps)
            .limit(5)
            .send()
    );
    let region = products.items[0].region.clone().expect("region");
    ok!(
        "getProductsByRegion",
        c.get_products_by_region(region.clone()).limit(3).send()
    );
    let images = ok!(
        "getDedicatedImages",
        c.get_dedicated_images().limit(5).send()
    );
    assert!(!images.items.is_empty());
    Plans {
        vps: products.items.into_iter().next().expect("a VPS plan"),
        region,
        image: images.items.into_iter().next().expect("an image"),
    }
}

/// An atomic deploy as an operation, found by its key and by its id.
async fn deployments(c: &Client, plans: &Plans) {
    let (region, vps_plan) = (&plans.region, &plans.vps);
    let key = format!("coverage-deploy-{}", Uuid::new_v4().simple());
    let receipt = ok!(
        "productVariantDeploy",
        c.product_variant_deploy(
            deployments::ProductVariantDeployArgs {
                region: region.clone(),
                product_code: customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                variant_code: vps_plan.variant_code.clone().expect("variant code"),
            },
            deployments::ProductVariantDeployRequest::DeployRequest(
                deployments::DeployRequest::new()
                    .hostname("coverage.example.net".to_owned())
                    .max_total(vps_plan.price.expect("price") + Decimal::ONE),
            ),
        )
        .idempotency_key(key.clone())
        .operation_format(true)
        .send()
    );
    let op_id = receipt.operation_id().expect("operation id");
    let deploy_path = format!(
        "/v1/deploy/{region}/vps/{}",
        vps_plan.variant_code.as_deref().unwrap()
    );
    ok!(
        "getOperations",
        c.get_operations()
            .idempotency_key(key)
            .method("POST")
            .path(deploy_path)
            .send()
    );
    ok!(
        "getOperationsByOperationId",
        c.get_operations_by_operation_id(op_id).send()
    );
}

/// A draft order, an invoice payment, billed services and transactions.
async fn billing(c: &Client, sb: &Sandbox, vps_plan: &catalog::CatalogProduct) {
    let draft = billing::BillingOrderDraftRequest::new()
        .currency(billing::BillingOrderDraftRequestCurrency::Eur)
        .items(vec![
            billing::DraftOrderItem::new()
                .product_id(vps_plan.product_id.expect("product id"))
                .variant_id(vps_plan.variant_id.expect("variant id"))
                .qty(1),
        ]);
    ok!("billingOrderDraft", c.billing_order_draft(draft).send());
    // The draft's response body and the invoice listing are not shown by the reference: the
    // invoice to pay comes from the sandbox (see flows.rs).
    let invoice = sb.add_unpaid_invoice(Decimal::new(1234, 2));
    ok!("payInvoice", c.pay_invoice(invoice).send());
    ok!("billingServices", c.billing_services().limit(10).send());
    ok!(
        "billingTransactions",
        c.billing_transactions().limit(10).send()
    );
}

/// The seeded services later calls act on.
struct ServiceIds {
    vps: Uuid,
    dedicated: Uuid,
    /// The domain's name (domain operations take it as their service id).
    domain: String,
    proxy: Uuid,
}

/// The service listings (flat and grouped) and a VPS's billing-cycle and renewal checkouts.
async fn services(c: &Client) -> ServiceIds {
    let listed = ok!("getServices", c.get_services().limit(100).send());
    ok!(
        "getServicesGrouped",
        c.get_services_grouped()
            .status(services::GetServicesGroupedStatus::Active)
            .send()
    );
    let (vps_id, _) = first_of(&listed.items, "vps");
    let (dedicated_id, _) = first_of(&listed.items, "dedicated");
    let (_, domain_name) = first_of(&listed.items, "domain");
    let (proxy_id, _) = first_of(&listed.items, "tcp-proxy");
    let cycle =
        services::BillingCycleCheckoutRequest::new(services::BillingCycleCheckoutRequestArgs {
            count: 3,
            unit: "MONTH".to_owned(),
        });
    ok!(
        "serviceBillingChangeCheckout",
        c.service_billing_change_checkout(vps_id, cycle.clone())
            .send()
    );
    ok!(
        "serviceRenewalCheckout",
        c.service_renewal_checkout(vps_id, cycle).send()
    );
    ServiceIds {
        vps: vps_id,
        dedicated: dedicated_id,
        domain: domain_name,
        proxy: proxy_id,
    }
}

/// A VPS's reboot, backups, snapshot rollback, and a firewall policy applied to it.
async fn vps(c: &Client, vps_id: Uuid) {
    ok!(
        "postVpsByServiceIdReboot",
        c.post_vps_by_service_id_reboot(vps_id).send()
    );
    ok!(
        "vpsBackupRestore",
        c.vps_backup_restore(vps_id)
            .body(vps::VpsBackupRestoreRequest::new().auto_start(true))
            .send()
    );
    ok!("vpsBackupRun", c.vps_backup_run(vps_id).send());
    ok!(
        "vpsSnapshotRollback",
        c.vps_snapshot_rollback(vps::VpsSnapshotRollbackArgs {
            service_id: vps_id,
            name: "nightly".to_owned(),
        })
        .send()
    );
    ok!(
        "firewallPolicyCreate",
        c.firewall_policy_create(
            firewall::FirewallPolicyCreateRequest::new("web".to_owned()).rules(vec![
                firewall::FirewallRule::new(firewall::FirewallRuleAction::Accept)
                    .proto(firewall::FirewallRuleProto::Tcp)
                    .dport(serde_json::json!(22)),
            ])
        )
        .send()
    );
    ok!(
        "vpsFirewallPolicyApply",
        c.vps_firewall_policy_apply(vps_id).send()
    );
}

/// A dedicated deploy from `image`, and a dedicated server's password reset, tasks, rescue
/// options and traffic.
async fn dedicated(c: &Client, image: &catalog::DedicatedOsProfile, dedicated_id: Uuid) {
    ok!(
        "dedicatedDeploy",
        c.dedicated_deploy(dedicated_servers::DedicatedDeployRequest::new(
            dedicated_servers::DedicatedDeployRequestArgs {
                // Types of the OS profile's fields are not shown: they arrive as JSON values.
                configuration_code: json_str(image.configuration_code.as_ref()),
                hostname: "dedi-coverage.example.net".to_owned(),
                // The profile id is typed (integer > 0): the request's `os_profile_id` as is.
                os_profile_id: image.id.expect("image id"),
                region_code: json_str(image.region.as_ref()),
            }
        ))
        .send()
    );
    ok!(
        "dedicatedPasswordReset",
        c.dedicated_password_reset(dedicated_id).send()
    );
    // The reset's response body is not shown: the task is found through the task list.
    let tasks = ok!("dedicatedTasks", c.dedicated_tasks(dedicated_id).send());
    let task_id = tasks.tasks[0].id.expect("task id");
    ok!(
        "dedicatedTask",
        c.dedicated_task(dedicated_servers::DedicatedTaskArgs {
            service_id: dedicated_id,
            task_id,
        })
        .send()
    );
    ok!(
        "getDedicatedByServiceIdRescueOptions",
        c.get_dedicated_by_service_id_rescue_options(dedicated_id)
            .send()
    );
    ok!(
        "getDedicatedByServiceIdTraffic",
        c.get_dedicated_by_service_id_traffic(dedicated_id).send()
    );
}

/// DNS templates and zones (create, list, read).
async fn dns(c: &Client) {
    ok!(
        "dnsTemplateCreate",
        c.dns_template_create(dns::DnsTemplateCreateRequest::new(
            dns::DnsTemplateCreateRequestArgs {
                name: "e2e-template".to_owned(),
                zone_file: "@ 3600 IN A 192.0.2.1\n".to_owned(),
            }
        ))
        .send()
    );
    ok!("getDnsTemplates", c.get_dns_templates().send());
    ok!("getDnsTemplate", c.get_dns_template("e2e-template").send());
    ok!(
        "createDnsZone",
        c.create_dns_zone(dns::CreateDnsZoneRequest::new(
            "coverage.example".to_owned()
        ))
        .send()
    );
    ok!("listDnsZones", c.list_dns_zones().send());
    ok!("getDnsZone", c.get_dns_zone("coverage.example").send());
}

/// Website protection of the zone [`dns`] created: a loader page and a certificate.
async fn website_protection(c: &Client, vps_id: Uuid) {
    ok!(
        "serviceDnsWafProxyConfigUploadLoader",
        c.service_dns_waf_proxy_config_upload_loader(
            vps_id,
            service_dns_waf::WebsiteLoaderUploadRequest::new(
                service_dns_waf::WebsiteLoaderUploadRequestArgs {
                    domain: "coverage.example".to_owned(),
                    html: "<html>loading</html>".to_owned(),
                    name: "www".to_owned(),
                },
            ),
        )
        .send()
    );
    ok!(
        "serviceDnsWafProxyConfigUploadSsl",
        c.service_dns_waf_proxy_config_upload_ssl(
            vps_id,
            service_dns_waf::WebsiteSslUploadRequest::new(
                service_dns_waf::WebsiteSslUploadRequestArgs {
                    cert: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
                        .to_owned(),
                    domain: "coverage.example".to_owned(),
                    mode: service_dns_waf::WebsiteSslUploadRequestMode::C,
                    name: "www".to_owned(),
                    pkey: "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n".into(),
                },
            ),
        )
        .send()
    );
}

/// A domain contact, assigned to the domain `domain_name`, and the domain's DNSSEC.
async fn domains(c: &Client, domain_name: String) {
    let contact = ok!(
        "domainContactCreate",
        c.domain_contact_create(domains::DomainContactCreateRequest::new(
            domains::DomainContactCreateRequestArgs {
                address: domains::DomainContactAddress::new(domains::DomainContactAddressArgs {
                    city: "London".to_owned(),
                    country: "GB".to_owned(),
                    number: "10".to_owned(),
                    street: "Downing Street".to_owned(),
                    zipcode: "SW1A 2AA".to_owned(),
                }),
                email: "ada@example.com".to_owned(),
                first_name: "Ada".to_owned(),
                last_name: "Lovelace".to_owned(),
                phone: "+44.2071234567".to_owned(),
            }
        ))
        .send()
    );
    let contact_id: Uuid = contact
        .contact
        .and_then(|c| c.id)
        .and_then(|id| id.as_str()?.parse().ok())
        .expect("contact id");
    ok!(
        "domainAssignContacts",
        c.domain_assign_contacts(
            domain_name.clone(),
            domains::DomainAssignContactsRequest::new()
                .contact_ids(domains::DomainContactIds::new().registrant(contact_id)),
        )
        .send()
    );
    ok!(
        "postDomainsByServiceIdDnssec",
        c.post_domains_by_service_id_dnssec(
            domain_name.clone(),
            domains::DomainDnssecEnableRequest::new(true),
        )
        .send()
    );
    ok!(
        "getDomainsByServiceIdDnssec",
        c.get_domains_by_service_id_dnssec(domain_name).send()
    );
}

/// A TCP proxy read and updated.
async fn tcp_proxy(c: &Client, proxy_id: Uuid) {
    ok!("getTcpProxy", c.get_tcp_proxy(proxy_id).send());
    ok!(
        "tcpProxyUpdate",
        c.tcp_proxy_update(
            proxy_id,
            tcp_proxy::TcpProxyUpdateRequest::new()
                .blocked_source_cidrs(vec!["203.0.113.0/24".to_owned()]),
        )
        .send()
    );
}

/// An SSH key imported, and one generated whose private key is returned once as a secret.
async fn ssh(c: &Client) {
    ok!(
        "sshKeyImport",
        c.ssh_key_import(ssh::SshKeyImportRequest::new(ssh::SshKeyImportRequestArgs {
            name: "laptop".to_owned(),
            public_key:
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e e2e"
                    .to_owned(),
        }))
        .send()
    );
    let generated = ok!(
        "sshKeyGenerate",
        c.ssh_key_generate(ssh::SshKeyGenerateRequest::new(
            ssh::SshKeyGenerateRequestArgs {
                name: "generated".to_owned(),
                passphrase: "correct horse battery staple".into(),
            }
        ))
        .send()
    );
    // The private key (under a member name the reference does not show) is held as a secret:
    // readable on purpose, never printed.
    let private_key = generated
        .additional_properties
        .values()
        .map(|v| v.expose_secret())
        .find(|v| v.contains("PRIVATE KEY"))
        .expect("the generated private key is returned once");
    assert!(!private_key.is_empty());
    assert!(!format!("{generated:?}").contains("PRIVATE KEY"));
}

/// A storage volume attached to the VPS and detached, checked on the sandbox.
async fn storage(c: &Client, sb: &Sandbox, vps_id: Uuid) {
    let volume = sb.add_service("storage", "volume-1", "active");
    ok!(
        "storageVolumeAttach",
        c.storage_volume_attach(volume, storage::StorageVolumeAttachRequest::new(vps_id))
            .send()
    );
    assert_eq!(
        sb.resources(|r| r.volume_attachments.get(&volume).copied()),
        Some(vps_id)
    );
    ok!(
        "storageVolumeDetach",
        c.storage_volume_detach(volume).send()
    );
    assert!(sb.resources(|r| r.volume_attachments.is_empty()));
}

/// The check: every spec operation had a 2xx round trip (from the sandbox's request log), and
/// the sandbox routed nothing else.
fn assert_every_spec_operation_covered(sb: &Sandbox) {
    // How many operations the reference shows is spec_contract's check; this one follows the spec.
    let spec = spec_operation_ids();
    let served: BTreeSet<String> = sb.spec_operations().into_iter().collect();
    assert_eq!(
        served, spec,
        "the sandbox serves exactly the spec's operations"
    );
    let covered: BTreeSet<String> = sb.covered_operations().into_iter().collect();
    assert!(!covered.is_empty(), "the request log recorded round trips");
    let missing: Vec<&String> = spec.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "operations without an end-to-end round trip: {missing:?}"
    );
    let unknown: Vec<&String> = covered.difference(&spec).collect();
    assert!(
        unknown.is_empty(),
        "routed operations not in the spec: {unknown:?}"
    );
    println!(
        "coverage: {} of {} operations had a 2xx round trip through customer-cloud-sdk",
        covered.len(),
        spec.len()
    );
}

/// Every authenticated round trip went through signed mode with the seeded credential.
fn assert_signed_throughout(sb: &Sandbox) {
    let signed = sb.credentials().signed.id;
    let log = sb.requests();
    assert!(
        log.iter()
            .all(|r| r.credential_id.is_none_or(|id| id == signed))
    );
    let authenticated = sb
        .shared()
        .spec
        .operations
        .iter()
        .filter(|o| o.security.is_some())
        .count();
    assert!(
        log.iter()
            .filter(|r| r.credential_id == Some(signed))
            .count()
            >= authenticated
    );
}
