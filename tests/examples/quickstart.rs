//! Quickstart: list regions and VPS plans, deploy a VPS with a spending ceiling (`max_total`),
//! and wait for its operation, printing progress as it goes.
//!
//! ```sh
//! cargo run -p sdk-tests --example quickstart
//! ```
//!
//! Without configuration it starts the in-process sandbox (a local, stateful copy of the API
//! with a seeded account), so nothing real is bought. To point it at a deployment instead:
//!
//! ```sh
//! export CLOUD_API_BASE_URL=https://api.example.com
//! export CLOUD_API_BEARER=<prefix>.<secret>          # or CLOUD_API_KEY + CLOUD_API_SECRET (signed mode)
//! export CLOUD_QUICKSTART_DEPLOY=1                   # only then does it deploy (and charge) there
//! cargo run -p sdk-tests --example quickstart
//! ```

use cloud_sdk::{ErrorCode, ErrorCodeExt};
use cloud_sdk::{catalog, deployments};
use rust_decimal::Decimal;
use sdk_runtime::{Config, Error};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Where to talk to: the environment's deployment, or a sandbox started right here.
    let mut _sandbox = None;
    let (config, may_deploy) = if std::env::var("CLOUD_API_BASE_URL").is_ok() {
        let config = Config::from_env()?;
        println!("Using {} from the environment.", config.get_base_url());
        let deploy = std::env::var("CLOUD_QUICKSTART_DEPLOY").is_ok_and(|v| v == "1");
        (config, deploy)
    } else {
        let sandbox = cloud_sandbox::Sandbox::start().await?;
        println!(
            "Started the sandbox at {} (seeded account, balance {} EUR).",
            sandbox.base_url(),
            sandbox.balance()
        );
        let token = sandbox.credentials().bearer.bearer_token();
        let config = Config::new(sandbox.base_url()).bearer(token);
        _sandbox = Some(sandbox);
        (config, true)
    };
    let client = cloud_sdk::Client::new(config)?;

    // 2. Which contract does the server run, and does it offer the operation envelope?
    let contract = client.check_contract().await?;
    let envelope = contract
        .feature("canonical_operation_responses")
        .unwrap_or(false);
    println!(
        "Server contract {} (this SDK: {}); operation envelope available: {}",
        contract.deployed_revision.as_deref().unwrap_or("unknown"),
        cloud_sdk::CONTRACT_REVISION,
        envelope
    );

    // 3. Regions (an offset-paginated list, read as a stream of items).
    use futures::TryStreamExt;
    let regions: Vec<catalog::Region> = client.get_regions().into_stream().try_collect().await?;
    let names: Vec<String> = regions
        .iter()
        .map(|r| {
            format!(
                "{} ({})",
                r.id.as_deref().unwrap_or("?"),
                r.name.as_deref().unwrap_or("?")
            )
        })
        .collect();
    println!("\n{} regions: {}", regions.len(), names.join(", "));
    let region = regions
        .first()
        .and_then(|r| r.id.clone())
        .ok_or("no region listed")?;

    // 4. VPS plans in that region, cheapest first.
    let mut plans = client
        .get_products_by_region(region.clone())
        .product_code(catalog::GetProductsByRegionProductCode::Vps)
        .send()
        .await?
        .into_body()
        .items;
    plans.retain(|p| p.available != Some(false) && p.price.is_some());
    plans.sort_by_key(|p| p.price);
    println!("\nVPS plans in {region}:");
    for p in plans.iter().take(5) {
        println!(
            "  {:<10} {:>2} vCPU {:>6} MiB RAM {:>4} GiB disk  {} {}/month",
            p.variant_code.as_deref().unwrap_or("?"),
            p.cpu.unwrap_or(0),
            p.ram.unwrap_or(0),
            p.disk.unwrap_or(0),
            p.price.unwrap_or_default(),
            p.currency.as_deref().unwrap_or("")
        );
    }
    let plan = plans.first().ok_or("no VPS plan available")?;
    let variant = plan
        .variant_code
        .clone()
        .ok_or("plan without variant code")?;
    // The catalog price excludes add-ons and tax; the monthly cycle adds the setup fee.
    let monthly = plan
        .billing_cycles
        .iter()
        .flatten()
        .find(|c| c.billing_cycle.as_deref() == Some("monthly"));
    let ceiling = monthly
        .and_then(|c| Some(c.price? + c.setup_fee.unwrap_or_default()))
        .or(plan.price)
        .unwrap_or(Decimal::ZERO);

    if !may_deploy {
        println!(
            "\nStopping before the deploy: it charges the account. Set CLOUD_QUICKSTART_DEPLOY=1 to go on."
        );
        return Ok(());
    }

    // 5. Deploy atomically: order, payment from balance and provisioning in one call. The call
    //    fails with 409 `deployment_price_limit_exceeded`, charging nothing, if the total is
    //    above `max_total`. Keep the idempotency key: it is how a lost answer is recovered.
    let key = format!("quickstart-{}", uuid::Uuid::new_v4().simple());
    println!("\nDeploying {variant} in {region} with max_total {ceiling} (idempotency key {key})…");
    let sent = client
        .product_variant_deploy(
            region.clone(),
            deployments::ProductVariantDeployProductCode::Vps,
            variant.clone(),
            // The body is a union (`DeployRequest` or `LegacyDeployRequest`); either converts.
            deployments::DeployRequest::new()
                .billing_cycle(deployments::DeployRequestBillingCycle::Monthly)
                .hostname("quickstart.example.net")
                .max_total(ceiling),
        )
        .idempotency_key(key.clone())
        .operation_format(envelope)
        .send()
        .await;
    let receipt = match sent {
        Ok(response) => response.into_body(),
        Err(e) if e.error_code() == Some(ErrorCode::DeploymentPriceLimitExceeded) => {
            println!("The price went above the ceiling; nothing was charged: {e}");
            return Ok(());
        }
        Err(e) if e.error_code() == Some(ErrorCode::InsufficientCredit) => {
            println!("The balance does not cover the total; nothing was committed: {e}");
            return Ok(());
        }
        Err(e) if e.is_write_outcome_unknown() => {
            println!(
                "The answer was lost ({e}). Do not deploy again with a new key: look the write up with \
                 GET /v1/operations?idempotency_key={key}&method=POST&path=/v1/deploy/{region}/vps/{variant}, \
                 or resend the same request with the same key."
            );
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    let operation_id = receipt
        .operation_id()
        .ok_or("the response names no operation")?;
    println!("Accepted (accepted is not completed): operation {operation_id}");

    // 6. Wait for the operation (polling with backoff), then read the outcome.
    let operation = match receipt.wait(&client).await {
        Ok(op) => op,
        Err(Error::OperationFailed(outcome)) => {
            println!(
                "Provisioning ended {}: {}",
                outcome.status.as_deref().unwrap_or("-"),
                outcome.subject
            );
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let service_id = operation
        .result
        .as_ref()
        .and_then(|r| r.service_ids.as_ref())
        .and_then(|ids| ids.first())
        .map(|id| id.to_string())
        .unwrap_or_default();
    println!("Succeeded: service {service_id}");

    // 7. Find the new service in the service list.
    let services: Vec<serde_json::Map<String, serde_json::Value>> = client
        .get_services()
        .type_(vec!["vps".to_owned()])
        .into_stream()
        .try_collect()
        .await?;
    match services
        .iter()
        .find(|s| s.get("id").and_then(|v| v.as_str()) == Some(service_id.as_str()))
    {
        Some(s) => println!(
            "\nYour VPS: {} {} status {}",
            service_id,
            s.get("hostname").and_then(|v| v.as_str()).unwrap_or(""),
            s.get("status").and_then(|v| v.as_str()).unwrap_or("")
        ),
        None => {
            println!("\nService {service_id} is not listed yet; provisioning may still be running.")
        }
    }
    Ok(())
}
