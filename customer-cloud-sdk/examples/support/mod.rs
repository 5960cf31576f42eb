//! How the examples connect: to the deployment named by the environment
//! (`CUSTOMER_CLOUD_API_BASE_URL` plus `CUSTOMER_CLOUD_API_BEARER`, or `CUSTOMER_CLOUD_API_KEY` and `CUSTOMER_CLOUD_API_SECRET`), or,
//! when none is set, to a sandbox started in this process with a seeded account.

use customer_cloud_sdk::{Client, Config, ConfigExt};

/// A connected client, and the sandbox behind it when there was no environment (keep it alive
/// while the client is used).
#[allow(dead_code)] // crash_safe_writes builds its own client from `config`
pub async fn connect()
-> Result<(Client, Option<cloud_sandbox::Sandbox>), Box<dyn std::error::Error>> {
    let (config, sandbox) = config().await?;
    Ok((Client::new(config)?, sandbox))
}

/// The configuration [`connect`] uses, and the sandbox behind it when there was no environment.
pub async fn config() -> Result<(Config, Option<cloud_sandbox::Sandbox>), Box<dyn std::error::Error>>
{
    if std::env::var("CUSTOMER_CLOUD_API_BASE_URL").is_ok() {
        let config = Config::from_env()?;
        println!("Using {} from the environment.", config.get_base_url());
        return Ok((config, None));
    }
    let sandbox = cloud_sandbox::Sandbox::start().await?;
    println!("Started a sandbox at {}.", sandbox.base_url());
    let config =
        Config::new(sandbox.base_url()).bearer(sandbox.credentials().bearer.bearer_token());
    Ok((config, Some(sandbox)))
}
