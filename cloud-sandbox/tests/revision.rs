//! The sandbox on a revision of the contract (`sdk-tests/fixtures/rehearsal/revision.json`,
//! applied to a copy of `spec/openapi.yaml`) follows it with no hand edit: a new `info.version`,
//! a field type change, an enum value removed and one added, a page → cursor model change, a
//! scope added and a moved path. Every answer is checked against the revised contract on its
//! way out (`schema_violations` stays empty). The SDK side of the rehearsal is
//! `sdk-tests/tests/revision_rehearsal.rs`.

mod common;

use cloud_sandbox::{Mode, Sandbox, SandboxConfig};
use common::Env;
use serde_json::{Value, json};

const FIXTURE: &str = include_str!("../../sdk-tests/fixtures/rehearsal/revision.json");

/// The revised contract, as JSON text.
fn revised_spec() -> (String, String) {
    let mut doc: Value = yaml_serde::from_str(cloud_sandbox::spec::EMBEDDED_SPEC).unwrap();
    let patch: Value = serde_json::from_str(FIXTURE).unwrap();
    cloud_sandbox::revision::apply_patch(&mut doc, &patch).unwrap();
    let version = doc["info"]["version"].as_str().unwrap().to_owned();
    (serde_json::to_string(&doc).unwrap(), version)
}

#[tokio::test]
async fn the_sandbox_follows_a_revision_without_a_hand_edit() {
    let (spec_yaml, revision) = revised_spec();
    let config = SandboxConfig {
        spec_yaml: Some(spec_yaml),
        ..SandboxConfig::default()
    };
    let env = Env {
        sb: Sandbox::start_with(config).await.unwrap(),
        http: reqwest::Client::new(),
    };
    let version = env.get("/v1/version").await;
    assert_eq!(version.body["contract_revision"], revision.as_str());
    records_follow_the_revised_schemas(&env).await;
    transactions_page_by_cursor(&env).await;
    an_added_scope_is_enforced(&env).await;
    a_moved_path_answers_only_there(&env).await;
    assert_eq!(env.sb.schema_violations(), Vec::<(String, String)>::new());
}

/// The catalog and a single record are shaped by the revised schemas: a field's type and an
/// enum changed.
async fn records_follow_the_revised_schemas(env: &Env) {
    let products = env.get("/v1/products?limit=100").await;
    assert_eq!(products.status, 200, "{}", products.text);
    let items = products.body["items"].as_array().unwrap();
    assert!(
        items.iter().all(|p| p["cpu"].is_string()),
        "cpu is a string now"
    );
    assert!(
        items.iter().all(|p| p["type"] != "other"),
        "`other` was removed"
    );

    // A single record follows its schema too.
    let id = env.sb.credentials().bearer.id;
    let one = env.get(&format!("/v1/api-credentials/{id}")).await;
    assert_eq!(one.body["item"]["enabled"], "true", "{}", one.text);
}

/// The transactions, paginated by page before, by cursor now.
async fn transactions_page_by_cursor(env: &Env) {
    let mut seen = 0;
    let mut cursor: Option<String> = None;
    loop {
        let pq = match &cursor {
            Some(c) => format!("/v1/billing/transactions?limit=20&cursor={c}"),
            None => "/v1/billing/transactions?limit=20".to_owned(),
        };
        let page = env.get(&pq).await;
        assert_eq!(page.status, 200, "{}", page.text);
        assert!(page.body.get("page").is_none(), "no page model any more");
        seen += page.body["items"].as_array().unwrap().len();
        match page.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, 75, "every seeded transaction, once");
}

/// A scope added: the seeded credentials hold it; a credential without it is denied.
async fn an_added_scope_is_enforced(env: &Env) {
    assert!(
        env.sb
            .declared_scopes()
            .contains(&"catalog.read".to_owned())
    );
    assert_eq!(env.get("/v1/regions").await.status, 200);
    let narrow = env
        .sb
        .add_credential_with_scopes(Mode::Bearer, &["billing.products.read"]);
    let denied = env
        .send(Some(&narrow), "GET", "/v1/regions", None, &[])
        .await;
    assert_eq!((denied.status, denied.code()), (403, "scope_denied"));
}

/// A moved path: the operation answers at its new path only.
async fn a_moved_path_answers_only_there(env: &Env) {
    let body = json!({"name": "moved", "zone_file": "@ 3600 IN A 192.0.2.1\n"});
    let key = [("idempotency-key", "template-moved-1")];
    let created = env
        .bearer("POST", "/v1/dns/zone-templates", Some(&body), &key)
        .await;
    assert_eq!(created.status, 200, "{}", created.text);
    let old = env.get("/v1/dns/templates").await;
    assert_eq!(old.status, 404);
}
