//! Issue #19, item 3: an error says what the server said. Chroma answers a missing collection
//! with the documented 404 body `ErrorResponse {"error": "NotFoundError", "message": ...}`; the
//! error's status is 404 and its message (and `Display`) carries the server's message.

use chroma_driver::{check, ensure, ensure_eq, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let missing = unique("missing");
    check("not_found_shows_the_server_message", async {
        let err = match client
            .get_collection(sdk::collection::GetCollectionArgs {
                tenant: "default_tenant".into(),
                database: "default_database".into(),
                collection_id: missing.to_string(),
            })
            .send()
            .await
        {
            Ok(found) => {
                return Err(format!(
                    "a missing collection was found: {:?}",
                    found.body()
                ));
            }
            Err(e) => e,
        };
        ensure_eq("status", err.status(), Some(404))?;
        let api = err
            .api()
            .ok_or_else(|| format!("not an API error: {err:?}"))?;
        ensure(api.body.is_some(), || "the JSON body was dropped".into())?;
        let shown = err.to_string();
        ensure(
            shown.contains(&format!("Collection [{missing}] does not exist")),
            || format!("Display does not show the server's message: {shown:?}"),
        )
    })
    .await;
}
