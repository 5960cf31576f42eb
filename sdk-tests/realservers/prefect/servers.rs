//! Issue #19, item 5: the document's `servers` (`[{"url": "/api"}]`, relative) are offered by
//! the generated crate, so a caller need not know the base path.
//!
//! ASSUMED API (the generator feature is being written on the `wire` branch): the crate has
//! `SERVERS`, the document's server URLs as written. Adjust when the feature lands under
//! another name.

use prefect_driver::{Context, check, ensure_eq, env};

#[tokio::main]
async fn main() {
    check("relative_server_url_resolves_against_the_origin", async {
        ensure_eq("servers", sdk::SERVERS.to_vec(), vec!["/api"])?;
        let base = format!("{}{}", env("SERVER_ORIGIN"), sdk::SERVERS[0]);
        let client = sdk::Client::new(sdk::Config::new(base)).ctx("client")?;
        client
            .health_check_health_get()
            .send()
            .await
            .ctx("health")?;
        Ok(())
    })
    .await;
}
