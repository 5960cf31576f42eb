//! Documents the generator cannot handle fail with an error naming the JSON pointer and the
//! construct, never with a panic.

use sdk_generator::emit::Options;

fn error_of(text: &str) -> String {
    match sdk_generator::generate_str(text, "input.yaml", &Options::workspace()) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(text: &str, needles: &[&str]) {
    let message = error_of(text);
    for n in needles {
        assert!(message.contains(n), "`{message}` should mention `{n}`");
    }
}

const HEAD: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n";

#[test]
fn dangling_ref_names_the_pointer() {
    let doc = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        b: {{$ref: '#/components/schemas/Missing'}}\n"
    );
    assert_mentions(
        &doc,
        &[
            "#/components/schemas/A/properties/b",
            "dangling",
            "#/components/schemas/Missing",
        ],
    );
}

#[test]
fn external_ref_is_unsupported() {
    let doc =
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: {{$ref: 'other.yaml#/A'}}\n");
    assert_mentions(&doc, &["#/components/schemas/A", "external `$ref`"]);
}

#[test]
fn unknown_type_is_unsupported() {
    let doc = format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: {{type: banana}}\n");
    assert_mentions(&doc, &["#/components/schemas/A", "type: banana"]);
}

#[test]
fn non_schema_value_is_rejected() {
    let doc = format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: 42\n");
    assert_mentions(
        &doc,
        &["#/components/schemas/A", "schema must be an object"],
    );
}

#[test]
fn swagger_2_is_rejected() {
    assert_mentions(
        "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
        &["#/swagger", "Swagger 2.0"],
    );
}

#[test]
fn unknown_version_is_rejected() {
    assert_mentions(
        "openapi: 4.0.0\ninfo: {title: t, version: '1'}\n",
        &["#/openapi", "4.0.0"],
    );
}

#[test]
fn duplicate_operation_ids_are_rejected() {
    let doc = format!(
        "{HEAD}paths:\n  /a:\n    get: {{operationId: x, responses: {{'200': {{description: ok}}}}}}\n  /b:\n    get: {{operationId: x, responses: {{'200': {{description: ok}}}}}}\n"
    );
    assert_mentions(&doc, &["#/paths/~1b/get", "duplicate operationId `x`"]);
}

#[test]
fn bad_pagination_names_the_extension() {
    let doc = format!(
        "{HEAD}paths:\n  /a:\n    get:\n      operationId: x\n      x-pagination: {{model: page}}\n      responses: {{'200': {{description: ok}}}}\n"
    );
    let (api, _) =
        sdk_generator::generate_str(&doc, "input.yaml", &Options::workspace()).expect("lenient");
    let skipped = api
        .skipped
        .first()
        .map(|s| s.reason.clone())
        .unwrap_or_default();
    assert!(
        skipped.contains("#/paths/~1a/get/x-pagination"),
        "{skipped}"
    );
}

#[test]
fn unknown_at_most_one_of_member_is_located() {
    let doc = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties: {{a: {{type: string}}}}\n      x-at-most-one-of: [[a, nope]]\n"
    );
    assert_mentions(
        &doc,
        &["#/components/schemas/A/x-at-most-one-of/0", "`nope`"],
    );
}

#[test]
fn syntax_errors_name_the_source() {
    assert_mentions("openapi: [\n", &["input.yaml", "cannot parse"]);
    assert_mentions("{\"openapi\": ", &["input.yaml", "cannot parse"]);
}

#[test]
fn a_non_object_document_is_rejected() {
    assert_mentions("- 1\n- 2\n", &["`#`", "not an object"]);
}
