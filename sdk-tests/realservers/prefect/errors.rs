//! Issue #19, item 3: an error says what the server said. Prefect answers an unknown flow with
//! 404 `{"detail": "Flow not found"}` (not in the document) and an invalid body with the
//! documented 422 `HTTPValidationError` (`{"detail": [{"loc", "msg", "type"}]}`).

use prefect_driver::{check, ensure, ensure_eq, env};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("not_found_shows_detail", async {
        let missing =
            serde_json::from_value(serde_json::json!("00000000-0000-4000-8000-000000000000"))
                .expect("uuid");
        let err = match client.read_flow_flows_id_get(missing).send().await {
            Ok(_) => return Err("an unknown flow was found".into()),
            Err(e) => e,
        };
        ensure_eq("status", err.status(), Some(404))?;
        let shown = err.to_string();
        ensure(shown.contains("Flow not found"), || {
            format!("Display does not show the server's detail: {shown:?}")
        })
    })
    .await;
    check("validation_error_shows_the_message", async {
        let err = match client
            .create_flow_flows_post(sdk::flows::FlowCreate::new("bad/name"))
            .send()
            .await
        {
            Ok(_) => return Err("a flow named with '/' was created".into()),
            Err(e) => e,
        };
        ensure_eq("status", err.status(), Some(422))?;
        let shown = err.to_string();
        ensure(shown.to_lowercase().contains("pattern"), || {
            format!("Display does not show the validation message: {shown:?}")
        })
    })
    .await;
}
