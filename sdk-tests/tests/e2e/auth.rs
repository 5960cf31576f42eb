//! Both authentication modes through the SDK (signed with the runtime's default canonical
//! string, and bearer), and credential, scope and IP failures surfacing as typed errors that
//! carry the HTTP status, the `error.code` and the server's request id.

use cloud_sandbox::{Credential, SeededCredentials};
use customer_cloud_sdk::dns;
use customer_cloud_sdk::{ErrorCode, ErrorCodeExt};
use oncegen_runtime::Error;

use crate::harness::Env;

/// One read and one write (creating `zone`) as `cred`.
async fn read_and_write(env: &Env, cred: &Credential, zone: &str) {
    let c = env.client_as(cred);
    let products = c
        .get_products()
        .product_code(customer_cloud_sdk::catalog::GetProductsProductCode::Vps)
        .limit(3)
        .send()
        .await
        .unwrap_or_else(|e| panic!("read as {}: {e}", cred.name));
    assert_eq!(products.body().items.len(), 3);
    assert!(products.meta().request_id.is_some());
    c.create_dns_zone(dns::CreateDnsZoneRequest::new(zone.to_owned()))
        .send()
        .await
        .unwrap_or_else(|e| panic!("write as {}: {e}", cred.name));
}

#[tokio::test]
async fn signed_and_bearer_modes_both_authenticate_reads_and_writes() {
    let Some(env) = Env::sandbox_only(
        "signed_and_bearer_modes_both_authenticate_reads_and_writes",
        "the seeded signed and bearer credentials",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let creds = sb.credentials().clone();
    read_and_write(&env, &creds.signed, "signed.example").await;
    read_and_write(&env, &creds.bearer, "bearer.example").await;
    let log = sb.requests();
    assert_eq!(log.len(), 4);
    assert!(log.iter().all(|r| r.succeeded()));
    assert_eq!(log[0].credential_id, Some(creds.signed.id));
    assert_eq!(log[1].credential_id, Some(creds.signed.id));
    assert_eq!(log[2].credential_id, Some(creds.bearer.id));
    assert_eq!(log[3].credential_id, Some(creds.bearer.id));
    assert_eq!(sb.zones().len(), 2);

    // A credential issued through the SDK works in its mode right away.
    let c = env.client_as(&creds.signed);
    let issued = c
        .api_credential_create(
            customer_cloud_sdk::integrations::ApiCredentialCreateRequest::new(
                customer_cloud_sdk::integrations::ApiCredentialCreateRequestArgs {
                    name: "issued".to_owned(),
                    scopes: vec![customer_cloud_sdk::integrations::ApiCredentialCreateRequestScopesItem::BillingProductsRead],
                },
            )
            .mode(customer_cloud_sdk::integrations::ApiCredentialCreateRequestMode::Bearer),
        )
        .send()
        .await
        .expect("issue")
        .into_body();
    let token = format!(
        "{}.{}",
        issued.item.prefix.as_deref().expect("prefix"),
        issued.secret.as_ref().expect("secret").expose_secret()
    );
    let fresh = customer_cloud_sdk::Client::new(env.config().bearer(token)).expect("client");
    fresh
        .get_products()
        .limit(1)
        .send()
        .await
        .expect("the new key reads");
    let denied = fresh
        .billing_transactions()
        .send()
        .await
        .expect_err("outside its scopes");
    assert_eq!(denied.error_code(), Some(ErrorCode::ScopeDenied));
}

/// Asserts a typed API error: status, code, a request id (a uuid) shown in `Display`, one attempt.
fn assert_typed(err: &Error, status: u16, code: ErrorCode) {
    let api = err
        .api()
        .unwrap_or_else(|| panic!("an API error, got {err:?}"));
    assert_eq!(api.status, status, "{err}");
    assert_eq!(api.error_code(), Some(code.clone()), "{err}");
    let request_id = err.request_id().expect("request id");
    assert!(uuid::Uuid::parse_str(request_id).is_ok(), "{request_id}");
    let shown = err.to_string();
    assert!(
        shown.contains(code.as_str()) && shown.contains(request_id),
        "{shown}"
    );
    assert_eq!(api.context.attempts, 1, "4xx errors are not retried");
    assert!(!err.is_retryable() && !err.is_write_outcome_unknown());
}

#[tokio::test]
async fn scope_ip_and_credential_failures_are_typed_errors() {
    let Some(env) = Env::sandbox_only(
        "scope_ip_and_credential_failures_are_typed_errors",
        "seeded restricted, IP-limited, disabled and expired credentials",
    )
    .await
    else {
        return;
    };
    let creds = env.sb().credentials().clone();
    read_only_credentials_read_but_may_not_write(&env, &creds).await;
    allowed_cidrs_refuse_other_addresses(&env, &creds).await;
    unusable_credentials_are_unauthorized(&env, &creds).await;
    wrong_secrets_and_modes_are_refused(&env, &creds).await;
    assert!(
        env.sb().zones().is_empty(),
        "no failed call committed anything"
    );
}

/// A read-only credential (bearer and signed) reads, and its write is a typed 403
/// `scope_denied` that reports the call's key.
async fn read_only_credentials_read_but_may_not_write(env: &Env, creds: &SeededCredentials) {
    let zone = || dns::CreateDnsZoneRequest::new("denied.example".to_owned());
    for cred in [&creds.read_only, &creds.signed_read_only] {
        let c = env.client_as(cred);
        c.list_dns_zones().send().await.expect("reads are in scope");
        let err = c.create_dns_zone(zone()).send().await.expect_err("write");
        assert_typed(&err, 403, ErrorCode::ScopeDenied);
        assert!(
            err.idempotency_key().is_some(),
            "the call's key is reported"
        );
    }
}

/// A credential limited to other addresses is a typed 403 `ip_blocked`; one limited to
/// loopback works.
async fn allowed_cidrs_refuse_other_addresses(env: &Env, creds: &SeededCredentials) {
    let err = env
        .client_as(&creds.ip_blocked)
        .list_dns_zones()
        .send()
        .await
        .expect_err("outside allowed_cidrs");
    assert_typed(&err, 403, ErrorCode::IpBlocked);
    env.client_as(&creds.loopback_only)
        .list_dns_zones()
        .send()
        .await
        .expect("loopback is allowed");
}

/// A disabled and an expired credential are a typed 401 `unauthorized`.
async fn unusable_credentials_are_unauthorized(env: &Env, creds: &SeededCredentials) {
    for cred in [&creds.disabled, &creds.expired] {
        let err = env
            .client_as(cred)
            .list_dns_zones()
            .send()
            .await
            .expect_err("unusable credential");
        assert_typed(&err, 401, ErrorCode::Unauthorized);
    }
}

/// Signed mode with a wrong secret is a typed 401 `invalid_signature`; a signed credential
/// used as a bearer token is a typed 401 `unauthorized`.
async fn wrong_secrets_and_modes_are_refused(env: &Env, creds: &SeededCredentials) {
    let mut wrong = creds.signed.clone();
    wrong.secret = "not-the-secret".into();
    let err = env
        .client_as(&wrong)
        .list_dns_zones()
        .send()
        .await
        .expect_err("bad signature");
    assert_typed(&err, 401, ErrorCode::InvalidSignature);
    let as_bearer =
        customer_cloud_sdk::Client::new(env.config().bearer(creds.signed.bearer_token()))
            .expect("client");
    let err = as_bearer
        .list_dns_zones()
        .send()
        .await
        .expect_err("wrong mode");
    assert_typed(&err, 401, ErrorCode::Unauthorized);
}
