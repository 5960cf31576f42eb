//! Quickstart: check the contract, pick the cheapest VPS plan, deploy it with a spending
//! ceiling and wait until it runs.
//!
//! ```sh
//! cargo run -p customer-cloud-sdk --example quickstart   # against a local sandbox
//! ```
//!
//! With `CUSTOMER_CLOUD_API_BASE_URL` and credentials set it talks to that deployment instead, and deploys
//! only when `CLOUD_QUICKSTART_DEPLOY=1` is set too (a deploy charges the account).

mod support;

use customer_cloud_sdk::rust_decimal::Decimal;
use customer_cloud_sdk::uuid::Uuid;
use customer_cloud_sdk::{Client, catalog, deployments};
use std::error::Error;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let (client, sandbox) = support::connect().await?;
    let envelope = check_contract(&client).await?;
    let (region, plan) = cheapest_vps_plan(&client).await?;
    let variant = plan
        .variant_code
        .clone()
        .ok_or("plan without variant code")?;
    let ceiling = first_month_total(&plan).ok_or("plan without price")?;
    println!("Cheapest VPS in {region}: {variant}, at most {ceiling} per month.");

    let deploy =
        sandbox.is_some() || std::env::var("CLOUD_QUICKSTART_DEPLOY").as_deref() == Ok("1");
    if !deploy {
        println!("Stopping before the deploy (set CLOUD_QUICKSTART_DEPLOY=1 to go on).");
        return Ok(());
    }
    let plan = deployments::ProductVariantDeployArgs {
        region,
        product_code: deployments::ProductVariantDeployProductCode::Vps,
        variant_code: variant,
    };
    let service = deploy_and_wait(&client, plan, ceiling, envelope).await?;
    println!("Your VPS is service {service}.");
    Ok(())
}

/// Which contract does the server run, and does it offer the canonical operation envelope?
async fn check_contract(client: &Client) -> Result<bool, Box<dyn Error>> {
    let contract = client.check_contract().await?;
    println!(
        "Server contract {} (this SDK: {}).",
        contract.deployed_revision.as_deref().unwrap_or("unknown"),
        customer_cloud_sdk::CONTRACT_REVISION
    );
    Ok(contract.feature("canonical_operation_responses") == Some(true))
}

/// The first region, and its cheapest available VPS plan.
async fn cheapest_vps_plan(
    client: &Client,
) -> Result<(String, catalog::CatalogProduct), Box<dyn Error>> {
    let regions = client.get_regions().send().await?.into_body().items;
    let region = regions
        .iter()
        .find_map(|r| r.id.clone())
        .ok_or("no region listed")?;
    let mut plans = client
        .get_products_by_region(region.clone())
        .product_code(catalog::GetProductsByRegionProductCode::Vps)
        .send()
        .await?
        .into_body()
        .items;
    plans.retain(|p| p.available != Some(false) && p.price.is_some());
    plans.sort_by_key(|p| p.price);
    let plan = plans.into_iter().next().ok_or("no VPS plan available")?;
    Ok((region, plan))
}

/// The spending ceiling for a plan: its monthly price plus its setup fee (or its price, when it
/// lists no monthly cycle).
fn first_month_total(plan: &catalog::CatalogProduct) -> Option<Decimal> {
    let monthly = plan
        .billing_cycles
        .iter()
        .flatten()
        .find(|c| c.billing_cycle.as_deref() == Some("monthly"));
    monthly
        .and_then(|c| Some(c.price? + c.setup_fee.unwrap_or_default()))
        .or(plan.price)
}

/// Orders, pays from the balance and provisions `plan` in one call; nothing is charged if the
/// total is above `ceiling` (`max_total`). The SDK keeps one idempotency key across its
/// retries. Accepted is not completed: then waits for the operation, and returns its service.
async fn deploy_and_wait(
    client: &Client,
    plan: deployments::ProductVariantDeployArgs,
    ceiling: Decimal,
    envelope: bool,
) -> Result<Uuid, Box<dyn Error>> {
    let receipt = client
        .product_variant_deploy(
            plan,
            deployments::DeployRequest::new()
                .billing_cycle(deployments::DeployRequestBillingCycle::Monthly)
                .hostname("quickstart.example.net")
                .max_total(ceiling),
        )
        .operation_format(envelope)
        .send()
        .await?
        .into_body();
    let operation = receipt.wait(client).await?;
    let service = operation
        .result
        .and_then(|r| r.service_ids)
        .and_then(|ids| ids.into_iter().next())
        .ok_or("the operation names no service")?;
    Ok(service)
}
