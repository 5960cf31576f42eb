//! Issue #19, item 3: the documented 422 body is decoded into the generated
//! `HTTPValidationError` and reachable from the error without decoding by hand.
//!
//! ASSUMED API (the generator feature is being written on the `wire` branch): the error's API
//! part offers `typed::<T>()`, returning the body decoded into the documented type. Adjust this
//! one call when the feature lands under another name.

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
            let api = err
                .api()
                .ok_or_else(|| format!("not an API error: {err:?}"))?;
            let body: sdk::types::HttpValidationError = api
                .typed::<sdk::types::HttpValidationError>()
                .ok_or_else(|| format!("no typed body on {api:?}"))?;
            let detail = body.detail.unwrap_or_default();
            ensure_eq("errors", detail.len(), 1)?;
            let loc = format!("{:?}", detail[0].loc);
            ensure(loc.contains("name"), || format!("loc {loc}"))
        },
    )
    .await;
}
