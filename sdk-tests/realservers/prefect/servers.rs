//! Issue #19, item 5: the document's `servers` (`[{"url": "/api"}]`, relative) are offered by
//! the generated crate (`servers::DEFAULT`, the first listed), and `servers::resolve` resolves a
//! relative one against the URL the document is served from, so a caller need not know the
//! base path.

use prefect_driver::{Context, check, ensure_eq, env};

#[tokio::main]
async fn main() {
    check("relative_server_url_resolves_against_the_origin", async {
        ensure_eq("servers::DEFAULT", sdk::servers::DEFAULT, "/api")?;
        let origin = env("SERVER_ORIGIN");
        let base = sdk::servers::resolve(&format!("{origin}/api/openapi.json"), sdk::servers::DEFAULT)
            .ctx("resolve")?;
        ensure_eq("resolved", base.as_str(), format!("{origin}/api").as_str())?;
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
