//! Issue #19, item 3: the documented error schema of the status is decoded into its generated
//! type and reachable from the error without decoding by hand.
//!
//! API as on the `wire` branch: each request builder has `error_body(&error)`, the body the
//! operation documents for the error's status, decoded into its generated type.

use chroma_driver::{check, ensure_eq, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let missing = unique("missing");
    check("not_found_body_decodes_into_error_response", async {
        let err = match client
            .get_collection(sdk::collection::GetCollectionArgs {
                tenant: "default_tenant".into(),
                database: "default_database".into(),
                collection_id: missing.to_string(),
            })
            .send()
            .await
        {
            Ok(_) => return Err("a missing collection was found".into()),
            Err(e) => e,
        };
        let body: sdk::types::ErrorResponse =
            sdk::collection::builders::GetCollection::error_body(&err)
                .ok_or_else(|| format!("no typed body on {err:?}"))?;
        ensure_eq("error", body.error.as_str(), "NotFoundError")?;
        ensure_eq(
            "message",
            body.message,
            format!("Collection [{missing}] does not exist"),
        )
    })
    .await;
}
