//! Issue #19, item 3: a success body that the document says is not JSON is typed by its media
//! type: `GET /api/v2/version` is documented `text/plain` with a string schema, so the SDK gives
//! a `String`. The server actually answers it as `application/json` (`"1.0.0"`, a JSON string;
//! a flaw of the document): the runtime reads the body by the `Content-Type` the response
//! carries, so the caller gets the version itself, `1.0.0`, not `"1.0.0"`. The oracle is
//! `serde_json` on the body the test fetched by itself (`VERSION_BODY`).

use chroma_driver::{Context, check, ensure, ensure_eq, env};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("version_is_the_text_itself", async {
        let response = client.version().send().await.ctx("version")?;
        let content_type = response
            .meta()
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        ensure(content_type.starts_with("application/json"), || {
            format!("the document was fixed? the version is served as {content_type:?}")
        })?;
        let version = response.into_body();
        let expected: String =
            serde_json::from_str(&env("VERSION_BODY")).ctx("the served version body")?;
        ensure_eq("version", version.as_str(), expected.as_str())?;
        ensure(
            !version.is_empty()
                && version
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c)),
            || format!("version {version:?} is not a bare version string"),
        )
    })
    .await;
}
