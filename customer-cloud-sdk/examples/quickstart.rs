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

use customer_cloud_sdk::{catalog, deployments};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (client, sandbox) = support::connect().await?;

    // Which contract does the server run, and does it offer the canonical operation envelope?
    let contract = client.check_contract().await?;
    let envelope = contract.feature("canonical_operation_responses") == Some(true);
    println!(
        "Server contract {} (this SDK: {}).",
        contract.deployed_revision.as_deref().unwrap_or("unknown"),
        customer_cloud_sdk::CONTRACT_REVISION
    );

    // The first region, and its cheapest available VPS plan.
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
    let plan = plans.first().ok_or("no VPS plan available")?;
    let variant = plan
        .variant_code
        .clone()
        .ok_or("plan without variant code")?;
    // The ceiling: the monthly price plus its setup fee.
    let monthly = plan
        .billing_cycles
        .iter()
        .flatten()
        .find(|c| c.billing_cycle.as_deref() == Some("monthly"));
    let ceiling = monthly
        .and_then(|c| Some(c.price? + c.setup_fee.unwrap_or_default()))
        .or(plan.price)
        .ok_or("plan without price")?;
    println!("Cheapest VPS in {region}: {variant}, at most {ceiling} per month.");

    let deploy =
        sandbox.is_some() || std::env::var("CLOUD_QUICKSTART_DEPLOY").as_deref() == Ok("1");
    if !deploy {
        println!("Stopping before the deploy (set CLOUD_QUICKSTART_DEPLOY=1 to go on).");
        return Ok(());
    }

    // Order, pay from the balance and provision in one call; nothing is charged if the total is
    // above `max_total`. The SDK keeps one idempotency key across its retries.
    let receipt = client
        .product_variant_deploy(
            deployments::ProductVariantDeployArgs {
                region,
                product_code: deployments::ProductVariantDeployProductCode::Vps,
                variant_code: variant,
            },
            deployments::DeployRequest::new()
                .billing_cycle(deployments::DeployRequestBillingCycle::Monthly)
                .hostname("quickstart.example.net")
                .max_total(ceiling),
        )
        .operation_format(envelope)
        .send()
        .await?
        .into_body();

    // Accepted is not completed: wait for the operation.
    let operation = receipt.wait(&client).await?;
    let service = operation
        .result
        .and_then(|r| r.service_ids)
        .and_then(|ids| ids.into_iter().next())
        .ok_or("the operation names no service")?;
    println!("Your VPS is service {service}.");
    Ok(())
}
