//! Issue #19, item 8: the date-time and UUID types that appear in the generated API are
//! re-exported, so an application needs no `chrono` or `uuid` dependency of its own to name them.
//! The generated crate re-exports each such crate under its own name (`sdk::chrono`,
//! `sdk::uuid`).

use prefect_driver::{Context, check, ensure_eq, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("log_timestamps_and_ids_by_their_reexported_types", async {
        let at: sdk::chrono::DateTime<sdk::chrono::Utc> =
            "2026-01-02T03:04:05Z".parse().ctx("timestamp")?;
        let flow = client
            .create_flow_flows_post(sdk::flows::FlowCreate::new(unique("reexports")))
            .send()
            .await
            .ctx("create_flow")?
            .into_body();
        let id: sdk::uuid::Uuid = flow.id;
        let read = client
            .read_flow_flows_id_get(id)
            .send()
            .await
            .ctx("read_flow")?
            .into_body();
        ensure_eq("id", read.id, id)?;
        client
            .create_logs_logs_post(vec![sdk::logs::LogCreate::new(sdk::logs::LogCreateArgs {
                level: 20,
                message: "at".to_owned(),
                name: "driver".to_owned(),
                timestamp: at,
            })])
            .send()
            .await
            .ctx("create_logs")?;
        Ok(())
    })
    .await;
}
