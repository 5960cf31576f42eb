//! Issue #19, item 3: the logs download, which the server sends as `text/csv` although the
//! document says `application/json` with an empty schema, reaches the caller with its text, not
//! as a decode error that drops the body.

use prefect_driver::{Context, check, ensure, env, unique};
use serde_json::json;

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let flow = client
        .create_flow_flows_post(sdk::flows::FlowCreate::new(unique("download")))
        .send()
        .await
        .expect("create_flow")
        .into_body();

    check("logs_download_keeps_the_csv_text", async {
        let run = client
            .create_flow_run_flow_runs_post(sdk::flow_runs::FlowRunCreate::new(flow.id))
            .send()
            .await
            .ctx("create_flow_run")?
            .into_body();
        let message = unique("csv line");
        client
            .create_logs_logs_post(vec![
                sdk::logs::LogCreate::new(
                    "driver",
                    20,
                    &message,
                    serde_json::from_value(json!("2026-01-02T03:04:05Z")).expect("timestamp"),
                )
                .flow_run_id(run.id),
            ])
            .send()
            .await
            .ctx("create_logs")?;
        let download = client
            .download_logs_flow_runs_id_logs_download_get(run.id)
            .send()
            .await
            .ctx("download_logs")?;
        let shown = format!("{:?}", download.body());
        ensure(shown.contains(&message), || {
            format!("the download does not hold the log line: {shown}")
        })
    })
    .await;
}
