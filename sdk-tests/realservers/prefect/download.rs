//! Issue #19, item 3: the logs download, which the server sends as `text/csv` although the
//! document says `application/json` with an empty schema (a flaw of the document), is not
//! silently dropped: the call fails with `Error::Decode` naming the content type, and the error
//! keeps the body as it came (`Error::undecoded_body`), so the caller reads the CSV from it.

use prefect_driver::{Context, check, ensure, ensure_eq, env, unique};
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
                sdk::logs::LogCreate::new(sdk::logs::LogCreateArgs {
                    level: 20,
                    message: message.clone(),
                    name: "driver".to_owned(),
                    timestamp: serde_json::from_value(json!("2026-01-02T03:04:05Z"))
                        .expect("timestamp"),
                })
                .flow_run_id(run.id),
            ])
            .send()
            .await
            .ctx("create_logs")?;
        let err = match client
            .download_logs_flow_runs_id_logs_download_get(run.id)
            .send()
            .await
        {
            Ok(r) => {
                return Err(format!(
                    "the document was fixed? the download decoded as JSON: {:?}",
                    r.body()
                ));
            }
            Err(e) => e,
        };
        ensure_eq("status", err.status(), Some(200))?;
        let shown = err.to_string();
        ensure(shown.contains("text/csv"), || {
            format!("the error does not name the content type: {shown}")
        })?;
        let body = err
            .undecoded_body()
            .ok_or_else(|| format!("the body was dropped: {err:?}"))?;
        ensure_eq("media type", body.media_type(), Some("text/csv"))?;
        let text = body.text().ok_or("the CSV is not UTF-8")?;
        ensure(text.contains(&message), || {
            format!("the kept body does not hold the log line: {text}")
        })
    })
    .await;
}
