//! Issue #19, item 4: the document's `ApiKeyAuth` scheme (`apiKey` in the header
//! `x-chroma-token`) is set once on the client and sent on exactly the operations whose
//! `security` names it. These calls go through the test's recording relay, which checks the
//! header on the wire (the Chroma server accepts any token, so it cannot tell).
//!
//! API as on the `wire` branch: the generated `security_schemes::API_KEY_AUTH` static and
//! `Config::scheme_credential` with `SchemeCredential::api_key`.

use chroma_driver::{Context, check, env, unique};

#[tokio::main]
async fn main() {
    let config = sdk::Config::new(env("RELAY_URL")).scheme_credential(
        &sdk::security_schemes::API_KEY_AUTH,
        sdk::SchemeCredential::api_key(env("CHROMA_TOKEN")),
    );
    let client = sdk::Client::new(config).expect("client");
    check("calls_with_and_without_security", async {
        client.heartbeat().send().await.ctx("heartbeat")?;
        client
            .get_user_identity()
            .send()
            .await
            .ctx("get_user_identity")?;
        let name = unique("authdb");
        client
            .create_database(
                "default_tenant",
                sdk::database::CreateDatabasePayload::new(&name),
            )
            .send()
            .await
            .ctx("create_database")?;
        client
            .list_collections(sdk::collection::ListCollectionsArgs {
                tenant: "default_tenant".into(),
                database: name.to_string(),
            })
            .limit(5)
            .send()
            .await
            .ctx("list_collections")?;
        client
            .delete_database(sdk::database::DeleteDatabaseArgs {
                tenant: "default_tenant".into(),
                database: name.to_string(),
            })
            .send()
            .await
            .ctx("delete_database")?;
        Ok(())
    })
    .await;
    let shown = format!("{client:?}");
    check("token_not_in_debug", async {
        chroma_driver::ensure(!shown.contains(&env("CHROMA_TOKEN")), || {
            "the token shows in the client's Debug".into()
        })
    })
    .await;
}
