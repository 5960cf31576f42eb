//! Issue #19, item 3: a success body that the document says is not JSON is typed by its media
//! type: `GET /api/v2/version` is `text/plain` with a string schema, so the SDK gives a `String`
//! holding the version itself (the server actually answers it as a JSON string; either way the
//! caller sees `1.2.3`, not `"1.2.3"`).

use chroma_driver::{Context, check, ensure, env};

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    check("version_is_the_text_itself", async {
        let version: String = client.version().send().await.ctx("version")?.into_body();
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
