//! List every service of the account: the SDK fetches page after page as the stream is read.
//!
//! ```sh
//! cargo run -p customer-cloud-sdk --example list_services
//! ```

mod support;

use futures::TryStreamExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (client, _sandbox) = support::connect().await?;
    let mut services = std::pin::pin!(client.get_services().limit(50).into_stream());
    let mut count = 0;
    while let Some(service) = services.try_next().await? {
        count += 1;
        let field = |name: &str| service.get(name).and_then(|v| v.as_str()).unwrap_or("-");
        println!(
            "{:<38} {:<10} {}",
            field("id"),
            field("status"),
            field("hostname")
        );
    }
    println!("{count} services.");
    Ok(())
}
