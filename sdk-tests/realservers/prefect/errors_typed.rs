//! Issue #19, item 3: the documented error schema is decoded into its generated type and
//! reachable from the error without decoding by hand. Prefect documents its 422 as
//! `HTTPValidationError` (`{"detail": [...]}`) but answers `{"exception_message", "exception_detail",
//! "request_body"}`, a flaw of the document: the typed body (all of whose members are optional)
//! then holds no `detail`, and the raw body keeps what the server said.
//!
//! API as on the `wire` branch: each request builder has `error_body(&error)`, the body the
//! operation documents for the error's status, decoded into its generated type.

use prefect_driver::{check, ensure, ensure_eq, env};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("validation_error_is_typed_and_the_raw_body_kept", async {
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
        ensure(body.detail.is_none(), || {
            format!("the document was fixed? the 422 body has `detail`: {body:?}")
        })?;
        let raw = err
            .api()
            .and_then(|a| a.body.as_ref())
            .ok_or("no raw body")?;
        let loc = raw
            .pointer("/exception_detail/0/loc")
            .cloned()
            .unwrap_or_default();
        ensure_eq("loc", loc, serde_json::json!(["body", "name"]))
    })
    .await;
}
