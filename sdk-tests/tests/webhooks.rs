//! Webhooks (3.1 `webhooks`) and callbacks become typed payloads behind one `Webhook::parse`.

use std::path::Path;

use oncegen::ir::TypeRef;

fn lower(text: &str) -> oncegen::ir::Api {
    let doc = oncegen::read::parse(text, "webhooks.yaml").expect("parses");
    oncegen::lower::lower(&doc).expect("lowers")
}

/// Two webhooks (one with a body, one without) and a callback of an operation.
const WEBHOOKS_AND_A_CALLBACK: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /subscribe:
    post:
      operationId: subscribe
      responses: {'201': {description: ok}}
      callbacks:
        onData:
          '{$request.body#/url}':
            post:
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {value: {type: integer}}}
              responses: {'200': {description: ok}}
webhooks:
  invoicePaid:
    post:
      summary: An invoice was paid
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Invoice'}
      responses: {'200': {description: ok}}
  ping:
    post:
      responses: {'200': {description: ok}}
components:
  schemas:
    Invoice: {type: object, required: [id], properties: {id: {type: string}}}
"#;

#[test]
fn webhooks_and_callbacks_get_typed_payloads() {
    let api = lower(WEBHOOKS_AND_A_CALLBACK);
    let names: Vec<(&str, &str)> = api
        .webhooks
        .iter()
        .map(|w| (w.name.as_str(), w.variant.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("invoicePaid", "InvoicePaid"),
            ("ping", "Ping"),
            ("subscribe.onData", "SubscribeOnData")
        ]
    );
    assert_eq!(api.webhooks[0].payload, TypeRef::Named("Invoice".into()));
    assert_eq!(api.webhooks[1].payload, TypeRef::Json, "no body: any JSON");
    let TypeRef::Named(callback) = &api.webhooks[2].payload else {
        panic!("a named payload type");
    };
    let def = api
        .types
        .iter()
        .find(|t| &t.name == callback)
        .expect("defined");
    assert_eq!(
        def.module, "types",
        "webhook payloads live in the ungated shared module"
    );
}

#[test]
fn the_corpus_documents_with_webhooks_list_them() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("realspecs");
    for (file, count) in [
        ("museum.yaml", 1),
        ("adyen-configuration-webhooks.json", 26),
    ] {
        let doc = oncegen::read::load(&corpus.join(file)).expect("reads");
        let api = oncegen::lower::lower(&doc).expect("lowers");
        assert_eq!(api.webhooks.len(), count, "{file}");
        assert!(
            api.webhooks
                .iter()
                .all(|w| matches!(w.payload, TypeRef::Named(_))),
            "{file}: every payload is typed"
        );
    }
}
