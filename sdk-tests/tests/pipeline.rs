//! The generator's pipeline (read → lower → emit) on small documents, one behaviour each
//! (`sdk-tests/fixtures/pipeline/*.yaml`, which say what they show).
//!
//! Each test snapshots the modules its fixture's types and operations land in, with the skipped
//! operations (`sdk-tests/tests/snapshots/pipeline__<fixture>.snap`), and asserts the behaviour it is
//! about on the formatted source, so a snapshot accepted without reading cannot drop it.
//! Assertions read the source [`flat`], so they do not depend on where lines wrap.

use oncegen::emit::{GeneratedFile, Layout, Options};
use oncegen::ir::Api;
use std::path::{Path, PathBuf};

/// The crate's scaffolding (manifest, module tree, client, error codes), left out of these
/// snapshots since the fixtures barely touch it; `codegen_snapshots.rs` snapshots it.
const SCAFFOLDING: &[&str] = &[
    "Cargo.toml",
    "src/lib.rs",
    "src/generated/mod.rs",
    "src/generated/client.rs",
    "src/generated/error_codes.rs",
];

/// What the pipeline made of one fixture.
struct Generated {
    api: Api,
    files: Vec<GeneratedFile>,
}

/// Reads `sdk-tests/fixtures/pipeline/<fixture>.yaml`.
fn fixture_text(fixture: &str) -> (String, String) {
    let label = format!("sdk-tests/fixtures/pipeline/{fixture}.yaml");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(&label);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{label}: {e}"));
    (label, text)
}

/// The options of a fixture's standalone crate.
fn options(fixture: &str, label: &str) -> Options {
    Options {
        crate_name: format!("pipeline-{}", fixture.replace('_', "-")),
        spec_label: label.to_owned(),
        layout: Layout::Standalone {
            runtime_path: PathBuf::from("../oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// Generates a standalone crate from the fixture and snapshots it.
fn generate(fixture: &str) -> Generated {
    let (label, text) = fixture_text(fixture);
    let (api, files) = oncegen::generate_str(&text, &label, &options(fixture, &label))
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let generated = Generated { api, files };
    insta::assert_snapshot!(fixture, generated.render());
    generated
}

impl Generated {
    /// The snapshot text: the skipped operations, then every file but the scaffolding.
    fn render(&self) -> String {
        let mut out = String::new();
        for skip in &self.api.skipped {
            out.push_str(&format!("skipped {}: {}\n", skip.pointer, skip.reason));
        }
        let modules = self
            .files
            .iter()
            .filter(|f| !SCAFFOLDING.iter().any(|s| f.path == Path::new(s)));
        for file in modules {
            out.push_str(&format!(
                "\n==== {} ====\n{}",
                file.path.display(),
                file.contents
            ));
        }
        out
    }

    /// The emitted file at `path`, relative to the crate root.
    fn file(&self, path: &str) -> &str {
        self.files
            .iter()
            .find(|f| f.path == Path::new(path))
            .map(|f| f.contents.as_str())
            .unwrap_or_else(|| panic!("no file `{path}`"))
    }

    /// Every emitted Rust file, concatenated.
    fn source(&self) -> String {
        self.files
            .iter()
            .filter(|f| f.path.extension().is_some_and(|e| e == "rs"))
            .map(|f| f.contents.as_str())
            .collect()
    }

    /// The items (at any depth) whose first line, indentation aside, satisfies `is_head`: each
    /// from that line to its closing line at the same indentation.
    fn items(&self, is_head: impl Fn(&str) -> bool) -> Vec<String> {
        let source = self.source();
        let lines: Vec<&str> = source.lines().collect();
        let mut out = Vec::new();
        for (start, line) in lines.iter().enumerate() {
            let head = line.trim_start();
            if !is_head(head) {
                continue;
            }
            let indent = &line[..line.len() - head.len()];
            let end = if head.ends_with(';') {
                start
            } else {
                (start..lines.len())
                    .find(|&i| {
                        lines[i]
                            .strip_prefix(indent)
                            .is_some_and(|rest| matches!(rest, "}" | "};" | ");" | "});"))
                    })
                    .unwrap_or_else(|| panic!("the item `{head}` does not end"))
            };
            out.push(lines[start..=end].join("\n"));
        }
        out
    }

    /// The one item whose first line starts with `head`.
    fn item(&self, head: &str) -> String {
        let mut found = self.items(|line| line.starts_with(head));
        assert_eq!(found.len(), 1, "items starting with `{head}`");
        found.remove(0)
    }

    /// Named type `name`: its definition and every `impl` block of it.
    fn type_def(&self, name: &str) -> String {
        let heads = [
            format!("pub struct {name} "),
            format!("pub enum {name} "),
            format!("pub type {name} "),
            format!("impl {name} {{"),
            format!("::oncegen_runtime::json_object!({name} {{"),
            format!("::oncegen_runtime::tagged_union!({name} by "),
        ];
        let impl_for = format!(" for {name} {{");
        let found = self.items(|line| {
            heads.iter().any(|h| line.starts_with(h.as_str()))
                || (line.starts_with("impl") && line.ends_with(&impl_for))
        });
        assert!(!found.is_empty(), "no type `{name}`");
        found.join("\n")
    }

    /// The types `name` converts from, in its `from_variants!` call (none without one).
    fn conversions(&self, name: &str) -> Vec<String> {
        let head = format!("::oncegen_runtime::from_variants!({name} {{");
        let calls = self.items(|line| line.starts_with(head.as_str()));
        let Some(call) = calls.first() else {
            return Vec::new();
        };
        let call = flat(call);
        let entries = call[head.len()..].trim_end_matches("});").trim();
        let mut members = Vec::new();
        let mut depth = 0;
        let mut member = String::new();
        for c in entries.chars() {
            match c {
                '(' if depth == 0 => depth = 1,
                ')' if depth == 1 => {
                    depth = 0;
                    members.push(std::mem::take(&mut member));
                }
                '(' | '<' => {
                    depth += 1;
                    member.push(c);
                }
                ')' | '>' => {
                    depth -= 1;
                    member.push(c);
                }
                _ if depth > 0 => member.push(c),
                _ => {}
            }
        }
        members
    }

    /// The client method returning builder `builder` (with its docs), and the builder's setters
    /// and `send`.
    fn operation(&self, builder: &str) -> String {
        let returns = format!("builders::{builder}<'_>");
        let source = self.source();
        let lines: Vec<&str> = source.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains(&returns))
            .unwrap_or_else(|| panic!("no client method returns `{returns}`"));
        // Back to the method's `pub fn` line and the doc comment above it.
        let mut start = (0..=at)
            .rev()
            .find(|&i| lines[i].trim_start().starts_with("pub fn "))
            .expect("the method's signature");
        let indent = &lines[start][..lines[start].len() - lines[start].trim_start().len()];
        while start > 0 && lines[start - 1].trim_start().starts_with("///") {
            start -= 1;
        }
        let end = (at..lines.len())
            .find(|&i| lines[i].strip_prefix(indent) == Some("}"))
            .expect("the method ends");
        let method = lines[start..=end].join("\n");
        let builder = self.item(&format!("impl<'c> {builder}<'c> {{"));
        format!("{method}\n{builder}")
    }

    /// Whether the operation with `operation_id` returns an operation receipt, in the model.
    fn receipt(&self, operation_id: &str) -> bool {
        self.api
            .operations
            .iter()
            .find(|o| o.operation_id == operation_id)
            .unwrap_or_else(|| panic!("no operation `{operation_id}`"))
            .receipt
    }

    /// The skipped operations, as `(pointer, reason)`.
    fn skipped(&self) -> Vec<(&str, &str)> {
        self.api
            .skipped
            .iter()
            .map(|s| (s.pointer.as_str(), s.reason.as_str()))
            .collect()
    }
}

/// `text` on one line: whitespace runs become one space and the breaks prettyplease puts inside
/// long brackets are undone, so `fn f(\n    a: A,\n) -> B` reads `fn f(a: A) -> B`.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(" )", ")")
        .replace("< ", "<")
        .replace(", >", ">")
        .replace(" >", ">")
}

/// Asserts that the flattened `text` contains each of `needles`.
#[track_caller]
fn assert_has(text: &str, needles: &[&str]) {
    let flat = flat(text);
    for needle in needles {
        assert!(flat.contains(needle), "missing `{needle}` in:\n{text}");
    }
}

/// Asserts that the flattened `text` contains none of `needles`.
#[track_caller]
fn assert_lacks(text: &str, needles: &[&str]) {
    let flat = flat(text);
    for needle in needles {
        assert!(!flat.contains(needle), "unexpected `{needle}` in:\n{text}");
    }
}

#[test]
fn serde_json_is_reexported_with_the_crates_the_api_names() {
    // `Open`'s catch-all map is a `serde_json::Map`; its `Value`s come from the re-export.
    let g = generate("open_objects");
    assert_has(g.file("src/generated/mod.rs"), &["pub use ::serde_json;"]);
}

#[test]
fn items_without_type_decode_a_list_typed_or_any_other_value() {
    let g = generate("typeless_items");
    assert_has(
        &g.type_def("Created"),
        &[
            "pub data: Option<CreatedData>,",
            "pub names: Option<Vec<String>>,",
        ],
    );
    assert_has(
        &g.type_def("CreatedData"),
        &["TagList(Vec<Tag>),", "Other(::serde_json::Value),"],
    );
    assert_has(
        &g.source(),
        &["::oncegen_runtime::untagged_union!(CreatedData { TagList, Other });"],
    );
}

#[test]
fn read_only_and_write_only_are_required_only_where_they_travel() {
    let g = generate("direction");
    // Both ways: the server's `id` is neither an argument nor a setter, and a response
    // without the write-only `password` decodes.
    let user = g.type_def("User");
    assert_has(
        &user,
        &[
            "pub id: Option<String>,",
            "pub name: String,",
            "pub password: Option<String>,",
            "pub fn new(name: impl Into<String>) -> Self",
            "pub fn password(mut self",
            "json_object!(User { id optional, name, password optional });",
        ],
    );
    assert_lacks(&user, &["pub fn id("]);
    // Sent only: the write-only secret stays required (named, beside the label).
    let key_request = g.type_def("KeyRequest");
    assert_has(
        &key_request,
        &[
            "pub fn new(args: KeyRequestArgs) -> Self",
            "let KeyRequestArgs { label, secret } = args;",
        ],
    );
    assert_lacks(&key_request, &["pub fn id("]);
    // Received only: the read-only id stays required, the secret is not.
    assert_has(
        &g.type_def("Key"),
        &["pub id: String,", "pub secret: Option<String>,"],
    );
}

#[test]
fn documented_response_headers_are_read_typed() {
    let g = generate("response_headers");
    // Each operation's view is its own, named after it, though GetA and GetB document the
    // same headers: a shared view would be renamed by a header added to one of them.
    assert_has(
        &g.type_def("GetAHeaders"),
        &[
            "pub x_remaining: Option<i64>,",
            "pub x_request_id: Option<::uuid::Uuid>,",
            r#"x_request_id: meta.header_as("x-request-id"),"#,
        ],
    );
    assert_has(
        &g.type_def("CreateCHeaders"),
        &[
            "pub location: Option<String>,",
            "pub x_request_id: Option<::uuid::Uuid>,",
        ],
    );
    assert_lacks(&g.type_def("CreateCHeaders"), &["content_type"]);
    let returns = |view: &str| {
        format!(
            "pub fn response_headers(meta: &::oncegen_runtime::ResponseMeta) -> crate::types::{view} {{"
        )
    };
    assert_has(&flat(&g.operation("GetA")), &[&returns("GetAHeaders")]);
    assert_has(&flat(&g.operation("GetB")), &[&returns("GetBHeaders")]);
    assert_lacks(&g.source(), &["struct ResponseHeaders"]);
    assert_has(
        &flat(&g.operation("CreateC")),
        &[&returns("CreateCHeaders")],
    );
    assert_lacks(&g.operation("GetD"), &["response_headers"]);
}

#[test]
fn inline_error_bodies_are_named_after_their_shape() {
    let g = generate("error_names");
    let names: Vec<&str> = g.api.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["ErrorCodeMessage", "QuotaProblem"]);
    assert_has(
        &flat(&g.operation("GetAddons")),
        &[r#"::oncegen_runtime::error_body!(crate::types::ErrorCodeMessage, "401", "404");"#],
    );
    assert_has(
        &flat(&g.item("pub enum CreateTokenError {")),
        &[
            "Status400(crate::types::ErrorCodeMessage)",
            "Status429(crate::types::QuotaProblem)",
        ],
    );
}

#[test]
fn identical_inline_unions_are_one_type_per_place() {
    let g = generate("union_shapes");
    let names: Vec<&str> = g.api.types.iter().map(|t| t.name.as_str()).collect();
    // Each operation's parameter names its own: none depends on which was lowered first.
    assert_eq!(
        names,
        [
            "AddContactRequest",
            "AddContactRequestEmail",
            "AddContactRequestPhone",
            "DeleteItemId",
            "ReadItemId",
            "UpdateItemId"
        ]
    );
    for builder in ["ReadItem", "UpdateItem", "DeleteItem"] {
        assert_has(&flat(&g.operation(builder)), &[&format!("id: {builder}Id")]);
    }
    let id = flat(&g.type_def("DeleteItemId"));
    assert_has(
        &id,
        &[
            "Integer(i64)",
            "String(String)",
            "impl From<&str> for DeleteItemId",
        ],
    );
    assert_eq!(g.conversions("DeleteItemId"), ["i64", "String"]);
    assert_has(
        &flat(&g.type_def("AddContactRequest")),
        &[
            "Email(AddContactRequestEmail)",
            "Phone(AddContactRequestPhone)",
        ],
    );
}

#[test]
fn a_component_wrapping_an_inline_schema_is_that_type() {
    let g = generate("wrapped_components");
    let names: Vec<&str> = g.api.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Owner", "Pet"]);
    assert_has(
        &g.type_def("Pet"),
        &[
            "pub struct Pet {",
            "pub fn new(name: impl Into<String>) -> Self",
        ],
    );
    assert_has(&g.source(), &["/// A pet."]);
    assert_lacks(&g.source(), &["allOf/0"]);
    assert_has(&g.type_def("Owner"), &["pub struct Owner {"]);
    assert_lacks(&g.source(), &["Inner"]);
}

#[test]
fn deprecation_notes_come_only_from_guidance() {
    let g = generate("deprecation_notes");
    let project = g.type_def("Project");
    assert_has(
        &project,
        &[
            "#[deprecated] pub features: Option<Vec<String>>,",
            r#"#[deprecated(note = "Superseded by `owner_id`, use that instead.")] pub owner: Option<String>,"#,
        ],
    );
    assert_lacks(&project, &["A list of features in a project\")"]);
}

#[test]
fn names_of_only_an_underscore_and_meeting_derived_ids_still_generate() {
    let g = generate("edge_names");
    let ids: Vec<&str> = g
        .api
        .operations
        .iter()
        .map(|o| o.operation_id.as_str())
        .collect();
    assert_eq!(ids, ["getAB", "getAB2", "listThings", "_"]);
    assert!(g.api.skipped.is_empty(), "{:?}", g.api.skipped);
    let source = g.source();
    assert_has(
        &source,
        &[
            "pub fn get_ab(&self)",
            "pub fn get_ab2(&self)",
            r#"::oncegen_runtime::json_object!(Thing { value = "_", value_2 = "🎉_" optional, kind optional });"#,
            r#"::oncegen_runtime::string_enum!(ThingKind, Unknown, Value = "_", Value2 = "🎉_", A = "a");"#,
            r#"request.query_opt("_", self.value.as_ref());"#,
            r#"request.query("🎉_", &self.value_2);"#,
            "pub fn value(&self, value: impl Into<String>, body: Value) -> builders::Value<'_>",
            r#"::oncegen_runtime::json_object!(Value { value = "🎉_" });"#,
        ],
    );
}

#[test]
fn a_wrong_x_pagination_skips_its_operation_at_the_extension() {
    let g = generate("extension_misuse");
    let skipped: Vec<(&str, &str)> = g
        .api
        .skipped
        .iter()
        .map(|s| (s.pointer.as_str(), s.reason.as_str()))
        .collect();
    let expect = [
        (
            "#/paths/~1by-header/get",
            "at `#/paths/~1by-header/get/x-pagination`: `x-pagination`: parameter `offset` is a header parameter; the continuation must be a query parameter",
        ),
        (
            "#/paths/~1by-object/get",
            "at `#/paths/~1by-object/get/x-pagination`: `x-pagination`: parameter `offset` must be an integer",
        ),
        (
            "#/paths/~1numbered-cursor/get",
            "at `#/paths/~1numbered-cursor/get/x-pagination`: `x-pagination`: response field `next_offset` of `OffsetPage` must be a string",
        ),
    ];
    assert_eq!(skipped, expect);
    let ids: Vec<&str> = g
        .api
        .operations
        .iter()
        .map(|o| o.operation_id.as_str())
        .collect();
    assert_eq!(ids, ["fine"]);
}

#[test]
fn a_contract_version_read_that_needs_arguments_is_a_located_error() {
    let fixture = "contract_version_argument";
    let (label, text) = fixture_text(fixture);
    let error = match oncegen::generate_str(&text, &label, &options(fixture, &label)) {
        Ok(_) => panic!("{label}: the document should be refused"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        error,
        "at `#/paths/~1version~1{region}/get/x-contract-version`: `x-contract-version`: \
         `check_contract` calls `getVersion` without arguments, but it requires path parameter \
         `region`, query parameter `detail`"
    );
}

#[test]
fn integer_ranges_pick_fitting_types() {
    let g = generate("integer_ranges");
    assert_has(
        &g.type_def("P"),
        &[
            "pub port: u16,",
            "pub count: Option<u64>,",
            "pub delta: Option<i64>,",
        ],
    );
}

#[test]
fn string_enums_keep_unknown_values() {
    let g = generate("string_enums");
    assert_has(&g.type_def("S"), &["On,", "Off,", "Unknown(String),"]);
    let source = g.source();
    assert_has(
        &source,
        &[r#"::oncegen_runtime::string_enum!(S, Unknown, On = "on", Off = "off");"#],
    );
    assert_lacks(&source, &["serde(other)"]);
}

#[test]
fn two_or_more_required_parameters_are_named_at_the_call() {
    let g = generate("named_arguments");
    assert_has(
        &g.type_def("GetRecordArgs"),
        &[
            "pub struct GetRecordArgs {",
            "pub zone_id: String,",
            "pub record_id: String,",
        ],
    );
    assert_has(
        &g.operation("GetRecord"),
        &[
            "pub fn get_record(&self, args: GetRecordArgs) -> builders::GetRecord<'_>",
            "let GetRecordArgs { zone_id, record_id } = args;",
        ],
    );
    // A required query parameter is named with the path's; an optional one stays a setter.
    assert_has(
        &g.operation("ListRecords"),
        &[
            "pub fn list_records(&self, args: ListRecordsArgs)",
            "let ListRecordsArgs { zone_id, kind } = args;",
            "pub fn limit(mut self, value: u8) -> Self",
        ],
    );
    assert_has(
        &g.operation("PutRecord"),
        &["pub fn put_record(&self, args: PutRecordArgs, body: PutRecordRequest)"],
    );
    assert_has(
        &g.operation("GetZone"),
        &["pub fn get_zone(&self, zone_id: impl Into<String>) -> builders::GetZone<'_>"],
    );
    assert_lacks(&g.source(), &["GetZoneArgs"]);
}

#[test]
fn two_or_more_required_body_fields_are_named_in_new() {
    let g = generate("named_fields");
    let token = g.type_def("TokenCreate");
    assert_has(
        &token,
        &[
            "pub fn new(args: TokenCreateArgs) -> Self",
            "let TokenCreateArgs { expires_at, token_name, type_ } = args;",
            "pub fn note(mut self, value: impl Into<String>) -> Self",
        ],
    );
    let args = g.item("pub struct TokenCreateArgs ");
    assert_has(
        &args,
        &[
            "/// What the token is for.",
            "pub type_: String,",
            "pub token_name: String,",
            "pub expires_at: Option<::chrono::DateTime<::chrono::Utc>>,",
        ],
    );
    // The server's field, the fixed value and the optional one are not the caller's to name.
    assert_lacks(&args, &["pub id", "pub kind", "pub note"]);
    assert_has(
        &g.type_def("Rename"),
        &["pub fn new(name: impl Into<String>) -> Self"],
    );
    assert_lacks(&g.source(), &["RenameArgs"]);
}

/// Identical inline enums are one type per place, each named after its own place: a merged
/// type would be named after whichever place lowering met first (issue 41).
#[test]
fn identical_inline_enums_are_one_type_per_place() {
    let g = generate("inline_enums");
    assert_has(&g.type_def("Zone"), &["pub status: Option<ZoneStatus>,"]);
    assert_has(
        &flat(&g.source()),
        &[
            "string_enum!(ZoneStatus, Unknown, Active = \"active\", Suspended = \"suspended\");",
            // Its variants in its own place's order.
            "string_enum!(ListZonesStatus, Unknown, Suspended = \"suspended\", Active = \"active\");",
        ],
    );
    assert_has(
        &g.operation("ListZones"),
        &["pub fn status(mut self, value: super::ListZonesStatus) -> Self"],
    );
    assert_has(
        &g.operation("ListServers"),
        &[
            "pub fn state(mut self, value: super::ListServersState) -> Self",
            "pub fn sort(mut self, value: super::ListServersSort) -> Self",
        ],
    );
}

#[test]
fn request_types_get_constructors_and_nullable_fields() {
    let g = generate("request_constructors");
    assert_has(
        &g.type_def("R"),
        &[
            "pub fn new(name: impl Into<String>) -> Self",
            "pub note: ::oncegen_runtime::Nullable<String>,",
            "::oncegen_runtime::json_object!(R { name, note optional });",
            "note: ::oncegen_runtime::Nullable::Absent",
        ],
    );
}

#[test]
fn recursive_fields_are_boxed() {
    let g = generate("recursion");
    assert_has(
        &g.type_def("N"),
        &["pub next: Option<Box<N>>,", "pub all: Option<Vec<N>>,"],
    );
}

#[test]
fn operations_document_method_path_and_idempotency() {
    let g = generate("operation_docs");
    assert_has(
        &g.operation("DoX"),
        &[
            "Sends `POST /v1/x/{id}`",
            "Idempotency-Key: required",
            "pub fn idempotency_key(mut self, key: impl Into<String>)",
            r#"request.path_param("id", &self.id);"#,
        ],
    );
}

#[test]
fn builders_reserve_only_the_setters_they_have() {
    let g = generate("builder_setters");
    let read = g.operation("Lookup");
    assert_has(
        &read,
        &[
            "pub fn idempotency_key(mut self, value",
            "pub fn operation_format(mut self, value",
            "pub fn body(mut self, value",
            "pub fn timeout_2(mut self, value",
            r#"request.query_opt("timeout", self.timeout_2.as_ref());"#,
            "pub fn download(mut self, value",
            "pub fn error_body(mut self, value",
            "pub fn response_headers(mut self, value",
        ],
    );
    assert_lacks(
        &read,
        &[
            "idempotency_key_2",
            "operation_format_2",
            "download_2",
            "error_body_2",
            "response_headers_2",
        ],
    );
    assert_has(
        &g.operation("Fetch"),
        &[
            "pub fn download_2(mut self, value",
            "pub fn error_body_2(mut self, value",
            "pub fn response_headers_2(mut self, value",
        ],
    );
    assert_has(
        &g.operation("Write"),
        &[
            "pub fn idempotency_key_2(mut self, value",
            "pub fn operation_format_2(mut self, value",
            "pub fn idempotency_key(mut self, key",
            "pub fn operation_format(mut self, on: bool)",
        ],
    );
}

#[test]
fn operation_receipts_return_the_specs_own_type() {
    let g = generate("operation_receipt");
    let poll = g.operation("Poll");
    assert_has(
        &poll,
        &[
            "::oncegen_runtime::ResponseFuture<'c, super::Env>",
            "Returns an operation receipt",
        ],
    );
    assert_lacks(&poll, &["operation_format"]);
    let plain = g.operation("Plain");
    assert_has(
        &plain,
        &["::oncegen_runtime::ResponseFuture<'c, super::Env>"],
    );
    assert_lacks(&plain, &["operation receipt"]);
    assert!(g.receipt("poll") && !g.receipt("plain"));
}

#[test]
fn open_objects_keep_unknown_members() {
    let g = generate("open_objects");
    assert_has(
        &g.type_def("Open"),
        &[
            "pub additional_properties: ::serde_json::Map<String, ::serde_json::Value>,",
            "::oncegen_runtime::json_object!(Open { ok optional, ..additional_properties });",
        ],
    );
    assert_has(
        &g.type_def("Typed"),
        &[
            "pub additional_properties: Option<String>,",
            "pub additional_properties_2: ::std::collections::BTreeMap<String, i64>,",
            "name, additional_properties optional, ..additional_properties_2",
            "additional_properties_2: ::std::default::Default::default()",
        ],
    );
    for closed in ["Closed", "Unsaid"] {
        assert_lacks(&g.type_def(closed), &["flatten", ".."]);
    }
}

#[test]
fn all_of_parts_that_only_annotate_shape_nothing() {
    let g = generate("annotated_all_of");
    assert_has(&g.type_def("Rule"), &["pub status: Option<Status>,"]);
    assert_lacks(&g.type_def("Rule"), &["RuleStatus"]);
}

#[test]
fn a_discriminated_base_is_the_union_of_its_subtypes() {
    let g = generate("discriminated_subtypes");
    assert_has(
        &g.type_def("Pet"),
        &[
            "pub enum Pet { /// Selected by `cat`. Cat(Cat), /// Selected by `dog`. Dog(Dog),",
            "Unknown(::serde_json::Value),",
            "::oncegen_runtime::tagged_union!(Pet by \"petType\" { Cat = \"cat\", Dog = \"dog\" });",
        ],
    );
    assert_has(
        &g.type_def("Cat"),
        &["pub pet_type: String,", "pub indoor: Option<bool>,"],
    );
    assert_has(
        &g.type_def("Contact"),
        &[
            "pub enum Contact { /// Selected by `BILLING`. Billing(Billing), /// Selected by `TECHNICAL`. Technical(Technical),",
        ],
    );
    assert_has(
        &g.type_def("SigningKey"),
        &[
            "pub enum SigningKey { /// Selected by `RSA`. Rsa(SigningKeyRsa), /// Selected by `EC`. Ec(SigningKeyEc),",
        ],
    );
    assert_has(
        &g.type_def("SigningKeyRsa"),
        &["pub e: Option<String>,", "pub alg: Option<String>,"],
    );
    // The tag `kty` admits only "RSA" in that member: no field, the macro writes and checks it.
    assert!(flat(&g.source()).contains(
        "json_object!(SigningKeyRsa tagged \"kty\" = \"RSA\" { e optional, alg optional });"
    ));
}

#[test]
fn envelope_operations_leave_the_format_header_to_the_runtime() {
    let g = generate("envelope_header");
    let with = g.operation("WithEnvelope");
    assert_lacks(&with, &["x_svc_response_format", "request.header("]);
    assert_has(&with, &["pub fn operation_format(mut self, on: bool)"]);
    assert_has(
        &g.operation("WithoutEnvelope"),
        &[
            "pub fn x_svc_response_format(mut self, value",
            r#"request.header_opt("x-svc-response-format", self.x_svc_response_format.as_ref());"#,
        ],
    );
}

#[test]
fn query_lists_follow_style_and_explode() {
    let g = generate("query_lists");
    assert_has(
        &g.operation("List"),
        &[
            r#"request.query("ids", item);"#,
            r#"request.query("more", item);"#,
            r#"request.query_csv("tags","#,
        ],
    );
    assert_has(
        &g.operation("Deep"),
        &[
            r#"::oncegen_runtime::ParamIn::Query, "ids", ::oncegen_runtime::ParamStyle::DeepObject, false, value);"#,
        ],
    );
    let skipped = g.skipped();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    let (pointer, reason) = skipped[0];
    assert_eq!(pointer, "#/paths/~1odd/get");
    assert!(
        reason.contains("~1odd/get/parameters/0") && reason.contains("`tabDelimited`"),
        "{reason}"
    );
}

#[test]
fn at_most_one_of_groups_can_be_named() {
    let g = generate("at_most_one_of");
    assert_has(
        &g.type_def("Z"),
        &[
            "pub source: Option<ZSource>,",
            "pub c_or_d: Option<ZCOrD>,",
            "pub fn source(mut self, value: ZSource)",
        ],
    );
    assert_has(&g.type_def("ZSource"), &["A(String),", "B(String),"]);
    assert_has(&g.type_def("ZCOrD"), &["C(String),", "D(String),"]);
}

#[test]
fn unions_of_distinct_named_types_convert_from_them() {
    let g = generate("union_conversions");
    assert_eq!(g.conversions("U"), ["A", "B", "String"]);
    assert_eq!(g.conversions("Twin"), ["B"]);
    // Scalars convert too (and text from `&str`), but take no `impl Into` argument.
    assert_eq!(g.conversions("Scalars"), ["String", "i64"]);
    assert_has(&g.type_def("Scalars"), &["impl From<&str> for Scalars {"]);
    assert_has(
        &g.type_def("Holder"),
        &[
            "pub fn new(u: impl Into<U>)",
            "u: u.into()",
            "pub fn s(mut self, value: Scalars)",
            "pub fn label(mut self, value: impl Into<String>)",
        ],
    );
    assert_has(
        &g.operation("SendU"),
        &["body: impl Into<U>", "body: body.into()"],
    );
    assert_has(
        &g.operation("SendTwin"),
        &["pub fn body(mut self, body: impl Into<super::Twin>)"],
    );
    let scalars = g.operation("SendScalars");
    assert_has(&scalars, &["body: Scalars"]);
    assert_lacks(&scalars, &["Into<Scalars>"]);
    assert_has(&g.operation("SendHolder"), &["label: impl Into<String>"]);
}

#[test]
fn choice_groups_convert_only_from_unique_named_members() {
    let g = generate("choice_conversions");
    assert_eq!(g.conversions("ZPick"), ["B"]);
    assert!(g.conversions("ZSource").is_empty());
    assert_has(
        &g.type_def("Z"),
        &[
            "pub fn pick(mut self, value: impl Into<ZPick>)",
            "pub fn source(mut self, value: ZSource)",
        ],
    );
}

#[test]
fn non_json_bodies_travel_as_form_multipart_or_raw_bytes() {
    let g = generate("non_json_bodies");
    assert_has(
        &g.operation("PutBin"),
        &[
            "body: impl Into<::bytes::Bytes>",
            r#"request.raw_body(self.body, "application/octet-stream");"#,
            "raw bytes (`application/octet-stream`)",
        ],
    );
    assert_has(
        &g.operation("PostAny"),
        &[
            "pub fn body(mut self, body: impl Into<::bytes::Bytes>)",
            r#"request.raw_body(body, "application/octet-stream");"#,
        ],
    );
    assert_has(
        &g.operation("PatchBoth"),
        &["request.json_body(&self.body);"],
    );
    assert_has(
        &g.operation("PostForm"),
        &["request.form_body(&self.body);"],
    );
    assert_has(
        &g.operation("PostNested"),
        &["request.form_body(&self.body);"],
    );
    assert_has(
        &g.operation("PostMulti"),
        &["request.multipart_body(&self.body);"],
    );
    assert_eq!(g.skipped(), []);
    assert_has(g.file("Cargo.toml"), &[r#"bytes = "1""#]);
    let (label, text) = fixture_text("non_json_bodies");
    let (_, files) = oncegen::generate_str(&text, &label, &xtask::customer_cloud_sdk_options())
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let manifest = files
        .iter()
        .find(|f| f.path == Path::new("Cargo.toml"))
        .expect("Cargo.toml");
    assert_has(&manifest.contents, &["bytes.workspace = true"]);
}

#[test]
fn unions_whose_members_share_a_tag_value_are_untagged() {
    let g = generate("duplicate_tags");
    assert_has(&g.source(), &["#[serde(untagged)] pub enum Item {"]);
    let item = g.type_def("Item");
    assert_has(&item, &["Input(Input),", "Output(Output),"]);
    assert_lacks(&item, &["Some(\"message\")"]);
}

#[test]
fn nulls_are_kept_wherever_a_schema_admits_them() {
    let g = generate("nulls_everywhere");
    assert_has(
        &g.type_def("Row"),
        &[
            "pub documents: Vec<Option<String>>,",
            "pub ids: Vec<Option<i64>>,",
            "pub rows: Option<Vec<Option<Cell>>>,",
            "pub metadata: ::std::collections::BTreeMap<String, Option<RowMetadataValue>>,",
            "pub scores: ::std::collections::BTreeMap<String, Option<f64>>,",
            "pub either: Option<RowEither>,",
            "pub note: ::oncegen_runtime::Nullable<String>,",
            "pub nested: Option<Vec<Option<Vec<Option<bool>>>>>,",
        ],
    );
    let module = flat(g.file("src/generated/general.rs"));
    for expected in [
        "pub fn get_score(&self, tenant: Option<String>)",
        "ResponseFuture<'c, Option<f64>>",
        "pub fn put_score(&self, body: Option<Row>)",
        "request.query_opt(\"tenant\", self.tenant.as_ref());",
        ".put_score(/// Some(",
    ] {
        assert!(module.contains(expected), "missing `{expected}`");
    }
}

#[test]
fn nullable_of_openapi_3_0_is_kept_too() {
    let g = generate("nulls_legacy30");
    assert_has(
        &g.type_def("Maybe"),
        &[
            "pub refs: Option<Vec<Option<Cell>>>,",
            "pub values: Option<::std::collections::BTreeMap<String, Option<i64>>>,",
        ],
    );
    let module = flat(g.file("src/generated/general.rs"));
    for expected in [
        "pub fn post_list(&self, body: Vec<Option<String>>)",
        "ResponseFuture<'c, Option<super::Maybe>>",
    ] {
        assert!(module.contains(expected), "missing `{expected}`");
    }
}

#[test]
fn every_media_type_has_a_typed_body() {
    let g = generate("media_types");
    let module = flat(g.file("src/generated/general.rs"));
    for expected in [
        // text/csv
        "ResponseFuture<'c, String, ::oncegen_runtime::body::Text>",
        "request.accept(\"text/csv\");",
        "self.call.execute_as::<::oncegen_runtime::body::Text>(request)",
        // octet-stream
        "ResponseFuture<'c, ::oncegen_runtime::Binary, ::oncegen_runtime::body::Raw>",
        "request.accept(\"application/octet-stream\");",
        // 204
        "ResponseFuture<'c, (), ::oncegen_runtime::body::NoBody>",
        // several: JSON by default, the others on request
        "pub fn send(self) -> ::oncegen_runtime::ResponseFuture<'c, super::Report>",
        "request.accept(\"application/json\");",
        "pub fn send_text(self) -> ::oncegen_runtime::ResponseFuture<'c, String, ::oncegen_runtime::body::Text>",
        "request.accept(\"text/plain\");",
        "pub fn send_bytes(self) -> ::oncegen_runtime::ResponseFuture<'c, ::oncegen_runtime::Binary, ::oncegen_runtime::body::Raw>",
        "request.accept(\"application/pdf, image/png\");",
        // a download: the body as a stream
        "pub fn download(self) -> impl ::std::future::Future<Output = Result<::oncegen_runtime::Download, ::oncegen_runtime::Error>> + 'c { let (call, mut request) = self.request(); request.accept(\"application/octet-stream\"); call.download(request) }",
        // text request body
        "pub fn put_note(&self, body: impl Into<String>)",
        "request.raw_body(self.body, \"text/plain\");",
    ] {
        assert!(module.contains(expected), "missing `{expected}`");
    }
}

#[test]
fn documented_error_bodies_are_reachable_typed() {
    let g = generate("error_bodies");
    let module = flat(g.file("src/generated/general.rs"));
    for expected in [
        "::oncegen_runtime::error_body!(crate::types::HttpValidationError, \"422\");",
        "pub enum DeleteItemError { /// The `4XX` response's body. Status4xx(crate::types::Problem), /// The `default` response's body. StatusDefault(crate::types::ErrorMessage), }",
        "match error.documented_status(&[\"404\", \"4XX\", \"default\"])? { \"4XX\" => {",
        ".map(DeleteItemError::Status4xx)",
        ".map(DeleteItemError::StatusDefault)",
    ] {
        assert!(
            module.contains(expected),
            "missing `{expected}` in {module}"
        );
    }
}

#[test]
fn security_schemes_are_set_once_and_each_operation_says_which_it_sends() {
    let g = generate("security_schemes");
    let client = flat(g.file("src/generated/client.rs"));
    for expected in [
        "pub static HEADER_KEY: ::oncegen_runtime::SecurityScheme = ::oncegen_runtime::SecurityScheme { name: \"headerKey\", kind: ::oncegen_runtime::SchemeKind::ApiKey { location: ::oncegen_runtime::ParamIn::Header, param: \"X-Chroma-Token\", }, };",
        "pub static QUERY_KEY: ::oncegen_runtime::SecurityScheme",
        "location: ::oncegen_runtime::ParamIn::Cookie, param: \"session\"",
        "pub static BASIC: ::oncegen_runtime::SecurityScheme = ::oncegen_runtime::SecurityScheme { name: \"basic\", kind: ::oncegen_runtime::SchemeKind::Basic, };",
        "name: \"oauth\", kind: ::oncegen_runtime::SchemeKind::Bearer,",
        "name: \"oidc\", kind: ::oncegen_runtime::SchemeKind::Bearer,",
    ] {
        assert!(
            client.contains(expected),
            "missing `{expected}` in {client}"
        );
    }
    for left_out in ["DIGEST", "MTLS"] {
        assert!(!client.contains(left_out), "{left_out} cannot be sent");
    }
    let module = flat(g.file("src/generated/general.rs"));
    for expected in [
        "request.security(crate::security_schemes::REQUIRES_HEADER_KEY_OR_OAUTH);",
        "request.security(crate::security_schemes::NO_SECURITY);",
        "request.security(crate::security_schemes::REQUIRES_BASIC_AND_QUERY_KEY_OR_NOTHING);",
    ] {
        assert!(module.contains(expected), "missing `{expected}`");
    }
    // Each list once, shared by the operations that state it.
    for expected in [
        "pub static REQUIRES_HEADER_KEY_OR_OAUTH: &[::oncegen_runtime::Requirement] = &[ &[&HEADER_KEY], &[&OAUTH], ];",
        "pub static NO_SECURITY: &[::oncegen_runtime::Requirement] = &[];",
        "pub static REQUIRES_BASIC_AND_QUERY_KEY_OR_NOTHING: &[::oncegen_runtime::Requirement] = &[ &[&BASIC, &QUERY_KEY], &[], ];",
    ] {
        assert!(
            client.contains(expected),
            "missing `{expected}` in {client}"
        );
    }
    assert!(
        !module.contains("x_chroma_token"),
        "the scheme sends the token"
    );
}

#[test]
fn servers_are_constants_and_functions_of_their_variables() {
    let g = generate("servers");
    let client = flat(g.file("src/generated/client.rs"));
    for expected in [
        "pub const THIS_SERVER: &str = \"/api/v1\";",
        "pub const REGIONAL: &str = \"https://eu.example.com:443/v1\";",
        "pub fn regional(region: &str, port: &str) -> String { ::oncegen_runtime::servers::fill(\"https://{region}.example.com:{port}/v1\", &[(\"region\", region), (\"port\", port)]) }",
        "pub const SANDBOX_EXAMPLE_COM: &str = \"https://sandbox.example.com\";",
        "pub const DEFAULT: &str = THIS_SERVER;",
        "::oncegen_runtime::servers::resolve(document_url, server)",
    ] {
        assert!(
            client.contains(expected),
            "missing `{expected}` in {client}"
        );
    }
    assert!(
        flat(g.file("src/generated/mod.rs")).contains("pub use client::servers;"),
        "servers are re-exported"
    );
}

#[test]
fn an_operation_with_its_own_server_is_sent_there() {
    let g = generate("operation_servers");
    let code = flat(&g.source());
    for expected in [
        "request.server(\"https://uploads.example.com/v2\");",
        "request.server(\"https://eu.mirror.example.com\");",
        "request.server(\"/uploads\");",
        // Wrapped at 100 columns.
        "Sent to its own server `https://uploads.example.com/v2` (`Config::route_server` sends it /// elsewhere).",
    ] {
        assert!(code.contains(expected), "missing `{expected}` in {code}");
    }
    // The path's server for the GET, the document's own again for the DELETE, none for one
    // relative to the document: three operations carry a server.
    assert_eq!(code.matches("request.server(").count(), 3, "{code}");
}

#[test]
fn a_union_members_fixed_tag_is_no_field() {
    let g = generate("member_tags");
    let code = flat(&g.source());
    for expected in [
        "::oncegen_runtime::json_object!(Circle tagged \"kind\" = \"circle\" { radius });",
        "::oncegen_runtime::json_object!(Square tagged \"kind\" = \"square\" { side });",
        "::oncegen_runtime::json_object!(Triangle tagged \"kind\" = \"triangle\" { base optional });",
        "tagged \"kind\" = \"polygon\" { points }",
        // Request types: `new` takes the other required fields only.
        "pub fn new(radius: f64) -> Self",
        "::oncegen_runtime::json_object!(Cross tagged \"style\" = \"cross\" {});",
        // The component enum stays; an optional tag, and a member two unions tag by different
        // properties, keep their fields.
        "pub enum TriangleKind",
        "pub style: Option<DotStyle>,",
        "pub kind: BothKind,",
        "pub style: BothStyle,",
    ] {
        assert!(code.contains(expected), "missing `{expected}` in {code}");
    }
    for absent in [
        "pub enum CircleKind",
        "pub enum CrossStyle",
        "kind: TriangleKind",
    ] {
        assert!(!code.contains(absent), "unexpected `{absent}` in {code}");
    }
}
