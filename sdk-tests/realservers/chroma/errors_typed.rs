//! Issue #19, item 3: the documented error schema of the status is decoded into its generated
//! type and reachable from the error without decoding by hand.
//!
//! ASSUMED API (the generator feature is being written on the `wire` branch): the error's API
//! part offers `typed::<T>()`, returning the body decoded into the documented type. Adjust this
//! one call when the feature lands under another name.

use chroma_driver::{check, ensure_eq, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let missing = unique("missing");
    check("not_found_body_decodes_into_error_response", async {
        let err = match client
            .get_collection("default_tenant", "default_database", &missing)
            .send()
            .await
        {
            Ok(_) => return Err("a missing collection was found".into()),
            Err(e) => e,
        };
        let api = err
            .api()
            .ok_or_else(|| format!("not an API error: {err:?}"))?;
        let body: sdk::types::ErrorResponse = api
            .typed::<sdk::types::ErrorResponse>()
            .ok_or_else(|| format!("no typed body on {api:?}"))?;
        ensure_eq("error", body.error.as_str(), "NotFoundError")?;
        ensure_eq(
            "message",
            body.message,
            format!("Collection [{missing}] does not exist"),
        )
    })
    .await;
}
