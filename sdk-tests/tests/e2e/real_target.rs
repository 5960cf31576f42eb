//! Read-only calls that run against either target: the sandbox by default, or the deployment
//! named by `CUSTOMER_CLOUD_API_BASE_URL` (+ `CUSTOMER_CLOUD_API_BEARER`, or `CUSTOMER_CLOUD_API_KEY` and
//! `CUSTOMER_CLOUD_API_SECRET`). Nothing here writes, so it is safe against a real account.

use customer_cloud_sdk::catalog;
use customer_cloud_sdk::{ErrorCode, ErrorCodeExt};
use futures::TryStreamExt;

use crate::harness::Env;

#[tokio::test]
async fn contract_catalog_and_typed_errors_on_any_target() {
    let env = Env::start().await;
    let c = env.client();

    let check = c.check_contract().await.expect("version and capabilities");
    println!(
        "target contract revision {:?} (SDK {}), canonical operation responses {:?}",
        check.deployed_revision,
        customer_cloud_sdk::CONTRACT_REVISION,
        check.feature("canonical_operation_responses")
    );
    if check.differs() {
        eprintln!("warning: the target reports a different contract revision");
    }

    // Offset pagination through the stream: every region once.
    let regions: Vec<catalog::Region> = c
        .get_regions()
        .limit(5)
        .into_stream()
        .try_collect()
        .await
        .expect("regions");
    assert!(!regions.is_empty());
    let mut ids: Vec<&str> = regions.iter().filter_map(|r| r.id.as_deref()).collect();
    let listed = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), listed, "no region repeats across pages");

    // Products of one region: typed money and family fields.
    let region = ids[0].to_owned();
    let products = c
        .get_products_by_region(region.clone())
        .limit(10)
        .send()
        .await
        .expect("products")
        .into_body();
    for p in &products.items {
        if let Some(r) = &p.region {
            assert!(r.eq_ignore_ascii_case(&region), "{r} in {region}");
        }
    }

    // A documented client error comes back typed, with its request id.
    let err = c
        .get_products_by_region("not-a-region")
        .send()
        .await
        .expect_err("unsupported region");
    assert_eq!(err.status(), Some(400), "{err}");
    assert_eq!(
        err.error_code(),
        Some(ErrorCode::UnsupportedRegion),
        "{err}"
    );
    assert!(err.request_id().is_some());
}
