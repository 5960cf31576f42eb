//! Issue #19, item 2: a top-level body whose schema may be null keeps its nullability. The
//! average lateness of no flow runs is `null` (`anyOf: [{type: number}, {type: null}]`), typed
//! `Option<f64>`.

use prefect_driver::{Context, check, ensure_eq, env, unique};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("lateness_of_no_runs_is_none", async {
        let filter = sdk::flow_runs::BodyAverageFlowRunLatenessFlowRunsLatenessPost::new().flows(
            serde_json::from_value::<sdk::types::FlowFilter>(serde_json::json!({
                "name": {"any_": [unique("no-such-flow")]}
            }))
            .ctx("filter")?,
        );
        let lateness: Option<f64> = client
            .average_flow_run_lateness_flow_runs_lateness_post()
            .body(filter)
            .send()
            .await
            .ctx("average_flow_run_lateness")?
            .into_body();
        ensure_eq("lateness", lateness, None)
    })
    .await;
}
