//! Issue #19, item 8: a 204 (no content) is `()`, not `Value::Null`.

use prefect_driver::{Context, check, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let flow = client
        .create_flow_flows_post(sdk::flows::FlowCreate::new(unique("bodies")))
        .send()
        .await
        .expect("create_flow")
        .into_body();

    check("no_content_is_unit", async {
        let (): () = client
            .update_flow_flows_id_patch(
                flow.id,
                sdk::flows::FlowUpdate::new().tags(vec!["x".to_owned()]),
            )
            .send()
            .await
            .ctx("update_flow")?
            .into_body();
        Ok(())
    })
    .await;
}
