//! Issue #19, item 3: the documented 422 body is decoded into the generated
//! `HTTPValidationError` and reachable from the error without decoding by hand.
//!
//! API as on the `wire` branch: each request builder has `error_body(&error)`, the body the
//! operation documents for the error's status, decoded into its generated type.

use prefect_driver::{check, ensure, ensure_eq, env};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check(
        "validation_error_decodes_into_http_validation_error",
        async {
            let err = match client
                .create_flow_flows_post(sdk::flows::FlowCreate::new("bad/name"))
                .send()
                .await
            {
                Ok(_) => return Err("a flow named with '/' was created".into()),
                Err(e) => e,
            };
            let body: sdk::types::HttpValidationError =
                sdk::flows::builders::CreateFlowFlowsPost::error_body(&err)
                    .ok_or_else(|| format!("no typed body on {err:?}"))?;
            let detail = body.detail.unwrap_or_default();
            ensure_eq("errors", detail.len(), 1)?;
            let loc = format!("{:?}", detail[0].loc);
            ensure(loc.contains("name"), || format!("loc {loc}"))
        },
    )
    .await;
}
