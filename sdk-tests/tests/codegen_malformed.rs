//! Documents the generator cannot handle fail with an error naming the JSON pointer and the
//! construct, never with a panic.

fn error_of(text: &str) -> String {
    match oncegen::generate_str(text, "input.yaml", &xtask::customer_cloud_sdk_options()) {
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
    let (api, _) = oncegen::generate_str(&doc, "input.yaml", &xtask::customer_cloud_sdk_options())
        .expect("lenient");
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
fn bad_effect_extensions_name_the_extension() {
    for (extension, pointer, words) in [
        ("x-destructive: yes", "/x-destructive", "`true` or `false`"),
        ("x-charges: true", "/x-charges", "`{amount: not-shown}`"),
        ("x-charges: {}", "/x-charges", "`{ceiling: [member, …]}`"),
        ("x-charges: {cap: [a]}", "/x-charges/cap", "only `ceiling`"),
        ("x-charges: {amount: 5}", "/x-charges/amount", "`not-shown`"),
        ("x-grants-access: true", "/x-grants-access", "naming what"),
        (
            "x-charges: {ceiling: []}",
            "/x-charges/ceiling",
            "non-empty list",
        ),
        (
            "x-charges: {ceiling: [1]}",
            "/x-charges/ceiling/0",
            "name of a request body member",
        ),
        ("x-charges: {ceiling: [a]}", "/x-charges", "no request body"),
    ] {
        let doc = format!(
            "{HEAD}paths:\n  /a:\n    post:\n      operationId: x\n      {extension}\n      responses: {{'200': {{description: ok}}}}\n"
        );
        let (api, _) =
            oncegen::generate_str(&doc, "input.yaml", &xtask::customer_cloud_sdk_options())
                .expect("lenient");
        let skipped = api
            .skipped
            .first()
            .map(|s| s.reason.clone())
            .unwrap_or_default();
        assert!(
            skipped.contains(&format!("#/paths/~1a/post{pointer}")) && skipped.contains(words),
            "{extension}: {skipped}"
        );
    }
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

/// How long a generation may go without an answer before the test calls it a hang. Only a
/// hang detector: far above any run on a loaded machine (a 10,000-deep document takes about
/// 20 s of CPU in a debug build, and a busy CI core can triple that); how fast the generator
/// is, is the benchmarks' business.
const HANG: std::time::Duration = std::time::Duration::from_secs(900);

/// Runs `f` on a thread of its own and fails (instead of hanging) when it gives no answer
/// within [`HANG`].
fn without_hang<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(HANG).unwrap_or_else(|e| {
        panic!(
            "no answer within {} s ({e}): a hang or a panic",
            HANG.as_secs()
        )
    })
}

fn generate_owned(text: String, name: &'static str) -> Result<serde_json::Value, String> {
    oncegen::generate_str(&text, name, &xtask::customer_cloud_sdk_options())
        .map(|(api, _)| serde_json::to_value(&api).expect("the model serializes"))
        .map_err(|e| e.to_string())
}

/// The `maximum` of property `n` of component `A` in the lowered model.
fn maximum_of_a(api: &serde_json::Value) -> serde_json::Value {
    api["types"]
        .as_array()
        .and_then(|types| types.iter().find(|t| t["name"] == "A"))
        .map(|a| a["kind"]["fields"][0]["constraints"]["maximum"].clone())
        .unwrap_or_default()
}

#[test]
fn integers_beyond_64_bits_are_kept_in_yaml_and_json() {
    let yaml = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        n: {{type: integer, minimum: -9223372036854776000, maximum: 18446744073709552000, multipleOf: 1000000000000000000000000000000000000000}}\n"
    );
    let json = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
        "components": {"schemas": {"A": {"type": "object", "properties": {"n": {"type": "integer",
        "minimum": -9223372036854776000, "maximum": 18446744073709552000}}}}}}"#;
    for (text, name) in [(yaml, "input.yaml"), (json.to_owned(), "input.json")] {
        let api = generate_owned(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            maximum_of_a(&api),
            serde_json::json!(18_446_744_073_709_552_000.0_f64),
            "{name}"
        );
    }
}

#[test]
fn duplicate_yaml_keys_name_the_line() {
    let doc = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: {{type: string}}\n    A: {{type: integer}}\n"
    );
    assert_mentions(
        &doc,
        &[
            "input.yaml",
            "components.schemas",
            "duplicate key `A`",
            "line 6",
        ],
    );
}

#[test]
fn yaml_tags_and_scalar_keys_are_read() {
    let doc = format!(
        "{HEAD}paths:\n  /a:\n    get:\n      operationId: getA\n      description: !note tagged\n      responses:\n        200: {{description: ok}}\n"
    );
    let api = generate_owned(doc, "input.yaml").expect("generates");
    assert_eq!(api["operations"][0]["description"], "tagged");
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("invalid-utf8.yaml");
    let mut bytes = format!("{HEAD}paths: {{}}\n# caf").into_bytes();
    bytes.extend([0xe9, b'\n']);
    std::fs::write(&path, bytes).expect("written");
    let message = match oncegen::generate(&path, &xtask::customer_cloud_sdk_options()) {
        Ok(_) => panic!("invalid UTF-8 accepted"),
        Err(e) => e.to_string(),
    };
    for needle in [
        "invalid-utf8.yaml",
        "invalid UTF-8",
        "line 4 column 6",
        "0xe9",
    ] {
        assert!(
            message.contains(needle),
            "`{message}` should mention `{needle}`"
        );
    }
}

/// A JSON document of `operations` operations, each with its own schema and `example_len`
/// bytes of examples (where large real documents keep their bulk). Built as text: a value
/// tree of this size would take more memory than the parse under test.
fn big_document(operations: usize, example_len: usize) -> String {
    let words = "lorem ipsum dolor sit amet ".repeat(6);
    let rows: Vec<String> = (0..example_len / 200)
        .map(|r| format!(r#"{{"name": "thing {r:08}: {words}", "size": {r}, "tags": ["a"]}}"#))
        .collect();
    let example = rows.join(", ");
    let mut paths = Vec::new();
    let mut schemas = vec![
        r#""Meta": {"type": "object", "properties": {"created": {"type": "string", "format": "date-time"}}}"#.to_owned(),
    ];
    for i in 0..operations {
        let thing = format!(r##"{{"$ref": "#/components/schemas/Thing{i}"}}"##);
        paths.push(format!(
            r#""/things{i}/{{id}}": {{"post": {{"operationId": "updateThing{i}", "tags": ["area{area}"],
            "parameters": [{{"name": "id", "in": "path", "required": true, "schema": {{"type": "string"}}}}],
            "requestBody": {{"content": {{"application/json": {{"schema": {thing}}}}}}},
            "responses": {{"200": {{"description": "ok", "content": {{"application/json": {{
                "schema": {{"type": "array", "items": {thing}}}, "example": [{example}]}}}}}}}}}}}}"#,
            area = i % 20
        ));
        schemas.push(format!(
            r##""Thing{i}": {{"type": "object", "required": ["name"], "properties": {{"name": {{"type": "string"}},
            "size": {{"type": "integer", "format": "int64"}}, "tags": {{"type": "array", "items": {{"type": "string"}}}},
            "meta": {{"$ref": "#/components/schemas/Meta"}}}}}}"##
        ));
    }
    format!(
        r#"{{"openapi": "3.1.0", "info": {{"title": "big", "version": "1"}}, "paths": {{{}}}, "components": {{"schemas": {{{}}}}}}}"#,
        paths.join(",\n"),
        schemas.join(",\n")
    )
}

#[test]
fn a_50_mb_document_generates_from_json_and_yaml() {
    let json = big_document(2_000, 25_000);
    assert!(json.len() > 50_000_000, "{} bytes", json.len());
    // JSON is YAML flow syntax; the leading comment sends it through the YAML parser.
    let yaml = format!("# the same document, read as YAML\n{json}");
    for (text, name) in [(json, "big.json"), (yaml, "big.yaml")] {
        let api = without_hang(move || generate_owned(text, name)).expect("generates");
        assert_eq!(
            api["operations"].as_array().map(Vec::len),
            Some(2_000),
            "{name}"
        );
    }
}

/// `depth` schemas nested through `properties`, as JSON text.
fn nested_schema(depth: usize) -> String {
    let mut schema = r#"{"type": "string"}"#.to_owned();
    for _ in 0..depth {
        schema = format!(r#"{{"type": "object", "properties": {{"inner": {schema}}}}}"#);
    }
    schema
}

#[test]
fn schemas_nested_10_000_deep_are_a_located_error() {
    let json = format!(
        r#"{{"openapi": "3.1.0", "info": {{"title": "t", "version": "1"}}, "paths": {{}}, "components": {{"schemas": {{"A": {}}}}}}}"#,
        nested_schema(10_000)
    );
    // YAML flow syntax, as deep.
    let yaml = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: {}\n",
        nested_schema(10_000)
    );
    for (text, name) in [(json, "deep.json"), (yaml, "deep.yaml")] {
        let message = without_hang(move || generate_owned(text, name))
            .expect_err("nesting this deep is refused");
        for needle in [name, "recursion limit exceeded", "line"] {
            assert!(
                message.contains(needle),
                "`{message}` should mention `{needle}`"
            );
        }
    }
}

#[test]
fn a_10_000_long_chain_of_local_refs_is_a_located_error() {
    // Each schema lives outside `#/components/schemas`, so each `$ref` is lowered in place.
    let mut defs = serde_json::Map::new();
    for i in 0..10_000 {
        defs.insert(
            format!("s{i}"),
            serde_json::json!({"type": "object", "properties": {"next": {"$ref": format!("#/x-defs/s{}", i + 1)}}}),
        );
    }
    defs.insert("s10000".to_owned(), serde_json::json!({"type": "string"}));
    let doc = serde_json::json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "x-defs": defs,
        "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/x-defs/s0"}}}}}}}}});
    let api = without_hang(move || generate_owned(doc.to_string(), "chain.json")).expect("lenient");
    let reason = api["skipped"][0]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    for needle in ["#/x-defs/s", "nested deeper than"] {
        assert!(
            reason.contains(needle),
            "`{reason}` should mention `{needle}`"
        );
    }
}

#[test]
fn a_chain_of_10_000_component_schemas_generates() {
    let mut schemas = serde_json::Map::new();
    for i in 0..10_000 {
        schemas.insert(
            format!("S{i}"),
            serde_json::json!({"type": "object", "properties": {"next": {"$ref": format!("#/components/schemas/S{}", i + 1)}}}),
        );
    }
    schemas.insert("S10000".to_owned(), serde_json::json!({"type": "string"}));
    let doc = serde_json::json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {}, "components": {"schemas": schemas}});
    let api =
        without_hang(move || generate_owned(doc.to_string(), "chain.json")).expect("generates");
    assert_eq!(api["types"].as_array().map(Vec::len), Some(10_001));
}

#[test]
fn a_ref_cycle_through_all_of_terminates() {
    // Each part is included twice: a naive walk would take 2^depth steps.
    let doc = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      allOf: [{{$ref: '#/components/schemas/B'}}, {{$ref: '#/components/schemas/B'}}, {{properties: {{a: {{type: string}}}}}}]\n    B:\n      allOf: [{{$ref: '#/components/schemas/A'}}, {{$ref: '#/components/schemas/A'}}, {{properties: {{b: {{type: string}}}}}}]\n"
    );
    let api = without_hang(move || generate_owned(doc, "cycle.yaml")).expect("handled");
    let fields = |name: &str| -> Vec<String> {
        api["types"]
            .as_array()
            .and_then(|types| types.iter().find(|t| t["name"] == name))
            .and_then(|t| t["kind"]["fields"].as_array())
            .map(|f| {
                f.iter()
                    .filter_map(|f| f["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    // Both sides of the cycle require each other: each has the properties of both.
    assert_eq!(fields("A"), ["b", "a"]);
    assert_eq!(fields("B"), ["a", "b"]);
}

#[test]
fn a_diamond_of_all_of_parts_is_walked_once() {
    // `P0` includes `P1` twice, `P1` includes `P2` twice, ...: 2^30 paths, 31 parts.
    let mut schemas = String::new();
    for i in 0..30 {
        let next = format!("{{$ref: '#/components/schemas/P{}'}}", i + 1);
        schemas.push_str(&format!(
            "    P{i}:\n      allOf: [{next}, {next}, {{properties: {{p{i}: {{type: string}}}}}}]\n"
        ));
    }
    schemas.push_str("    P30: {properties: {p30: {type: string}}}\n");
    let doc = format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n{schemas}");
    let api = without_hang(move || generate_owned(doc, "diamond.yaml")).expect("handled");
    assert_eq!(api["types"].as_array().map(Vec::len), Some(31));
}
