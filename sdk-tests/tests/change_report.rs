//! The change report of `cargo xtask gen` (`oncegen::report`): a fixture pair with every
//! kind of change (`sdk-tests/fixtures/revisions/v1.yaml`, `v2.yaml`), single-purpose revisions
//! of `base.yaml` (a swap of required properties that must change no call, renames, every
//! wire-breaking kind, deprecations), the same swap and every property and parameter reversed
//! in the real contract, a reorder made by the generator, builder methods and error bodies
//! (`builder.yaml`, checked against generated code with `syn`), a revision of 130 added operations, an
//! unchanged spec, bad baselines, an unchanged `info.version`, the README's "When the
//! contract changes" done once in a temporary directory, and revisions of the real contract's
//! security schemes, requirements and servers (a renamed API-key header, a scheme of another
//! kind, dropped or renamed, a requirement or an alternative gained, a scope added, servers
//! added, removed or with other defaults, a rewrite that changes nothing, a format-3 baseline),
//! with `api.json`'s schemes and servers checked against the generated code with `syn`; and
//! the conversions a caller relies on (`From` impls lost or gained, arguments that stop or
//! start taking `impl Into<…>`, a format-5 baseline that records neither).

use oncegen::emit::{Layout, Options};
use oncegen::ir::Api;
use oncegen::report::{
    Baseline, ChangeReport, Class, Version, Wire, compare, render, updated_changelog,
};
use oncegen::write::Mode;
use oncegen::{Regeneration, Surface, regenerate};
use std::path::{Path, PathBuf};

const CRATE: &str = "revision-sdk";

fn revision(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/revisions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lower(text: &str) -> Api {
    oncegen::model_str(text, "revision.yaml").expect("the revision reads and lowers")
}

/// The surface of `api` as the crate under test (its version is the report's to decide).
fn surface(api: &Api) -> Surface {
    Surface::of(api, CRATE, "0.0.0")
}

/// The report of `new` against a baseline made from `old` at crate version 0.3.0.
fn report(old: &str, new: &str) -> ChangeReport {
    let baseline = Baseline::Found(Box::new(Surface::of(&lower(old), CRATE, "0.3.0")));
    compare(&baseline, Version::parse("0.3.0"), surface(&lower(new))).1
}

/// The class of the one change whose line contains `needle`.
fn class_of(report: &ChangeReport, needle: &str) -> Class {
    let found: Vec<_> = report
        .changes
        .iter()
        .filter(|c| c.text.contains(needle))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one change line contains {needle:?}: {found:#?}"
    );
    found[0].class
}

/// The class of the one wire change whose line contains `needle`.
fn wire_class_of(report: &ChangeReport, needle: &str) -> Wire {
    let found: Vec<_> = report
        .wire
        .iter()
        .filter(|c| c.text.contains(needle))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one wire line contains {needle:?}: {:#?}",
        report.wire
    );
    found[0].class
}

/// `text` with `from` replaced by `to`, which must occur exactly once.
fn replaced_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} occurs once");
    text.replacen(from, to, 1)
}

/// A line of each kind of change from v1 to v2, with its class.
const EVERY_KIND: &[(&str, Class)] = &[
    ("operation `delete_snapshot` removed", Class::Breaking),
    (
        "operation `get_zone_stats` renamed to `fetch_zone_statistics`",
        Class::Breaking,
    ),
    (
        "`get_usage`: moved from area `billing` to `storage`",
        Class::Breaking,
    ),
    (
        "`get_balance`: success type `Balance` → `Account`",
        Class::Breaking,
    ),
    ("query parameter `region` removed", Class::Breaking),
    ("query parameter `account` added (required", Class::Breaking),
    (
        "query parameter `owner`: optional → required",
        Class::Breaking,
    ),
    (
        "query parameter `status`: type `String` → `ZoneStatus`",
        Class::Breaking,
    ),
    (
        "`update_zone`: request body: optional → required",
        Class::Breaking,
    ),
    (
        "`CreateZoneRequest`: field `kind` added (required",
        Class::Breaking,
    ),
    ("`Zone`: field `ttl`: optional → required", Class::Breaking),
    ("`Zone`: field `legacy_id` removed", Class::Breaking),
    (
        "`Zone`: field `created`: type `String` → `DateTime<Utc>`",
        Class::Breaking,
    ),
    ("`ZoneStatus`: value `deleting` removed", Class::Breaking),
    ("error code `snapshot_not_found` removed", Class::Breaking),
    ("type `Snapshot` removed", Class::Breaking),
    ("operation `list_records` added", Class::Additive),
    (
        "query parameter `name_contains` added (optional",
        Class::Additive,
    ),
    (
        "`CreateZoneRequest`: field `comment` added",
        Class::Additive,
    ),
    ("`Zone`: field `dnssec` added", Class::Additive),
    (
        "`ZoneStatus`: values `locked`, `suspended` added",
        Class::Additive,
    ),
    ("`ZoneSource`: variant `Transferred", Class::Additive),
    ("error code `zone_quota_exceeded` added", Class::Additive),
    ("`list_buckets`: paginated (`offset`)", Class::Additive),
    ("type `Record` added", Class::Additive),
    ("`get_zone`: deprecated", Class::DocsOnly),
    (
        "`create_zone`: Idempotency-Key `required` → `optional`",
        Class::DocsOnly,
    ),
    ("`list_zones`: scope `dns.list` added", Class::DocsOnly),
    ("`list_zones`: summary changed", Class::DocsOnly),
    (
        "query parameter `legacy_filter`: deprecated",
        Class::DocsOnly,
    ),
    ("`create_zone`: error response 422 added", Class::DocsOnly),
    (
        "`Zone`: field `serial`: required → optional",
        Class::DocsOnly,
    ),
    ("`Zone`: field `notes`: deprecated", Class::DocsOnly),
    ("contract revision `1.0.0` → `2.0.0`", Class::DocsOnly),
];

#[test]
fn every_kind_of_change_is_named_with_its_class() {
    let report = report(&revision("v1.yaml"), &revision("v2.yaml"));
    for &(needle, class) in EVERY_KIND {
        assert_eq!(class_of(&report, needle), class, "{needle}");
    }
    assert_eq!(report.crate_version.to_string(), "0.4.0");
    assert_eq!(
        report.warnings,
        [
            "released SDK versions (up to 0.3.0) will fail against a server of this revision: 9 \
          wire-breaking changes in 6 operations: `create_zone`, `delete_snapshot`, `get_balance`, \
          `get_zone`, `list_zones`, `update_zone`",
            "scripts calling the command-line tool break: 7 changes of its commands or flags \
          (see Command-line tool); the crate version follows the Rust API only",
            "this revision deprecates 3 items: code that uses them (tests and examples \
          included) fails `-D warnings` builds until it moves off them or allows `deprecated` \
          (see Deprecations)"
        ]
    );
    insta::assert_snapshot!("revision_v1_to_v2", render(&report));
}

/// One `GET` operation named `id` in area `tag` returning the shared `Item`.
fn get_operation(path: &str, id: &str, tag: &str) -> String {
    format!(
        "  {path}:\n    get:\n      operationId: {id}\n      tags: [{tag}]\n      responses:\n        \
         \"200\":\n          description: ok\n          content:\n            application/json:\n              \
         schema: {{$ref: \"#/components/schemas/Item\"}}\n"
    )
}

/// A spec with `extra` operations over five areas besides two base ones (which make `Item` a
/// shared type).
fn spec_with_operations(version: &str, extra: usize) -> String {
    let mut paths = get_operation("/v1/base", "getBase", "area_0");
    paths.push_str(&get_operation("/v1/other", "getOther", "area_1"));
    for i in 0..extra {
        let path = format!("/v1/things_{i:03}");
        let id = format!("listThings{i:03}");
        paths.push_str(&get_operation(&path, &id, &format!("area_{}", i % 5)));
    }
    format!(
        "openapi: 3.1.0\ninfo: {{title: Scale, version: \"{version}\"}}\npaths:\n{paths}\
         components:\n  schemas:\n    Item: {{type: object, properties: {{id: {{type: string}}}}}}\n"
    )
}

#[test]
fn a_revision_of_130_added_operations_opens_with_counts_and_lists_one_line_each() {
    let report = report(
        &spec_with_operations("1", 0),
        &spec_with_operations("2", 130),
    );
    let counts = report.counts_by_area();
    for area in ["area_0", "area_1", "area_2", "area_3", "area_4"] {
        assert_eq!(counts[area], [0, 26, 0], "{area}");
    }
    assert_eq!(report.totals(), [0, 130, 1]);
    assert_eq!(report.crate_version.to_string(), "0.3.1");

    let text = render(&report);
    let table = text
        .find("| Area | Breaking | Additive | Docs only |")
        .expect("table");
    assert!(table < text.find("### Additive").expect("additive section"));
    assert!(text.contains("| `area_3` | 0 | 26 | 0 |"), "{text}");
    assert!(
        text.contains("| **Total** | **0** | **130** | **1** |"),
        "{text}"
    );
    let added = text
        .lines()
        .filter(|l| {
            l.starts_with("- operation `list_things") && l.contains(" added (`GET /v1/things_")
        })
        .count();
    assert_eq!(added, 130);
    let area_headings: Vec<&str> = text.lines().filter(|l| l.starts_with("#### ")).collect();
    assert_eq!(
        area_headings,
        [
            "#### `area_0`",
            "#### `area_1`",
            "#### `area_2`",
            "#### `area_3`",
            "#### `area_4`",
            "#### `contract`",
            "#### Additive for scripts"
        ]
    );
}

#[test]
fn an_unchanged_spec_reports_no_api_change() {
    let v1 = revision("v1.yaml");
    let report = report(&v1, &v1);
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
    assert_eq!(report.crate_version, report.previous_version);
    assert_eq!(
        render(&report),
        "No API change: contract revision `1.0.0`, crate version 0.3.0.\n"
    );
    assert_eq!(
        updated_changelog(Some("# Changelog\n"), &report, CRATE),
        None
    );
}

/// A version bumped by hand in Cargo.toml (a 1.0 release) is where versioning goes on; one
/// behind `api.json` is not; either way the report says so.
#[test]
fn a_manifest_version_that_differs_from_api_json_is_named() {
    let baseline = Baseline::Found(Box::new(Surface::of(
        &lower(&revision("v1.yaml")),
        CRATE,
        "0.3.0",
    )));
    let v2 = lower(&revision("v2.yaml"));
    let ahead = compare(&baseline, Version::parse("1.0.0"), surface(&v2)).1;
    assert_eq!(ahead.previous_version.to_string(), "1.0.0");
    assert_eq!(ahead.crate_version.to_string(), "2.0.0");
    assert!(
        ahead.warnings.contains(
            &"Cargo.toml says version 1.0.0, which is ahead of the 0.3.0 `api.json` recorded: \
              versioning goes on from 1.0.0"
                .to_owned()
        ),
        "{:?}",
        ahead.warnings
    );
    let behind = compare(&baseline, Version::parse("0.2.0"), surface(&v2)).1;
    assert_eq!(behind.crate_version.to_string(), "0.4.0");
    assert!(
        behind
            .warnings
            .iter()
            .any(|w| w.contains("which is behind")),
        "{:?}",
        behind.warnings
    );
}

#[test]
fn an_api_change_under_the_same_info_version_is_warned_about() {
    let v2_as_v1 = revision("v2.yaml").replace("version: \"2.0.0\"", "version: \"1.0.0\"");
    let report = report(&revision("v1.yaml"), &v2_as_v1);
    assert_eq!(report.severity(), Some(Class::Breaking));
    assert!(
        render(&report)
            .contains("> **Warning:** the API changed but `info.version` is still `1.0.0`"),
        "{}",
        render(&report)
    );
}

/// A fresh directory under cargo's scratch space for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("change_report")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn options() -> Options {
    Options {
        crate_name: CRATE.to_owned(),
        spec_label: "spec/openapi.yaml".to_owned(),
        layout: Layout::Standalone {
            runtime_path: PathBuf::from("../oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// Runs the entry point of `cargo xtask gen` on `spec_text` in `dir`.
fn gen_in(dir: &Path, spec_text: &str, mode: Mode) -> Regeneration {
    let spec = dir.join("spec/openapi.yaml");
    std::fs::create_dir_all(spec.parent().expect("spec dir")).expect("spec dir");
    std::fs::write(&spec, spec_text).expect("spec written");
    regenerate(&spec, &dir.join("sdk"), &options(), mode).expect("generation works")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Generation without a usable baseline: it still writes the crate and the description, says
/// why there was no baseline, and keeps the Cargo.toml version (0.1.0 without one).
fn without_baseline(
    name: &str,
    api_json: Option<&str>,
    cargo_toml: Option<&str>,
) -> (Regeneration, PathBuf) {
    let dir = scratch(name);
    let sdk = dir.join("sdk");
    std::fs::create_dir_all(&sdk).expect("sdk dir");
    if let Some(text) = api_json {
        std::fs::write(sdk.join("api.json"), text).expect("api.json written");
    }
    if let Some(text) = cargo_toml {
        std::fs::write(sdk.join("Cargo.toml"), text).expect("Cargo.toml written");
    }
    let run = gen_in(&dir, &revision("v1.yaml"), Mode::Write);
    assert!(run.report.changes.is_empty());
    assert!(
        sdk.join("src/generated/mod.rs").is_file(),
        "the crate is generated"
    );
    let description = Baseline::load(&sdk);
    assert!(matches!(description, Baseline::Found(_)), "{description:?}");
    let text = render(&run.report);
    assert!(text.contains("No baseline: "), "{text}");
    assert!(read(&sdk.join("CHANGELOG.md")).contains(&text));
    (run, sdk)
}

#[test]
fn a_missing_baseline_is_reported_and_generation_goes_on() {
    let (run, sdk) = without_baseline("missing", None, None);
    assert_eq!(
        run.report.no_baseline.as_deref(),
        Some("`api.json` is missing")
    );
    assert_eq!(run.report.crate_version, Version::INITIAL);
    assert!(read(&sdk.join("Cargo.toml")).contains("\nversion = \"0.1.0\"\n"));
}

#[test]
fn a_baseline_of_another_format_is_reported_and_the_version_kept() {
    let manifest = "[package]\nname = \"revision-sdk\"\nversion = \"2.5.1\"\n";
    let (run, sdk) = without_baseline("old-format", Some("{\"format\": 0}"), Some(manifest));
    let reason = run.report.no_baseline.expect("no baseline");
    assert!(
        reason.contains("written by another generator version (format 0;"),
        "{reason}"
    );
    assert_eq!(run.report.crate_version.to_string(), "2.5.1");
    assert!(read(&sdk.join("Cargo.toml")).contains("\nversion = \"2.5.1\"\n"));
}

#[test]
fn an_unreadable_baseline_is_reported() {
    let (run, _) = without_baseline("unreadable", Some("{ not json"), None);
    let reason = run.report.no_baseline.expect("no baseline");
    assert!(
        reason.starts_with("`api.json` cannot be read: "),
        "{reason}"
    );
}

/// README, "When the contract changes": regenerate, read the report, bump and changelog by the
/// rule, and a second run that changes nothing.
#[test]
fn the_readme_steps_bump_the_version_and_write_the_changelog() {
    let dir = scratch("readme");
    let sdk = dir.join("sdk");
    let first = gen_in(&dir, &revision("v1.yaml"), Mode::Write);
    assert_eq!(first.report.crate_version.to_string(), "0.1.0");
    std::fs::write(sdk.join("Cargo.lock"), lock_file("0.1.0")).expect("lock written");

    let second = gen_in(&dir, &revision("v2.yaml"), Mode::Write);
    assert_eq!(second.report.severity(), Some(Class::Breaking));
    assert_eq!(second.report.crate_version.to_string(), "0.2.0");
    assert!(read(&sdk.join("Cargo.toml")).contains("\nversion = \"0.2.0\"\n"));
    assert_eq!(
        read(&sdk.join("Cargo.lock")),
        lock_file("0.2.0"),
        "the lock file follows"
    );
    changelog_and_error_codes(&sdk, &second.report);

    let again = gen_in(&dir, &revision("v2.yaml"), Mode::Write);
    assert_eq!(
        render(&again.report),
        "No API change: contract revision `2.0.0`, crate version 0.2.0.\n"
    );
    assert!(again.written.is_clean(), "{:#?}", again.written);
    check_mode_writes_nothing(&dir, &sdk);
}

/// The changelog has both entries, the second the report; the new error code is a typed
/// variant and the removed one is gone, with no hand edit anywhere.
fn changelog_and_error_codes(sdk: &Path, report: &ChangeReport) {
    let changelog = read(&sdk.join("CHANGELOG.md"));
    let entries: Vec<&str> = changelog.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        entries,
        [
            "## 0.2.0 — contract revision `2.0.0`",
            "## 0.1.0 — contract revision `1.0.0`"
        ]
    );
    assert!(changelog.contains(&render(report)));
    assert!(changelog.contains("0.1.0 → 0.2.0: minor bump, the most severe change is breaking."));
    let codes = read(&sdk.join("src/generated/error_codes.rs"));
    assert!(codes.contains("ZoneQuotaExceeded,"), "{codes}");
    assert!(codes.contains("\"zone_quota_exceeded\" => ErrorCode::ZoneQuotaExceeded"));
    assert!(
        !codes.contains("SnapshotNotFound"),
        "a removed code is gone"
    );
}

/// Check mode names a stale lock file, or every file a revision changes, and writes nothing.
fn check_mode_writes_nothing(dir: &Path, sdk: &Path) {
    std::fs::write(sdk.join("Cargo.lock"), lock_file("0.1.0")).expect("lock written");
    let stale_lock = gen_in(dir, &revision("v2.yaml"), Mode::Check);
    assert_eq!(stale_lock.written.changed, [sdk.join("Cargo.lock")]);
    assert_eq!(
        read(&sdk.join("Cargo.lock")),
        lock_file("0.1.0"),
        "check mode writes nothing"
    );

    let stale = gen_in(dir, &revision("v1.yaml"), Mode::Check);
    assert!(
        stale.written.changed.contains(&sdk.join("api.json")),
        "{:#?}",
        stale.written
    );
    assert!(stale.written.changed.contains(&sdk.join("CHANGELOG.md")));
    assert!(stale.written.changed.contains(&sdk.join("Cargo.lock")));
    assert!(
        read(&sdk.join("Cargo.toml")).contains("\nversion = \"0.2.0\"\n"),
        "check mode writes nothing"
    );
}

/// Cargo's lock file of the standalone crate at `version`, as the first build leaves it.
fn lock_file(version: &str) -> String {
    format!(
        "# This file is automatically @generated by Cargo.\n# It is not intended for manual \
         editing.\nversion = 4\n\n[[package]]\nname = \"revision-sdk\"\nversion = \
         \"{version}\"\ndependencies = [\n \"serde\",\n]\n\n[[package]]\nname = \"serde\"\n\
         version = \"1.0.228\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
    )
}

/// The only change of a revision that reorders nothing but properties or parameters.
const REVISION_LINE: (Class, &str) = (Class::DocsOnly, "contract revision `1.0.0` → `1.1.0`");

/// Swapping two required string properties in the spec leaves `new` as it was: its arguments
/// are sorted by Rust name (`surface::call_order`), so no caller can end up sending the values
/// crossed, and the report says docs only.
#[test]
fn a_swap_of_two_same_typed_required_properties_changes_no_constructor() {
    let report = report(&revision("base.yaml"), &revision("swap.yaml"));
    let lines: Vec<(Class, &str)> = report
        .changes
        .iter()
        .map(|c| (c.class, c.text.as_str()))
        .collect();
    assert_eq!(lines, [REVISION_LINE]);
    assert_eq!(report.severity(), Some(Class::DocsOnly));
    assert_eq!(report.crate_version.to_string(), "0.3.1");
    assert!(
        report.wire.is_empty(),
        "JSON members have no order: {:#?}",
        report.wire
    );
    insta::assert_snapshot!("revision_swap", render(&report));
}

/// The issue's own example, in the real contract: the same swap in `spec/openapi.yaml` (under
/// the same `info.version`) is no change at all.
#[test]
fn the_same_swap_in_the_contract_changes_nothing() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml");
    let spec = read(&path);
    let swapped = replaced_once(
        &spec,
        "        name:\n          type: string\n          minLength: 1\n          maxLength: 64\n        \
         public_key:\n          type: string\n          minLength: 1\n          maxLength: 8192\n",
        "        public_key:\n          type: string\n          minLength: 1\n          maxLength: 8192\n        \
         name:\n          type: string\n          minLength: 1\n          maxLength: 64\n",
    );
    let report = report(&spec, &swapped);
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

/// Every property and every parameter of the real contract in reverse order (the model the
/// emitter reads, reversed wholesale): no client method and no constructor changes.
#[test]
fn no_reorder_of_the_contract_changes_a_call() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml");
    let spec = read(&path);
    let mut reversed = lower(&spec);
    for op in &mut reversed.operations {
        op.params.reverse();
    }
    for def in &mut reversed.types {
        if let oncegen::ir::TypeKind::Struct { fields, .. } = &mut def.kind {
            fields.reverse();
        }
    }
    let original = Surface::of(&lower(&spec), CRATE, "0.3.0");
    let after = Surface::of(&reversed, CRATE, "0.3.0");
    let calls = |d: &Surface| {
        let methods = d
            .operations
            .iter()
            .map(|(id, op)| (id.clone(), op.arguments.clone()));
        let constructors = d.types.iter().filter_map(|(name, ty)| match &ty.shape {
            oncegen::surface::Shape::Struct { constructor, .. } => {
                Some((name.clone(), constructor.clone()))
            }
            _ => None,
        });
        methods.chain(constructors).collect::<Vec<_>>()
    };
    let calls_before = calls(&original);
    assert!(
        calls_before
            .iter()
            .filter(|(_, args)| args.len() >= 2)
            .count()
            >= 5,
        "the contract has calls of several arguments to reorder"
    );
    assert_eq!(calls_before, calls(&after));
    let baseline = Baseline::Found(Box::new(original));
    let report = compare(&baseline, Version::parse("0.3.0"), surface(&reversed)).1;
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
}

/// A change of how `new` takes its arguments that the emitter itself makes (a generator change)
/// is breaking: the baseline's `new` took the two strings positionally (the other way round),
/// the new one takes them named in `SshKeyImportRequestArgs`. Between two named ones, their
/// order is no change at all.
#[test]
fn constructor_arguments_changed_by_the_generator_are_breaking() {
    let base = lower(&revision("base.yaml"));
    let baseline = |positional: bool| {
        let mut described = Surface::of(&base, CRATE, "0.3.0");
        let ty = described
            .types
            .get_mut("SshKeyImportRequest")
            .expect("the request type");
        let oncegen::surface::Shape::Struct {
            constructor,
            constructor_struct,
            ..
        } = &mut ty.shape
        else {
            panic!("a struct");
        };
        assert_eq!(constructor, &["name", "public_key"]);
        assert_eq!(
            constructor_struct.as_deref(),
            Some("SshKeyImportRequestArgs")
        );
        constructor.reverse();
        if positional {
            *constructor_struct = None;
        }
        compare(
            &Baseline::Found(Box::new(described)),
            Version::parse("0.3.0"),
            surface(&base),
        )
        .1
    };
    let report = baseline(true);
    let lines: Vec<(Class, &str)> = report
        .changes
        .iter()
        .map(|c| (c.class, c.text.as_str()))
        .collect();
    assert_eq!(
        lines,
        [(
            Class::Breaking,
            "`SshKeyImportRequest`: required fields passed differently: \
             `SshKeyImportRequest::new(public_key, name)` → \
             `SshKeyImportRequest::new(SshKeyImportRequestArgs { name, public_key })`: every \
             existing call must change"
        )]
    );
    assert_eq!(report.crate_version.to_string(), "0.4.0");
    let reordered = baseline(false);
    assert!(reordered.changes.is_empty(), "{:#?}", reordered.changes);
}

/// A merged inline enum split into one per place (the generator change of issue 41): the
/// parameter's Rust type is renamed, which breaks code, but the values on the wire are the
/// same, so released SDKs are not told their values may be rejected.
#[test]
fn an_enum_split_from_a_merged_one_of_the_same_values_is_no_wire_change() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml");
    let api = lower(&read(&path));
    let mut before = Surface::of(&api, CRATE, "0.3.0");
    before.types.remove("GetProductsProductCode");
    let param = before
        .operations
        .get_mut("getProducts")
        .and_then(|op| op.params.get_mut("product_code"))
        .expect("getProducts' product_code");
    param.ty = "CatalogProductProductCode".to_owned();
    let report = compare(
        &Baseline::Found(Box::new(before)),
        Version::parse("0.3.0"),
        surface(&api),
    )
    .1;
    assert_eq!(
        class_of(
            &report,
            "query parameter `product_code`: type `CatalogProductProductCode` → \
             `GetProductsProductCode`"
        ),
        Class::Breaking
    );
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

/// A field, a parameter, an enum value and an operation renamed in place: one line each, with
/// its class, and what released SDKs still send.
#[test]
fn renames_in_place_are_one_probable_rename_each() {
    let report = report(&revision("base.yaml"), &revision("rename.yaml"));
    let expected = [
        (
            "`SshKeyImportRequest`: field `public_key` probably renamed to `openssh_public_key` \
             (same type `String`, still an argument of `SshKeyImportRequest::new`; wire name \
             `public_key` → `openssh_public_key`)",
            Class::Breaking,
        ),
        (
            "`list_ssh_keys`: query parameter `fingerprint` probably renamed to \
             `sha256_fingerprint` (same type `String`; wire name `fingerprint` → \
             `sha256_fingerprint`; setter renamed)",
            Class::Breaking,
        ),
        (
            "`SshKeyStatus`: value `revoked` probably renamed to `disabled`",
            Class::Breaking,
        ),
        (
            "operation `delete_ssh_key` renamed to `remove_ssh_key`: operationId `deleteSshKey` \
             → `removeSshKey`",
            Class::Breaking,
        ),
    ];
    for (needle, class) in expected {
        assert_eq!(class_of(&report, needle), class, "{needle}");
    }
    for unwanted in [" added", " removed", "reordered"] {
        let found: Vec<_> = report
            .changes
            .iter()
            .filter(|c| c.text.contains(unwanted))
            .collect();
        assert!(found.is_empty(), "{unwanted}: {found:#?}");
    }
    assert_eq!(report.changes.len(), 5, "{:#?}", report.changes);
    let wire = [
        (
            "`SshKeyImportRequest`: field `public_key` (request): wire name `public_key` → \
             `openssh_public_key`: released SDKs send `public_key`",
            Wire::Breaking,
        ),
        (
            "`list_ssh_keys`: query parameter `fingerprint` probably renamed to \
             `sha256_fingerprint`: released SDKs send `fingerprint`",
            Wire::Breaking,
        ),
        (
            "`SshKeyStatus`: value `disabled` added: released SDKs decode it as `Unknown`",
            Wire::Degraded,
        ),
    ];
    for (needle, class) in wire {
        assert_eq!(wire_class_of(&report, needle), class, "{needle}");
    }
    assert_eq!(report.wire.len(), 3, "{:#?}", report.wire);
    insta::assert_snapshot!("revision_rename", render(&report));
}

/// A line of each kind of wire change from base to wire, with its class.
const EVERY_WIRE_KIND: &[(&str, Wire)] = &[
    (
        "`get_dns_zone`: `GET /v1/dns/zones/{zone}` → `GET /v2/dns/zones/{zone}`: released \
             SDKs call the old route",
        Wire::Breaking,
    ),
    (
        "`delete_ssh_key`: `DELETE /v1/ssh-keys/{key_id}` removed",
        Wire::Breaking,
    ),
    (
        "`list_ssh_keys`: query parameter `project` added as required",
        Wire::Breaking,
    ),
    (
        "`get_ssh_key`: header parameter `x_account` added as required",
        Wire::Breaking,
    ),
    (
        "`SshKeyImportRequest`: field `project` (request): added as required",
        Wire::Breaking,
    ),
    (
        "`get_dns_zone`: scope `dns.zones.read` now required: credentials without it get 403",
        Wire::Breaking,
    ),
    (
        "`list_ssh_keys`: query parameter `limit`: maximum 100 → 50",
        Wire::Breaking,
    ),
    (
        "`SshKeyImportRequest`: field `name` (request): maxLength 64 → 32",
        Wire::Breaking,
    ),
    (
        "`import_ssh_key`: Idempotency-Key now required: released SDKs send none",
        Wire::Breaking,
    ),
    (
        "`SshKeyStatus`: value `expired` added: released SDKs decode it as `Unknown`",
        Wire::Degraded,
    ),
    (
        "`SshKeyList`: field `next_cursor` (response): removed: released SDKs read it as \
             absent",
        Wire::Degraded,
    ),
    (
        "`KeySource`: member `EscrowedSource` added: released SDKs decode it as the \
             `Unknown` variant",
        Wire::Degraded,
    ),
    (
        "`KeyAlgorithm`: member `EcdsaAlgorithm` added: the union is untagged",
        Wire::Breaking,
    ),
    (
        "`get_dns_zone`: response type `DnsZone` → `DnsZoneDetail`",
        Wire::Breaking,
    ),
    (
        "`SshKey`: field `size` (response): type `i64` → `String`",
        Wire::Breaking,
    ),
    (
        "`list_ssh_keys`: pagination `cursor` (`next_cursor` → `cursor`, items `items`) → \
             `offset` (`next_offset` → `offset`, items `items`)",
        Wire::Breaking,
    ),
];

/// Every kind of change that breaks or degrades SDK versions already released, each named in
/// the wire section with its class, the wire-breaking ones first and in the warning.
#[test]
fn every_wire_breaking_kind_is_listed_with_a_warning() {
    let report = report(&revision("base.yaml"), &revision("wire.yaml"));
    for &(needle, class) in EVERY_WIRE_KIND {
        assert_eq!(wire_class_of(&report, needle), class, "{needle}");
    }
    assert_eq!(report.wire_totals(), [13, 0, 3], "{:#?}", report.wire);
    assert_eq!(
        report.warnings[0],
        "released SDK versions (up to 0.3.0) will fail against a server of this revision: 13 \
         wire-breaking changes in 5 operations: `delete_ssh_key`, `get_dns_zone`, `get_ssh_key`, \
         `import_ssh_key`, `list_ssh_keys`"
    );
    let text = render(&report);
    let wire_at = text.find("#### Wire-breaking").expect("wire-breaking list");
    assert!(wire_at < text.find("#### Degraded").expect("degraded list"));
    assert!(wire_at < text.find("### Breaking").expect("Rust API list"));
    insta::assert_snapshot!("revision_wire", text);
}

/// A moved path and a new scope leave the Rust API alone (docs only) but show up in the wire
/// section, with the warning.
#[test]
fn a_moved_path_or_a_new_scope_alone_warns() {
    let base = revision("base.yaml");
    let revised = |from: &str, to: &str| {
        let text = replaced_once(&base, from, to);
        replaced_once(&text, "version: \"1.0.0\"", "version: \"1.0.1\"")
    };
    let moved = report(
        &base,
        &revised("/v1/dns/zones/{zone}:", "/v1/domains/{zone}:"),
    );
    let scoped = report(
        &base,
        &revised(
            "BearerAuth: [dns.read]",
            "BearerAuth: [dns.read, dns.zones.read]",
        ),
    );
    for (report, line) in [
        (
            moved,
            "`get_dns_zone`: `GET /v1/dns/zones/{zone}` → `GET /v1/domains/{zone}`: released \
             SDKs call the old route",
        ),
        (
            scoped,
            "`get_dns_zone`: scope `dns.zones.read` now required: credentials without it get 403",
        ),
    ] {
        assert_eq!(report.severity(), Some(Class::DocsOnly));
        assert_eq!(report.crate_version.to_string(), "0.3.1");
        assert_eq!(report.wire.len(), 1, "{:#?}", report.wire);
        assert_eq!(report.wire[0].text, line);
        assert_eq!(report.wire[0].class, Wire::Breaking);
        let text = render(&report);
        assert!(
            text.contains(
                "> **Warning:** released SDK versions (up to 0.3.0) will fail against a server \
                 of this revision: 1 wire-breaking change in 1 operation: `get_dns_zone`"
            ),
            "{text}"
        );
        assert!(
            text.contains("### Released SDKs against this server"),
            "{text}"
        );
    }
}

/// A renamed path parameter, response type or request body type that sends and decodes the
/// same JSON is no wire change.
#[test]
fn renames_that_keep_the_wire_are_not_wire_changes() {
    let base = revision("base.yaml");
    let renamed = replaced_once(
        &base,
        "      summary: Get a DNS zone\n      security:\n        - BearerAuth: [dns.read]\n      \
         parameters:\n        - {name: zone, in: path, required: true, schema: {type: string}}",
        "      summary: Get a DNS zone\n      security:\n        - BearerAuth: [dns.read]\n      \
         parameters:\n        - {name: zone_name, in: path, required: true, schema: {type: string}}",
    );
    let renamed = replaced_once(
        &renamed,
        "/v1/dns/zones/{zone}:",
        "/v1/dns/zones/{zone_name}:",
    );
    let renamed = replaced_once(&renamed, "schemas/DnsZone\"}", "schemas/Zone\"}");
    let renamed = replaced_once(&renamed, "    DnsZone:\n", "    Zone:\n");
    let renamed = replaced_once(
        &renamed,
        "schemas/SshKeyImportRequest\"}",
        "schemas/ImportSshKeyRequest\"}",
    );
    let renamed = replaced_once(
        &renamed,
        "    SshKeyImportRequest:\n",
        "    ImportSshKeyRequest:\n",
    );
    let report = report(&base, &renamed);
    for needle in [
        "success type `DnsZone` → `Zone`",
        "request body: type `SshKeyImportRequest` → `ImportSshKeyRequest`",
        "`GET /v1/dns/zones/{zone}` → `GET /v1/dns/zones/{zone_name}`",
    ] {
        assert!(
            report.changes.iter().any(|c| c.text.contains(needle)),
            "{needle}: {:#?}",
            report.changes
        );
    }
    assert_eq!(report.severity(), Some(Class::Breaking));
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

/// Newly deprecated items are listed with the guidance their documentation gives, and the
/// report says what deprecation does to `-D warnings` builds.
#[test]
fn deprecations_carry_their_guidance() {
    let report = report(&revision("base.yaml"), &revision("deprecation.yaml"));
    let listed: Vec<(&str, Option<&str>)> = report
        .deprecations
        .iter()
        .map(|d| (d.item.as_str(), d.note.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "`get_ssh_key`",
                Some("Deprecated; use `listSshKeys` with `fingerprint` instead.")
            ),
            (
                "`list_ssh_keys`: query parameter `limit`",
                Some("Replaced by the page size of the cursor.")
            ),
            ("`SshKey`: field `comment`", Some("Use `name` instead.")),
        ]
    );
    assert_eq!(report.severity(), Some(Class::DocsOnly));
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
    assert_eq!(
        report.warnings,
        [
            "this revision deprecates 3 items: code that uses them (tests and examples \
          included) fails `-D warnings` builds until it moves off them or allows `deprecated` \
          (see Deprecations)"
        ]
    );
    let text = render(&report);
    assert!(
        text.contains("fails builds run with `-D warnings`"),
        "{text}"
    );
    insta::assert_snapshot!("revision_deprecation", text);
}

/// The type as a caller writes it: the last segment of each path, `impl Into<T>` kept.
fn type_text(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => {
            let last = path.path.segments.last().expect("a path has a segment");
            let args = match &last.arguments {
                syn::PathArguments::AngleBracketed(generic) => {
                    let args: Vec<String> = generic
                        .args
                        .iter()
                        .map(|arg| match arg {
                            syn::GenericArgument::Type(t) => type_text(t),
                            _ => panic!("a generic argument is a type"),
                        })
                        .collect();
                    format!("<{}>", args.join(", "))
                }
                _ => String::new(),
            };
            format!("{}{args}", last.ident)
        }
        syn::Type::ImplTrait(bounds) => match bounds.bounds.first() {
            Some(syn::TypeParamBound::Trait(into)) => {
                let last = into.path.segments.last().expect("a trait has a name");
                assert_eq!(last.ident, "Into", "only `impl Into<T>` is taken");
                let syn::PathArguments::AngleBracketed(generic) = &last.arguments else {
                    panic!("`Into` takes its type");
                };
                match generic.args.first() {
                    Some(syn::GenericArgument::Type(t)) => format!("impl Into<{}>", type_text(t)),
                    _ => panic!("`Into` takes a type"),
                }
            }
            _ => panic!("an `impl` argument is `impl Into<T>`"),
        },
        _ => panic!("an argument type is a path or `impl Into<T>`"),
    }
}

/// An argument of `api.json` as [`type_text`] spells it: `impl Into<…>` when it says the
/// argument converts (`into`).
fn described_argument(ty: &str, into: bool) -> String {
    let text = described_text(ty);
    if into {
        format!("impl Into<{text}>")
    } else {
        text
    }
}

/// A type string of `api.json` as [`type_text`] spells it (paths dropped, `Box` of a required
/// field taken off: `new` takes the value and boxes it).
fn described_text(ty: &str) -> String {
    let mut text = ty.to_owned();
    while let Some(at) = text.find("::") {
        let start = text[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        text.replace_range(start..at + 2, "");
    }
    match text.strip_prefix("Box<") {
        Some(inner) => inner.strip_suffix('>').unwrap_or(inner).to_owned(),
        None => text,
    }
}

/// `api.json` records the positional arguments of every client method and of every request
/// type's `new` in the order and with the types the checked-in code takes them (`impl Into<…>`
/// where it says `into`), and the struct a
/// method takes its required parameters in by name, or `new` its required fields (its fields
/// are then the arguments): read from the code with `syn`, not from the generator.
#[test]
fn api_json_records_the_arguments_the_code_takes() {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../customer-cloud-sdk");
    let api: Surface = serde_json::from_str(&read(&sdk.join("api.json"))).expect("api.json reads");
    let (in_code, passed_by_name) = code_arguments(&sdk.join("src/generated"));
    let described = described_arguments(&api, &passed_by_name);
    let undescribed: Vec<&String> = in_code
        .keys()
        .filter(|k| !described.contains_key(*k))
        .collect();
    assert_eq!(
        undescribed,
        Vec::<&String>::new(),
        "every `new` and method is described"
    );
    for (key, args) in &described {
        assert_eq!(Some(args), in_code.get(key), "{key}");
    }
    assert_eq!(
        passed_by_name.get("fn dedicated_task").map(String::as_str),
        Some("DedicatedTaskArgs"),
        "two required uuids are named"
    );
    assert_eq!(
        passed_by_name
            .get("SshKeyImportRequest::new")
            .map(String::as_str),
        Some("SshKeyImportRequestArgs"),
        "two required strings are named"
    );
    let with_two_strings = described
        .get("SshKeyImportRequest::new")
        .expect("the issue's constructor");
    assert_eq!(
        with_two_strings,
        &[
            ("name".to_owned(), "String".to_owned()),
            ("public_key".to_owned(), "String".to_owned())
        ]
    );
}

/// Arguments (name and type) by item: `fn client_method` or `Type::new`; or a struct's fields.
type Arguments = std::collections::BTreeMap<String, Vec<(String, String)>>;

/// The arguments of every client method and `new` of the generated code in `dir`, an `args`
/// struct replaced by its fields; and the struct each item that takes one takes.
fn code_arguments(dir: &Path) -> (Arguments, std::collections::BTreeMap<String, String>) {
    let (mut in_code, mut structs) = (Arguments::default(), Arguments::default());
    for parsed in generated_sources(dir) {
        for item in parsed.items {
            if let syn::Item::Struct(def) = &item {
                let fields = def
                    .fields
                    .iter()
                    .filter_map(|f| Some((f.ident.as_ref()?.to_string(), type_text(&f.ty))))
                    .collect();
                structs.insert(def.ident.to_string(), fields);
            }
            if let syn::Item::Impl(block) = item {
                in_code.extend(impl_arguments(block));
            }
        }
    }
    // A method's `args` is the struct of its required parameters: they are its fields, then
    // the arguments after it.
    let mut passed_by_name: std::collections::BTreeMap<String, String> = Default::default();
    for (key, args) in in_code.iter_mut() {
        if let Some(at) = args.iter().position(|(name, _)| name == "args") {
            let ty = args[at].1.clone();
            let fields = structs
                .get(&ty)
                .unwrap_or_else(|| panic!("{key}: `{ty}` is a struct"));
            args.splice(at..=at, fields.iter().cloned());
            passed_by_name.insert(key.clone(), ty);
        }
    }
    (in_code, passed_by_name)
}

/// The arguments of the client methods (those returning a request builder) and of the `new`
/// functions an inherent impl block defines.
fn impl_arguments(block: syn::ItemImpl) -> Arguments {
    let mut found = Arguments::default();
    let Some(owner) = inherent_impl_owner(&block) else {
        return found;
    };
    for member in block.items {
        let syn::ImplItem::Fn(method) = member else {
            continue;
        };
        let name = method.sig.ident.to_string();
        // An operation's client method returns its request builder.
        let returns_builder = match &method.sig.output {
            syn::ReturnType::Type(_, ty) => matches!(
                &**ty,
                syn::Type::Path(p) if p.path.segments.first().is_some_and(|s| s.ident == "builders")
            ),
            syn::ReturnType::Default => false,
        };
        let key = match (owner.as_str(), name.as_str()) {
            ("Client", _) if returns_builder => format!("fn {name}"),
            ("Client", _) => continue,
            (_, "new") => format!("{owner}::new"),
            _ => continue,
        };
        let args = method
            .sig
            .inputs
            .iter()
            .filter_map(|arg| match arg {
                syn::FnArg::Typed(typed) => {
                    let syn::Pat::Ident(ident) = &*typed.pat else {
                        panic!("{key}: an argument is a plain name");
                    };
                    Some((ident.ident.to_string(), type_text(&typed.ty)))
                }
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        found.insert(key, args);
    }
    found
}

/// The arguments `api` describes for every client method and request type's `new`, each
/// checked to name the struct the code passes them in (`passed_by_name`).
fn described_arguments(
    api: &Surface,
    passed_by_name: &std::collections::BTreeMap<String, String>,
) -> Arguments {
    let mut described = Arguments::default();
    for op in api.operations.values() {
        let args = op
            .arguments
            .iter()
            .map(|arg| {
                // A field of the arguments struct has its exact type.
                let positional = op.arguments_struct.is_none();
                let (ty, into) = match (op.params.get(arg), &op.body) {
                    (Some(p), _) => (&p.ty, p.into && positional),
                    (None, Some(body)) if arg == "body" => (&body.ty, body.into),
                    _ => panic!("`{}`: argument `{arg}` is described", op.rust_fn),
                };
                (arg.clone(), described_argument(ty, into))
            })
            .collect();
        described.insert(format!("fn {}", op.rust_fn), args);
        assert_eq!(
            op.arguments_struct.as_ref(),
            passed_by_name.get(&format!("fn {}", op.rust_fn)),
            "`{}`: the struct of its required parameters",
            op.rust_fn
        );
    }
    for (name, def) in &api.types {
        let oncegen::surface::Shape::Struct {
            fields,
            constructor,
            constructor_struct,
            ..
        } = &def.shape
        else {
            continue;
        };
        if !def.request {
            continue;
        }
        let args = constructor
            .iter()
            .map(|f| {
                let into = fields[f].into && constructor_struct.is_none();
                (f.clone(), described_argument(&fields[f].rust_type, into))
            })
            .collect();
        described.insert(format!("{name}::new"), args);
        assert_eq!(
            constructor_struct.as_ref(),
            passed_by_name.get(&format!("{name}::new")),
            "`{name}::new`: the struct of its required fields"
        );
    }
    described
}

/// The builder's methods beyond its setters are part of the API: a format added to a response
/// adds `send_text`, a typed error response adds `error_body`; a second error type turns what
/// `error_body` returns into the `{Builder}Error` enum, whose variants are then each breaking.
#[test]
fn builder_methods_and_error_bodies_are_described() {
    let base = revision("base.yaml");
    let builder = revision("builder.yaml");
    let lines = get_ssh_key_lines;
    let added = report(&base, &builder);
    assert_eq!(
        lines(&added),
        [
            (
                Class::Additive,
                "`get_ssh_key`: builder method `send_text` added (resolves to `String`)".to_owned()
            ),
            (
                Class::Additive,
                "`get_ssh_key`: `error_body` added (returns `Option<Problem>`)".to_owned()
            ),
            (
                Class::DocsOnly,
                "`get_ssh_key`: error response 404 added".to_owned()
            ),
        ]
    );
    insta::assert_snapshot!("revision_builder", render(&added));
    let removed = report(&builder, &base);
    assert_eq!(
        lines(&removed)
            .iter()
            .map(|(class, _)| *class)
            .collect::<Vec<_>>(),
        [Class::Breaking, Class::Breaking, Class::DocsOnly],
        "{:#?}",
        lines(&removed)
    );
    assert_eq!(removed.severity(), Some(Class::Breaking));
}

/// The changes of `get_ssh_key` in `report`, with their classes.
fn get_ssh_key_lines(report: &ChangeReport) -> Vec<(Class, String)> {
    report
        .changes
        .iter()
        .filter(|c| c.text.starts_with("`get_ssh_key`"))
        .map(|c| (c.class, c.text.clone()))
        .collect()
}

/// A second error type turns what `error_body` returns into the `{Builder}Error` enum, whose
/// variants are then each breaking.
#[test]
fn error_bodies_of_several_types_are_an_exhaustive_enum() {
    let builder = revision("builder.yaml");
    let lines = get_ssh_key_lines;
    // A 409 of another type: `error_body` now returns the enum.
    let conflict = replaced_once(
        &builder,
        "        \"404\":\n          description: No such key.\n",
        "        \"409\":\n          description: Busy.\n          content:\n            \
         application/json:\n              schema: {$ref: \"#/components/schemas/DnsZone\"}\n        \
         \"404\":\n          description: No such key.\n",
    );
    let to_enum = report(&builder, &conflict);
    assert_eq!(
        lines(&to_enum),
        [
            (
                Class::Breaking,
                "`get_ssh_key`: `error_body` returns `Option<Problem>` → `Option<GetSshKeyError>`"
                    .to_owned()
            ),
            (
                Class::DocsOnly,
                "`get_ssh_key`: error response 409 added".to_owned()
            ),
        ]
    );
    // A third type: a variant added to the exhaustive enum.
    let third = replaced_once(
        &conflict,
        "        \"409\":\n",
        "        \"500\":\n          description: Failed.\n          content:\n            \
         application/json:\n              schema: {$ref: \"#/components/schemas/SshKeyList\"}\n        \
         \"409\":\n",
    );
    assert_eq!(
        lines(&report(&conflict, &third)),
        [
            (
                Class::Breaking,
                "`get_ssh_key`: `GetSshKeyError::Status500(SshKeyList)` added: `GetSshKeyError` \
                 is exhaustive, so matches on it stop compiling"
                    .to_owned()
            ),
            (
                Class::DocsOnly,
                "`get_ssh_key`: error response 500 added".to_owned()
            ),
        ]
    );
    assert_eq!(
        lines(&report(&third, &conflict))[0],
        (
            Class::Breaking,
            "`get_ssh_key`: `GetSshKeyError::Status500` removed".to_owned()
        )
    );
}

/// What the generated code has, read with `syn`: every client method's builder, every
/// builder's other sending methods, the type its `error_body` returns, and the variants of
/// each `{Builder}Error` enum.
#[derive(Default)]
struct BuilderSurface {
    builder_of: std::collections::BTreeMap<String, String>,
    senders: std::collections::BTreeMap<String, Vec<String>>,
    error_body: std::collections::BTreeMap<String, String>,
    enums: std::collections::BTreeMap<String, Vec<String>>,
}

impl BuilderSurface {
    fn visit(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Mod(module) => {
                    if let Some((_, inner)) = &module.content {
                        self.visit(inner);
                    }
                }
                syn::Item::Enum(e) if e.ident.to_string().ends_with("Error") => {
                    let variants = e.variants.iter().map(|v| v.ident.to_string()).collect();
                    self.enums.insert(e.ident.to_string(), variants);
                }
                syn::Item::Impl(block) => {
                    let Some(owner) = inherent_impl_owner(block) else {
                        continue;
                    };
                    for member in &block.items {
                        match member {
                            syn::ImplItem::Fn(method) => self.method(&owner, method),
                            syn::ImplItem::Macro(call) => self.macro_call(&owner, &call.mac),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// `oncegen_runtime::error_body!(Type, "status", …)`: the builder's `error_body` and its type.
    fn macro_call(&mut self, owner: &str, mac: &syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .expect("a path has a segment")
            .ident
            .to_string();
        if name != "error_body" {
            return;
        }
        let first_type = |input: syn::parse::ParseStream| {
            let ty: syn::Type = input.parse()?;
            while !input.is_empty() {
                input.parse::<syn::Token![,]>()?;
                if !input.is_empty() {
                    input.parse::<syn::LitStr>()?;
                }
            }
            Ok(ty)
        };
        let Ok(syn::Type::Path(ty)) = syn::parse::Parser::parse2(first_type, mac.tokens.clone())
        else {
            panic!("{owner}: error_body! starts with a named type");
        };
        let inner = ty.path.segments.last().expect("named").ident.to_string();
        self.error_body.insert(owner.to_owned(), inner);
    }

    fn method(&mut self, owner: &str, method: &syn::ImplItemFn) {
        let name = method.sig.ident.to_string();
        if owner != "Client" && (name.starts_with("send_") || name == "download") {
            self.senders.entry(owner.to_owned()).or_default().push(name);
            return;
        }
        let syn::ReturnType::Type(_, output) = &method.sig.output else {
            return;
        };
        let syn::Type::Path(output) = &**output else {
            return;
        };
        let segments: Vec<_> = output.path.segments.iter().collect();
        if owner == "Client" {
            if segments.len() == 2 && segments[0].ident == "builders" {
                self.builder_of.insert(name, segments[1].ident.to_string());
            }
        } else if name == "error_body" {
            let last = segments.last().expect("a path has a segment");
            let syn::PathArguments::AngleBracketed(generic) = &last.arguments else {
                panic!("{owner}::error_body returns an Option");
            };
            let Some(syn::GenericArgument::Type(syn::Type::Path(inner))) = generic.args.first()
            else {
                panic!("{owner}::error_body returns an Option of a named type");
            };
            let inner = inner.path.segments.last().expect("named").ident.to_string();
            self.error_body.insert(owner.to_owned(), inner);
        }
    }
}

/// Checks that `api`'s sending methods, error bodies and error enums are the ones `sources`
/// have; returns how many of each it checked.
fn check_builder_surface(sources: &[String], api: &Surface) -> (usize, usize, usize) {
    let mut code = BuilderSurface::default();
    for source in sources {
        let parsed = syn::parse_file(source).expect("generated code parses");
        code.visit(&parsed.items);
    }
    assert_eq!(code.builder_of.len(), api.operations.len());
    let (mut senders, mut error_bodies, mut enums) = (0, 0, 0);
    for op in api.operations.values() {
        let builder = &code.builder_of[&op.rust_fn];
        let mut in_code = code.senders.get(builder).cloned().unwrap_or_default();
        in_code.sort();
        let described: Vec<String> = op.send_variants.keys().cloned().collect();
        assert_eq!(in_code, described, "{builder}: sending methods");
        senders += described.len();
        let described = op.error_body.as_ref().map(|e| e.ty.clone());
        assert_eq!(
            code.error_body.get(builder).cloned(),
            described,
            "{builder}: error_body"
        );
        let Some(body) = &op.error_body else {
            continue;
        };
        error_bodies += 1;
        if !body.variants.is_empty() {
            enums += 1;
            let mut in_code = code.enums[&body.ty].clone();
            in_code.sort();
            let mut described: Vec<String> = body
                .variants
                .keys()
                .map(|status| match status.as_str() {
                    "default" => "StatusDefault".to_owned(),
                    other => format!("Status{}", other.to_ascii_lowercase()),
                })
                .collect();
            described.sort();
            assert_eq!(in_code, described, "{}: variants", body.ty);
        }
    }
    (senders, error_bodies, enums)
}

/// `api.json`'s builder methods and error bodies are the ones the checked-in code has, and
/// the description of two fixtures with other formats and several error types matches the
/// code generated from them.
#[test]
fn api_json_records_the_builder_methods_the_code_has() {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../customer-cloud-sdk");
    let api: Surface = serde_json::from_str(&read(&sdk.join("api.json"))).expect("api.json reads");
    let dir = sdk.join("src/generated");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("generated sources")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let sources: Vec<String> = files.iter().map(|f| read(f)).collect();
    let (_, error_bodies, _) = check_builder_surface(&sources, &api);
    assert_eq!(
        error_bodies,
        api.operations.len(),
        "every operation has an error body"
    );

    let mut checked = (0, 0, 0);
    for fixture in ["media_types.yaml", "error_bodies.yaml"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/pipeline")
            .join(fixture);
        let model = lower(&read(&path));
        let generated = oncegen::emit::emit(&model, &options()).expect("the fixture emits");
        let sources: Vec<String> = generated
            .into_iter()
            .filter(|f| f.path.extension().is_some_and(|e| e == "rs"))
            .map(|f| f.contents)
            .collect();
        let (s, e, n) = check_builder_surface(&sources, &Surface::of(&model, CRATE, "0.1.0"));
        checked = (checked.0 + s, checked.1 + e, checked.2 + n);
    }
    assert!(
        checked.0 > 0 && checked.1 > 0 && checked.2 > 0,
        "the fixtures have sending methods, error bodies and error enums: {checked:?}"
    );
}

/// `api.json` records the setter of every optional field of a request type as the checked-in
/// code has it (`pub fn setter(mut self, value) -> Self` in the type's own impl), and whether
/// it takes `impl Into<…>` (`into`), read with `syn`, not from the generator.
#[test]
fn api_json_records_the_setters_the_code_has() {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../customer-cloud-sdk");
    let api: Surface = serde_json::from_str(&read(&sdk.join("api.json"))).expect("api.json reads");
    let in_code = setters_in_code(&sdk.join("src/generated"));
    let mut checked = 0;
    for (name, def) in &api.types {
        let oncegen::surface::Shape::Struct { fields, .. } = &def.shape else {
            continue;
        };
        if !def.request {
            assert!(
                fields.values().all(|f| f.setter.is_none()),
                "`{name}` is no request type"
            );
            continue;
        }
        let described: std::collections::BTreeSet<(String, bool)> = fields
            .values()
            .filter_map(|f| Some((f.setter.clone()?, f.into)))
            .collect();
        let coded = in_code.get(name).cloned().unwrap_or_default();
        assert_eq!(coded, described, "setters of `{name}`");
        checked += described.len();
    }
    assert!(checked > 20, "setters checked: {checked}");
}

/// The setters of each type of the generated code in `dir`, each with whether its argument is
/// `impl Into<…>`.
type Setters = std::collections::BTreeMap<String, std::collections::BTreeSet<(String, bool)>>;

/// The setters (by-value `self` methods of one argument returning `Self`) of each type of the
/// generated code in `dir`, each with whether it takes `impl Into<…>`.
fn setters_in_code(dir: &Path) -> Setters {
    let mut in_code = Setters::default();
    for parsed in generated_sources(dir) {
        for item in parsed.items {
            let syn::Item::Impl(block) = item else {
                continue;
            };
            let Some(owner) = inherent_impl_owner(&block) else {
                continue;
            };
            for member in block.items {
                let syn::ImplItem::Fn(method) = member else {
                    continue;
                };
                let takes_self_by_value = matches!(
                    method.sig.inputs.first(),
                    Some(syn::FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Value)
                );
                let returns_self = matches!(
                    &method.sig.output,
                    syn::ReturnType::Type(_, ty) if matches!(&**ty, syn::Type::Path(p) if p.path.is_ident("Self"))
                );
                let into = matches!(
                    method.sig.inputs.get(1),
                    Some(syn::FnArg::Typed(arg)) if matches!(&*arg.ty, syn::Type::ImplTrait(_))
                );
                if takes_self_by_value && returns_self && method.sig.inputs.len() == 2 {
                    in_code
                        .entry(owner.clone())
                        .or_default()
                        .insert((method.sig.ident.to_string(), into));
                }
            }
        }
    }
    in_code
}

/// Every file of the generated code in `dir`, parsed, in name order.
fn generated_sources(dir: &Path) -> Vec<syn::File> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("generated sources")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let parse = |file: &PathBuf| syn::parse_file(&read(file)).expect("generated code parses");
    files.iter().map(parse).collect()
}

/// The name of the type an inherent `impl` block is for (`None` for a trait impl or an unnamed
/// type).
fn inherent_impl_owner(block: &syn::ItemImpl) -> Option<String> {
    let syn::Type::Path(self_ty) = &*block.self_ty else {
        return None;
    };
    if block.trait_.is_some() {
        return None;
    }
    Some(self_ty.path.segments.last()?.ident.to_string())
}

// Security schemes and servers: revisions of the real contract.

fn contract() -> String {
    read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml"))
}

/// The contract with each `(from, to)` replaced once, under a new `info.version`.
fn contract_revised(edits: &[(&str, &str)]) -> String {
    let mut text = replaced_once(
        &contract(),
        "  version: '2026-10-07.1'\n",
        "  version: '2026-10-07.2'\n",
    );
    for (from, to) in edits {
        text = replaced_once(&text, from, to);
    }
    text
}

/// `spec` with its top-level `servers` replaced by `servers` (YAML, `servers:` included).
fn with_servers(spec: &str, servers: &str) -> String {
    let start = spec.find("\nservers:\n").expect("servers") + 1;
    let end = spec.find("\ntags:\n").expect("tags after servers") + 1;
    assert!(start < end);
    format!("{}{servers}{}", &spec[..start], &spec[end..])
}

/// The security block of `listDnsZones`, which every edit of one operation's requirements
/// starts from.
const LIST_ZONES_SECURITY: &str = "total`.\n      security:\n      - SignedAuth:\n        - dns.read\n      \
     - BearerAuth:\n        - dns.read\n      parameters:";

/// A scheme the mutations add: an API key in header `x-account`.
const ACCOUNT_SCHEME: (&str, &str) = (
    "  securitySchemes:\n",
    "  securitySchemes:\n    AccountHeader:\n      type: apiKey\n      in: header\n      name: x-account\n",
);

fn operations_of_contract() -> usize {
    report(&contract(), &contract()).operations
}

#[test]
fn a_renamed_api_key_header_breaks_released_sdks_but_no_code() {
    let from = "      in: header\n      name: x-api-key\n";
    let report = report(
        &contract(),
        &contract_revised(&[(from, "      in: header\n      name: x-api-token\n")]),
    );
    assert_eq!(
        class_of(
            &report,
            "security scheme `SIGNED_AUTH`: sent as an API key in header `x-api-key` → an API \
             key in header `x-api-token` (the credential set for it goes to the new place; code \
             is unchanged)"
        ),
        Class::DocsOnly
    );
    assert_eq!(report.changes.len(), 2, "{:#?}", report.changes); // and the contract revision
    assert_eq!(report.crate_version.to_string(), "0.3.1");
    assert_eq!(
        wire_class_of(
            &report,
            "security scheme `SIGNED_AUTH`: the server now expects an API key in header \
             `x-api-token`; released SDKs send an API key in header `x-api-key` (calls get 401)"
        ),
        Wire::Breaking
    );
    assert_eq!(report.wire.len(), 1, "{:#?}", report.wire);
    // Every operation of the contract accepts SignedAuth.
    assert_eq!(report.wire[0].operations.len(), operations_of_contract());
    assert!(
        report.warnings[0].starts_with(
            "released SDK versions (up to 0.3.0) will fail against a server of this revision: \
             1 wire-breaking change in 52 operations: "
        ),
        "{:?}",
        report.warnings
    );
    // HTTP header names have no case: the same header in other letters is not a wire change.
    let recased = report_of_contract(&[(from, "      in: header\n      name: X-Api-Key\n")]);
    assert_eq!(recased.severity(), Some(Class::DocsOnly));
    assert!(recased.wire.is_empty(), "{:#?}", recased.wire);
}

fn report_of_contract(edits: &[(&str, &str)]) -> ChangeReport {
    report(&contract(), &contract_revised(edits))
}

#[test]
fn a_bearer_scheme_turned_api_key_is_breaking() {
    let report = report_of_contract(&[(
        "    BearerAuth:\n      type: http\n      scheme: bearer\n",
        "    BearerAuth:\n      type: apiKey\n      in: query\n      name: token\n",
    )]);
    assert_eq!(
        class_of(
            &report,
            "security scheme `BEARER_AUTH`: a bearer token (`Authorization: Bearer`) → an API key \
             in query parameter `token`: a credential of the old kind set for it is now a \
             configuration error (`SchemeCredential::bearer` → `SchemeCredential::api_key`)"
        ),
        Class::Breaking
    );
    assert_eq!(report.crate_version.to_string(), "0.4.0");
    assert_eq!(
        wire_class_of(
            &report,
            "the server now expects an API key in query parameter `token`"
        ),
        Wire::Breaking
    );
}

#[test]
fn a_dropped_scheme_breaks_every_operation_that_accepted_it() {
    let report = report_of_contract(&[(
        "    BearerAuth:\n      type: http\n      scheme: bearer\n",
        "    BearerAuth:\n      type: http\n      scheme: digest\n",
    )]);
    // A scheme the runtime cannot send is left out, and so are the requirements naming it.
    assert_eq!(
        class_of(
            &report,
            "security scheme `BEARER_AUTH` removed (was a bearer token (`Authorization: Bearer`)): \
             code that sets its credential (`Config::scheme_credential(&security_schemes::\
             BEARER_AUTH, …)`) stops compiling"
        ),
        Class::Breaking
    );
    assert_eq!(
        class_of(
            &report,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → `SIGNED_AUTH`: code that \
             set credentials for `BEARER_AUTH` only must set those of a new requirement"
        ),
        Class::Breaking
    );
    assert_eq!(
        wire_class_of(
            &report,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → `SIGNED_AUTH`: released \
             SDKs whose client has credentials for `BEARER_AUTH` only send those, which the \
             server no longer accepts (calls get 401)"
        ),
        Wire::Breaking
    );
    assert_eq!(
        report.wire_broken_operations().len(),
        operations_of_contract()
    );
}

#[test]
fn a_requirement_gained_is_breaking_and_an_alternative_gained_additive() {
    let stricter = report_of_contract(&[
        ACCOUNT_SCHEME,
        (
            LIST_ZONES_SECURITY,
            "total`.\n      security:\n      - SignedAuth:\n        - dns.read\n        \
             AccountHeader: []\n      - BearerAuth:\n        - dns.read\n      parameters:",
        ),
    ]);
    assert_eq!(
        class_of(
            &stricter,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → `ACCOUNT_HEADER` + \
             `SIGNED_AUTH` or `BEARER_AUTH`: code that set credentials for `SIGNED_AUTH` only \
             must set those of a new requirement"
        ),
        Class::Breaking
    );
    assert_eq!(
        class_of(
            &stricter,
            "security scheme `ACCOUNT_HEADER` added (an API key in header `x-account`; key \
             `AccountHeader`)"
        ),
        Class::Additive
    );
    assert_eq!(stricter.wire_broken_operations(), ["list_dns_zones"]);

    let wider = report_of_contract(&[
        ACCOUNT_SCHEME,
        (
            LIST_ZONES_SECURITY,
            "total`.\n      security:\n      - SignedAuth:\n        - dns.read\n      \
             - BearerAuth:\n        - dns.read\n      - AccountHeader: []\n      parameters:",
        ),
    ]);
    assert_eq!(
        class_of(
            &wider,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → `SIGNED_AUTH` or \
             `BEARER_AUTH` or `ACCOUNT_HEADER`: `ACCOUNT_HEADER` now accepted as well"
        ),
        Class::Additive
    );
    assert_eq!(wider.severity(), Some(Class::Additive));
    assert!(wider.wire.is_empty(), "{:#?}", wider.wire);
}

/// Requirements reordered, or none left: no code and no released SDK breaks.
#[test]
fn requirements_reordered_or_dropped_break_nothing() {
    // The runtime sends the first requirement it has every credential of: another order is
    // docs only.
    let reordered = report_of_contract(&[(
        LIST_ZONES_SECURITY,
        "total`.\n      security:\n      - BearerAuth:\n        - dns.read\n      \
         - SignedAuth:\n        - dns.read\n      parameters:",
    )]);
    assert_eq!(
        class_of(
            &reordered,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → `BEARER_AUTH` or \
             `SIGNED_AUTH` (the credentials each old requirement needs still suffice)"
        ),
        Class::DocsOnly
    );
    assert!(reordered.wire.is_empty(), "{:#?}", reordered.wire);

    // No credential needed any more: a new way to call it, and no released SDK fails.
    let open = report_of_contract(&[(
        LIST_ZONES_SECURITY,
        "total`.\n      security: []\n      parameters:",
    )]);
    assert_eq!(
        class_of(
            &open,
            "`list_dns_zones`: security `SIGNED_AUTH` or `BEARER_AUTH` → no credential: callable \
             without a credential now"
        ),
        Class::Additive
    );
    assert!(open.wire.is_empty(), "{:#?}", open.wire);
}

#[test]
fn a_scope_added_to_a_requirement_warns_for_released_sdks() {
    let report = report_of_contract(&[(
        LIST_ZONES_SECURITY,
        "total`.\n      security:\n      - SignedAuth:\n        - dns.read\n        - dns.write\n      \
         - BearerAuth:\n        - dns.read\n      parameters:",
    )]);
    assert_eq!(
        class_of(&report, "`list_dns_zones`: scope `dns.write` added"),
        Class::DocsOnly
    );
    assert_eq!(
        wire_class_of(
            &report,
            "`list_dns_zones`: scope `dns.write` now required: credentials without it get 403"
        ),
        Wire::Breaking
    );
    assert_eq!(report.wire.len(), 1, "{:#?}", report.wire);
}

#[test]
fn a_server_added_is_additive_and_a_new_default_breaking() {
    let servers_at = "servers:\n- url: '{base_url}'\n";
    let added = report_of_contract(&[(
        servers_at,
        "servers:\n- url: '{base_url}'\n  description: Base address of the service. The default \
         is a placeholder; supply the real base URL.\n  variables:\n    base_url:\n      \
         default: https://api.example.invalid\n- url: https://sandbox.example.com/v1\n  \
         description: Sandbox\n- url: '{base_url}'\n",
    )]);
    // Inserted second: the document's first server stays `DEFAULT`; the one that was second
    // (`SERVER_1`, named after its place) is now third.
    assert_eq!(
        class_of(
            &added,
            "server `servers::SANDBOX` added (`https://sandbox.example.com/v1`)"
        ),
        Class::Additive,
    );
    let first = report_of_contract(&[(
        servers_at,
        "servers:\n- url: https://api.example.com/v1\n  description: Production\n- url: \
         '{base_url}'\n",
    )]);
    assert_eq!(
        class_of(
            &first,
            "`servers::DEFAULT`: `servers::SERVER_1` (`https://api.example.invalid`) → \
             `servers::PRODUCTION` (`https://api.example.com/v1`): code passing \
             `servers::DEFAULT` to `Config::new` now calls `https://api.example.com/v1`; a base \
             URL configured as a string is unaffected"
        ),
        Class::Breaking
    );
    assert_eq!(
        class_of(
            &first,
            "server `servers::SERVER_1` probably renamed to `servers::SERVER_2` (same URL \
             `{base_url}`)"
        ),
        Class::Breaking
    );
    // Released SDKs keep their own `DEFAULT`, which this revision still lists.
    assert!(first.wire.is_empty(), "{:#?}", first.wire);
}

#[test]
fn a_server_variable_default_changes_the_constant() {
    let report = report_of_contract(&[(
        "      default: https://api.example.invalid\n",
        "      default: https://api.example.com\n",
    )]);
    assert_eq!(
        class_of(
            &report,
            "server `servers::SERVER_1`: `https://api.example.invalid` → \
             `https://api.example.com`: code passing `servers::SERVER_1` (and \
             `servers::DEFAULT`) to `Config::new` now calls `https://api.example.com`; a base \
             URL configured as a string is unaffected; variable `base_url`: default \
             `https://api.example.invalid` → `https://api.example.com`"
        ),
        Class::Breaking
    );
    // `{base_url}` lists no values: the old URL is still one of the server's.
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

const REGIONS: &str = "servers:\n- url: https://{region}.example.com/v1\n  description: \
     Regional\n  variables:\n    region:\n      default: eu\n      enum: [eu, us]\n- url: \
     https://legacy.example.com/v1\n  description: Legacy\n";

#[test]
fn a_server_url_no_longer_listed_breaks_released_sdks_configured_with_it() {
    let old = with_servers(&contract(), REGIONS);
    let new = with_servers(
        &contract_revised(&[]),
        "servers:\n- url: https://{region}.example.com/v1\n  description: Regional\n  variables:\n    \
         region:\n      default: us\n      enum: [us, ap]\n",
    );
    let report = report(&old, &new);
    assert_eq!(
        class_of(
            &report,
            "server `servers::REGIONAL`: `https://eu.example.com/v1` → \
             `https://us.example.com/v1`: code passing `servers::REGIONAL` (and \
             `servers::DEFAULT`) to `Config::new` now calls `https://us.example.com/v1`; a base \
             URL configured as a string is unaffected; variable `region`: default `eu` → `us`, \
             value `ap` added, value `eu` removed"
        ),
        Class::Breaking
    );
    assert_eq!(
        class_of(
            &report,
            "server `servers::LEGACY` removed (was `https://legacy.example.com/v1`): code that \
             uses it stops compiling"
        ),
        Class::Breaking
    );
    assert_eq!(
        wire_class_of(
            &report,
            "server `servers::REGIONAL`: this revision no longer lists \
             `https://eu.example.com/v1`, which released SDKs' `servers::REGIONAL` (and \
             `servers::DEFAULT`) holds, nor the URLs `servers::regional` builds with `region` \
             `eu`: clients of released SDKs configured with them call a server it does not \
             promise; a base URL configured as a string is unaffected"
        ),
        Wire::Breaking
    );
    assert_eq!(
        wire_class_of(
            &report,
            "server `servers::LEGACY` removed: this revision no longer lists \
             `https://legacy.example.com/v1`, which released SDKs' `servers::LEGACY` holds"
        ),
        Wire::Breaking
    );
    assert_eq!(
        report.wire_broken_operations().len(),
        operations_of_contract()
    );
}

/// A value added to a server variable, the old default kept: docs only, nothing breaks.
#[test]
fn a_server_variable_value_added_breaks_nothing() {
    let old = with_servers(&contract(), REGIONS);
    let widened = with_servers(
        &contract_revised(&[]),
        &REGIONS.replace("enum: [eu, us]", "enum: [eu, us, ap]"),
    );
    let report = self::report(&old, &widened);
    assert_eq!(
        class_of(&report, "variable `region`: value `ap` added"),
        Class::DocsOnly
    );
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

/// Rewritten without a change of meaning: schemes in another order, a requirement in flow
/// style, servers unchanged.
#[test]
fn security_written_differently_is_no_api_change() {
    let spec = contract();
    let bearer_at = spec
        .find("    BearerAuth:\n      type: http\n")
        .expect("BearerAuth");
    let bearer_end = spec[bearer_at..]
        .find("  parameters:\n")
        .expect("parameters after securitySchemes")
        + bearer_at;
    let bearer = &spec[bearer_at..bearer_end];
    let moved = replaced_once(&spec, bearer, "");
    let moved = replaced_once(
        &moved,
        "  securitySchemes:\n",
        &format!("  securitySchemes:\n{bearer}"),
    );
    let moved = replaced_once(
        &moved,
        LIST_ZONES_SECURITY,
        "total`.\n      security: [{SignedAuth: [dns.read]}, {BearerAuth: [dns.read]}]\n      \
         parameters:",
    );
    assert_ne!(moved, spec);
    let report = report(&spec, &moved);
    assert!(report.changes.is_empty(), "{:#?}", report.changes);
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
    assert_eq!(
        render(&report),
        "No API change: contract revision `2026-10-07.1`, crate version 0.3.0.\n"
    );
}

/// A format-3 `api.json` (before schemes and servers were recorded) is another format: nothing
/// is compared, the report says why, and the version stays.
#[test]
fn a_format_3_baseline_is_not_compared() {
    let api = lower(&contract());
    let mut old: serde_json::Value =
        serde_json::from_str(&Surface::of(&api, CRATE, "0.3.0").to_json()).expect("a description");
    old["format"] = 3.into();
    for member in ["security_schemes", "servers", "default_server"] {
        old.as_object_mut().expect("object").remove(member);
    }
    for op in old["operations"]
        .as_object_mut()
        .expect("operations")
        .values_mut()
    {
        op.as_object_mut().expect("operation").remove("security");
    }
    let dir = scratch("format-3");
    std::fs::write(dir.join("api.json"), old.to_string()).expect("api.json written");
    let baseline = Baseline::load(&dir);
    assert_eq!(baseline, Baseline::OtherFormat { found: Some(3) });
    let revised = lower(&contract_revised(&[(
        "      in: header\n      name: x-api-key\n",
        "      in: header\n      name: x-api-token\n",
    )]));
    let report = compare(&baseline, Version::parse("0.3.0"), surface(&revised)).1;
    assert!(report.changes.is_empty() && report.wire.is_empty());
    assert_eq!(report.crate_version.to_string(), "0.3.0");
    let text = render(&report);
    assert!(
        text.contains(&format!(
            "No baseline: `api.json` was written by another generator version (format 3; this \
             one reads formats {} to {} and writes {}: to list what a new contract revision \
             changes, generate from the previous revision's spec first, then from the new one), \
             so changes cannot be listed.",
            oncegen::surface::FORMAT_READ,
            oncegen::surface::FORMAT,
            oncegen::surface::FORMAT
        )),
        "{text}"
    );
}

/// One revision with a changed header, a new alternative requirement and a regional server
/// whose old default region is gone, as the maintainer reads it.
#[test]
fn security_and_server_changes_read_in_the_report() {
    let old = with_servers(&contract(), REGIONS);
    let new = with_servers(
        &contract_revised(&[
            (
                "      in: header\n      name: x-api-key\n",
                "      in: header\n      name: x-api-token\n",
            ),
            ACCOUNT_SCHEME,
            (
                LIST_ZONES_SECURITY,
                "total`.\n      security:\n      - SignedAuth:\n        - dns.read\n      \
                 - BearerAuth:\n        - dns.read\n      - AccountHeader: []\n      parameters:",
            ),
        ]),
        &REGIONS.replace(
            "default: eu\n      enum: [eu, us]",
            "default: us\n      enum: [us]",
        ),
    );
    let report = report(&old, &new);
    insta::assert_snapshot!("revision_access", render(&report));
}

/// The string literal `expr` holds.
fn string_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

fn last_segment(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// The member `name` of a struct expression.
fn member<'a>(fields: &'a syn::ExprStruct, name: &str) -> &'a syn::Expr {
    &fields
        .fields
        .iter()
        .find(|f| matches!(&f.member, syn::Member::Named(i) if i == name))
        .unwrap_or_else(|| panic!("member `{name}`"))
        .expr
}

/// The `SecurityScheme` statics of the `security_schemes` module's `items`, by name (the
/// operations' shared `security` lists, `REQUIRES_…`, sit beside them).
fn schemes_in_code(
    items: &[syn::Item],
) -> std::collections::BTreeMap<String, (String, String, Option<String>, Option<String>)> {
    let scheme = |item: &syn::Item| match item {
        syn::Item::Static(s) if matches!(&*s.ty, syn::Type::Path(p) if last_segment(&p.path) == "SecurityScheme") => {
            Some((s.ident.to_string(), scheme_in_code(&s.expr)))
        }
        _ => None,
    };
    items.iter().filter_map(scheme).collect()
}

/// A `SecurityScheme` static as `api.json` spells it: `(name, kind, in, param)`.
fn scheme_in_code(expr: &syn::Expr) -> (String, String, Option<String>, Option<String>) {
    let syn::Expr::Struct(scheme) = expr else {
        panic!("a SecurityScheme literal");
    };
    let name = string_literal(member(scheme, "name")).expect("name is a string");
    match member(scheme, "kind") {
        syn::Expr::Path(kind) => {
            let kind = match last_segment(&kind.path).as_str() {
                "Bearer" => "bearer",
                "Basic" => "basic",
                other => panic!("kind {other}"),
            };
            (name, kind.to_owned(), None, None)
        }
        syn::Expr::Struct(api_key) => {
            assert_eq!(last_segment(&api_key.path), "ApiKey");
            let syn::Expr::Path(location) = member(api_key, "location") else {
                panic!("location is a path");
            };
            let param = string_literal(member(api_key, "param")).expect("param is a string");
            (
                name,
                "api_key".to_owned(),
                Some(last_segment(&location.path).to_ascii_lowercase()),
                Some(param),
            )
        }
        _ => panic!("kind is a path or an ApiKey literal"),
    }
}

/// `api.json`'s security schemes and servers are the `security_schemes` statics and the
/// `servers` constants, functions and `DEFAULT` of the checked-in code, read with `syn`.
#[test]
fn api_json_records_the_schemes_and_servers_the_code_has() {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../customer-cloud-sdk");
    let api: Surface = serde_json::from_str(&read(&sdk.join("api.json"))).expect("api.json reads");
    let client = syn::parse_file(&read(&sdk.join("src/generated/client.rs"))).expect("parses");
    let module = |name: &str| -> Vec<syn::Item> {
        client
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Mod(m) if m.ident == name => Some(m.content.clone()?.1),
                _ => None,
            })
            .unwrap_or_else(|| panic!("module `{name}`"))
    };
    let schemes = schemes_in_code(&module("security_schemes"));
    let described: std::collections::BTreeMap<String, _> = api
        .security_schemes
        .iter()
        .map(|(key, s)| {
            let described = (
                s.name.clone(),
                s.kind.as_str().to_owned(),
                s.location.map(|l| l.as_str().to_owned()),
                s.param.clone(),
            );
            (key.clone(), described)
        })
        .collect();
    assert_eq!(schemes, described);
    assert!(!schemes.is_empty());

    let (constants, functions, default) = servers_in_code(module("servers"));
    let described_values: std::collections::BTreeMap<String, String> = api
        .servers
        .iter()
        .map(|(key, s)| (key.clone(), s.value()))
        .collect();
    assert_eq!(constants, described_values);
    let described_functions: std::collections::BTreeMap<String, Vec<String>> = api
        .servers
        .iter()
        .filter(|(_, s)| !s.variables.is_empty())
        .map(|(key, s)| {
            let arguments = s.variables.iter().map(|v| v.rust_name.clone()).collect();
            (key.to_ascii_lowercase(), arguments)
        })
        .collect();
    assert_eq!(functions, described_functions);
    assert_eq!(default, api.default_server);
}

/// Constants (name → URL), functions (name → arguments), the server `DEFAULT` names.
type ServersInCode = (
    std::collections::BTreeMap<String, String>,
    std::collections::BTreeMap<String, Vec<String>>,
    Option<String>,
);

/// The `servers` module's constants (name → URL), functions (name → arguments) and the
/// server `DEFAULT` names.
fn servers_in_code(items: Vec<syn::Item>) -> ServersInCode {
    let (mut constants, mut functions, mut default) = (
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
        None,
    );
    for item in items {
        match item {
            syn::Item::Const(c) if c.ident == "DEFAULT" => {
                let syn::Expr::Path(target) = &*c.expr else {
                    panic!("DEFAULT names a server");
                };
                default = Some(last_segment(&target.path));
            }
            syn::Item::Const(c) => {
                let value = string_literal(&c.expr).expect("a URL");
                constants.insert(c.ident.to_string(), value);
            }
            syn::Item::Fn(f) if f.sig.ident != "resolve" => {
                let arguments: Vec<String> = f
                    .sig
                    .inputs
                    .iter()
                    .map(|input| match input {
                        syn::FnArg::Typed(t) => match &*t.pat {
                            syn::Pat::Ident(i) => i.ident.to_string(),
                            _ => panic!("arguments are plain names"),
                        },
                        syn::FnArg::Receiver(_) => panic!("a free function"),
                    })
                    .collect();
                functions.insert(f.sig.ident.to_string(), arguments);
            }
            _ => {}
        }
    }
    (constants, functions, default)
}

/// A scheme under another key, sent the same way: its `static` is renamed (breaking), the
/// requirements naming it are the same for every operation, and the wire is unchanged.
#[test]
fn a_renamed_scheme_is_one_breaking_line_and_no_wire_change() {
    let renamed = contract_revised(&[]).replace("BearerAuth", "TokenAuth");
    let report = report(&contract(), &renamed);
    assert_eq!(
        class_of(
            &report,
            "security scheme `BEARER_AUTH` probably renamed to `TOKEN_AUTH` (key `BearerAuth` → \
             `TokenAuth`, still a bearer token (`Authorization: Bearer`)): code naming \
             `security_schemes::BEARER_AUTH` stops compiling"
        ),
        Class::Breaking
    );
    assert_eq!(report.changes.len(), 2, "{:#?}", report.changes); // and the contract revision
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

/// A variable added to a server's URL is a new argument of its function; the constant keeps
/// its value and released SDKs their URL.
#[test]
fn a_server_variable_added_changes_the_function() {
    let old = with_servers(&contract(), REGIONS);
    let new = with_servers(
        &contract_revised(&[]),
        &REGIONS.replace(
            "https://{region}.example.com/v1\n  description: Regional\n  variables:\n",
            "https://{region}.example.com/{version}\n  description: Regional\n  variables:\n    \
             version:\n      default: v1\n",
        ),
    );
    let report = report(&old, &new);
    assert_eq!(
        class_of(
            &report,
            "server `servers::REGIONAL`: URL template `https://{region}.example.com/v1` → \
             `https://{region}.example.com/{version}`; function `servers::regional(region)` → \
             `servers::regional(version, region)`: its arguments changed"
        ),
        Class::Breaking
    );
    assert!(report.wire.is_empty(), "{:#?}", report.wire);
}

#[test]
fn an_operation_sent_to_its_own_server_breaks_released_sdks_but_no_code() {
    let report = report_of_contract(&[(
        "total`.\n      security:\n",
        "total`.\n      servers:\n      - url: https://dns.example.com/v1\n      security:\n",
    )]);
    assert_eq!(
        class_of(
            &report,
            "`list_dns_zones`: sent to the base URL → its own server `https://dns.example.com/v1`"
        ),
        Class::DocsOnly
    );
    assert_eq!(
        wire_class_of(
            &report,
            "`list_dns_zones`: the server now expects it at its own server \
             `https://dns.example.com/v1`; released SDKs send it to the base URL"
        ),
        Wire::Breaking
    );
    assert_eq!(report.wire.len(), 1, "{:#?}", report.wire);
}

/// A union member's fixed tag is no Rust API, but a new value breaks what released SDKs send
/// and accept; a tag that becomes a field again is a field added (breaking for `new`).
#[test]
fn a_changed_fixed_tag_breaks_the_wire_not_the_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pipeline/member_tags.yaml");
    let old = std::fs::read_to_string(&path).expect("the fixture");
    let renamed = replaced_once(&old, "enum: [circle]", "enum: [round]");
    let retagged = report(&old, &renamed);
    assert_eq!(
        class_of(
            &retagged,
            "`Circle`: fixed tag `kind` = `circle` → `kind` = `round`"
        ),
        Class::DocsOnly
    );
    for needle in [
        "released SDKs send the old one",
        "released SDKs refuse the new one",
    ] {
        assert_eq!(wire_class_of(&retagged, needle), Wire::Breaking);
    }
    // Two values: the property no longer tags the union, so the field comes back.
    let widened = report(
        &old,
        &replaced_once(&old, "enum: [circle]", "enum: [circle, disc]"),
    );
    let lines: Vec<&str> = widened.changes.iter().map(|c| c.text.as_str()).collect();
    assert!(
        lines.contains(&"`Circle`: fixed tag `kind` = `circle` → none"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("`Circle`") && l.contains("`kind`") && l.contains("added")),
        "{lines:#?}"
    );
}

#[test]
fn an_operation_that_becomes_destructive_or_a_purchase_is_named() {
    let removed = report_of_contract(&[
        (
            "      # Reference 4.6: restoration can overwrite data.\n      x-destructive: true\n",
            "",
        ),
        (
            "listing: not shown).\n      x-charges:\n        amount: not-shown\n",
            "listing: not shown).\n",
        ),
        (
            "      x-charges:\n        ceiling: [max_total, maxTotal]\n",
            "      x-charges:\n        amount: not-shown\n",
        ),
        (
            "      x-grants-access: a new administrator password of the dedicated server\n",
            "",
        ),
    ]);
    let lines: Vec<&str> = removed.changes.iter().map(|c| c.text.as_str()).collect();
    for expected in [
        "`vps_backup_restore`: no longer destructive",
        "`product_variant_deploy`: spending ceiling members `max_total`, `maxTotal` → none",
        "`pay_invoice`: no longer charges the account",
        "`dedicated_password_reset`: no longer grants access",
    ] {
        assert!(lines.contains(&expected), "{expected} not in {lines:#?}");
    }
    let back = report(
        &contract_revised(&[(
            "      # Reference 4.6: restoration can overwrite data.\n      x-destructive: true\n",
            "",
        )]),
        &contract(),
    );
    assert_eq!(
        class_of(
            &back,
            "`vps_backup_restore`: now destructive: the CLI asks before it, the MCP server offers \
             it only when destructive tools are enabled"
        ),
        Class::DocsOnly
    );
}

/// `headers.yaml` with `from` replaced by `to` (once), reported against the file as it is.
fn headers_revision(from: &str, to: &str) -> ChangeReport {
    let base = revision("headers.yaml");
    report(&base, &replaced_once(&base, from, to))
}

#[test]
fn response_headers_added_removed_and_retyped_are_named() {
    let added = headers_revision(
        "            X-Quota-Left: {schema: {type: integer}}\n",
        "            X-Quota-Left: {schema: {type: integer}}\n            X-Trace: {schema: {type: string}}\n",
    );
    assert_eq!(
        class_of(&added, "response header `x-trace` (`String`) added"),
        Class::Additive
    );
    assert!(added.wire.is_empty(), "{:#?}", added.wire);

    let removed = headers_revision("            X-Quota-Left: {schema: {type: integer}}\n", "");
    assert_eq!(
        class_of(&removed, "response header `x-quota-left` removed"),
        Class::Breaking
    );
    assert_eq!(
        wire_class_of(&removed, "`x-quota-left` no longer documented"),
        Wire::Degraded
    );

    let retyped = headers_revision(
        "X-Quota-Left: {schema: {type: integer}}",
        "X-Quota-Left: {schema: {type: string}}",
    );
    assert_eq!(
        class_of(
            &retyped,
            "response header `x-quota-left`: type `i64` → `String`"
        ),
        Class::Breaking
    );
}

#[test]
fn a_changed_request_default_is_a_behaviour_change_for_released_sdks() {
    let report = headers_revision("default: monthly", "default: quarterly");
    let subject = "default `\"monthly\"` → `\"quarterly\"`";
    // The code compiles as before: docs only for the crate's version.
    assert_eq!(
        class_of(&report, "`default` \"monthly\" → \"quarterly\""),
        Class::DocsOnly
    );
    assert_eq!(wire_class_of(&report, subject), Wire::Behaviour);
    let line = report
        .wire
        .iter()
        .find(|c| c.text.contains(subject))
        .unwrap();
    assert_eq!(line.operations, ["create_order"]);
    assert!(
        line.text
            .contains("released SDKs that leave it out now get `\"quarterly\"`"),
        "{}",
        line.text
    );
    assert!(
        report.warnings[0].contains("another behaviour")
            && report.warnings[0].contains("`create_order`"),
        "{:?}",
        report.warnings
    );
    let text = render(&report);
    assert!(
        text.contains("#### Behaviour changes (calls work and do something else)"),
        "{text}"
    );

    let param = headers_revision("default: true", "default: false");
    assert_eq!(
        wire_class_of(&param, "default `true` → `false`"),
        Wire::Behaviour
    );
    // A default on a field nobody may leave out changes nothing a released SDK sends.
    let required = headers_revision(
        "plan: {type: string}",
        "plan: {type: string, default: basic}",
    );
    assert!(
        required.wire.iter().all(|c| c.class != Wire::Behaviour),
        "{:#?}",
        required.wire
    );
}

/// The command-line tool's section: `rename.yaml` renames an operationId and a query
/// parameter, so its command and its flag are renamed for scripts (breaking); a new optional
/// parameter and a new operation are additive; names are the emitter's
/// (`surface::command_line`), and nothing changes the section when the tool's names stay.
#[test]
fn renamed_commands_and_flags_are_breaking_for_scripts() {
    let base = revision("base.yaml");
    let renamed = report(&base, &revision("rename.yaml"));
    let cli: Vec<(Class, &str)> = renamed
        .cli
        .iter()
        .map(|c| (c.class, c.text.as_str()))
        .collect();
    assert_eq!(
        cli,
        [
            (
                Class::Breaking,
                "command `keys delete-ssh-key` renamed to `keys remove-ssh-key`"
            ),
            (
                Class::Breaking,
                "`keys list-ssh-keys`: flag `--fingerprint` renamed to `--sha256-fingerprint`"
            ),
        ]
    );
    let text = render(&renamed);
    assert!(text.contains("### Command-line tool"), "{text}");
    assert!(
        text.contains(
            "#### Breaking for scripts\n\n- command `keys delete-ssh-key` renamed to `keys remove-ssh-key`\n"
        ),
        "{text}"
    );
    assert!(
        renamed
            .warnings
            .iter()
            .any(|w| w.starts_with("scripts calling the command-line tool break: 2 changes")),
        "{:?}",
        renamed.warnings
    );

    let added = replaced_once(
        &base,
        "        - {name: zone, in: path, required: true, schema: {type: string}}\n",
        "        - {name: zone, in: path, required: true, schema: {type: string}}\n        - {name: include_records, in: query, schema: {type: boolean}}\n",
    );
    let added = report(&base, &added);
    let cli: Vec<(Class, &str)> = added
        .cli
        .iter()
        .map(|c| (c.class, c.text.as_str()))
        .collect();
    assert_eq!(
        cli,
        [(
            Class::Additive,
            "`dns get-dns-zone`: flag `--include-records` added"
        )]
    );
    assert!(report(&base, &base).cli.is_empty());
}

/// Issue 41's repros, on `names.yaml`: the report of `names.yaml` revised by `edits`.
fn report_of_names(edits: &[(&str, &str)]) -> ChangeReport {
    let base = revision("names.yaml");
    let revised = edits.iter().fold(base.clone(), |text, (from, to)| {
        replaced_once(&text, from, to)
    });
    report(&base, &revised)
}

/// A path parameter renamed inside the arguments struct is a renamed field every call names
/// (E0560): breaking, never docs only.
#[test]
fn a_path_parameter_renamed_in_an_arguments_struct_is_breaking() {
    let report = report_of_names(&[
        (
            "/zones/{zoneId}/records/{recordId}:",
            "/zones/{zoneId}/records/{id}:",
        ),
        (
            "{name: recordId, in: path, required: true",
            "{name: id, in: path, required: true",
        ),
    ]);
    assert_eq!(
        class_of(
            &report,
            "`get_record`: path parameter `record_id` probably renamed to `id`"
        ),
        Class::Breaking
    );
    assert!(
        report
            .changes
            .iter()
            .any(|c| c.text.contains("field of `GetRecordArgs` renamed")),
        "{:#?}",
        report.changes
    );
    assert_eq!(report.severity(), Some(Class::Breaking));
}

/// Of two required query parameters, one renamed: a field of the arguments struct renamed.
#[test]
fn one_of_two_required_query_parameters_renamed_is_breaking() {
    let report = report_of_names(&[(
        "{name: kind, in: query, required: true",
        "{name: type, in: query, required: true",
    )]);
    assert_eq!(
        class_of(
            &report,
            "`list_records`: query parameter `kind` probably renamed to `type_`"
        ),
        Class::Breaking
    );
    assert_eq!(report.severity(), Some(Class::Breaking));
}

/// A value added to one of identical inline enums renames no other place's type: each place
/// has its own.
#[test]
fn a_value_added_to_one_of_identical_enums_renames_no_other_type() {
    let report = report_of_names(&[(
        "policy_in: {type: string, enum: [DROP, ACCEPT]}",
        "policy_in: {type: string, enum: [DROP, ACCEPT, REJECT]}",
    )]);
    assert_eq!(
        report.severity(),
        Some(Class::Additive),
        "{:#?}",
        report.changes
    );
    assert_eq!(
        class_of(&report, "`PolicyPolicyIn`: value `REJECT` added"),
        Class::Additive
    );
    assert_eq!(report.changes.len(), 1, "{:#?}", report.changes);
}

/// A header added to one of two operations documenting the same headers changes only that
/// operation's view.
#[test]
fn a_header_added_to_one_operation_changes_no_other_view() {
    let report = report_of_names(&[(
        "          description: A.\n          headers:\n",
        "          description: A.\n          headers:\n            X-Added: {schema: {type: string}}\n",
    )]);
    assert_eq!(
        report.severity(),
        Some(Class::Additive),
        "{:#?}",
        report.changes
    );
    assert!(
        report.changes.iter().all(|c| c.text.starts_with("`get_a`")),
        "{:#?}",
        report.changes
    );
}

/// 200 → 201 leaves the Rust API as it is, and is named for released SDKs: a behaviour
/// change, with its warning, never silent.
#[test]
fn a_changed_success_status_is_a_behaviour_change() {
    let report = report_of_names(&[(
        "      responses:\n        \"200\":\n          description: The rule.",
        "      responses:\n        \"201\":\n          description: The rule.",
    )]);
    assert_eq!(report.severity(), None, "{:#?}", report.changes);
    assert_eq!(
        wire_class_of(&report, "`get_rule`: success status `200` → `201`"),
        Wire::Behaviour
    );
    assert!(
        report.warnings.iter().any(|w| w.contains("`get_rule`")),
        "{:#?}",
        report.warnings
    );
}

/// A command whose operationId reads like its URL is named from its path
/// (`surface::command_line::readable`), so giving the operation a readable operationId renames
/// its client method (breaking for the Rust API) and no command: `vps reboot` stays.
#[test]
fn a_url_like_operation_id_made_readable_renames_no_command() {
    let report = report_of_contract(&[(
        "operationId: postVpsByServiceIdReboot\n",
        "operationId: vpsReboot\n",
    )]);
    assert_eq!(
        class_of(&report, "renamed to `vps_reboot`"),
        Class::Breaking
    );
    assert!(report.cli.is_empty(), "{:#?}", report.cli);
}

/// A union of two structs (`Target`: the body of `point`, a required and an optional field of
/// `Attachment`) and one of two string enums (`Kind`, a query parameter): each converts from
/// its members, and every argument of it takes `impl Into<…>`.
const CONVERSIONS: &str = r#"openapi: 3.0.3
info: {title: Conversions, version: "1"}
paths:
  /attachments:
    post:
      operationId: attach
      parameters:
        - {name: kind, in: query, required: true, schema: {$ref: '#/components/schemas/Kind'}}
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Attachment'}
      responses:
        '204': {description: Attached.}
  /pointers:
    post:
      operationId: point
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Target'}
      responses:
        '204': {description: Pointed.}
components:
  schemas:
    Target:
      oneOf:
        - {$ref: '#/components/schemas/Server'}
        - {$ref: '#/components/schemas/Volume'}
    Kind:
      oneOf:
        - {$ref: '#/components/schemas/Size'}
        - {$ref: '#/components/schemas/Tier'}
    Size: {type: string, enum: [small, large]}
    Tier: {type: string, enum: [gold]}
    Server:
      type: object
      properties: {id: {type: string}}
    Volume:
      type: object
      properties: {id: {type: string}}
    Attachment:
      type: object
      required: [target]
      properties:
        target: {$ref: '#/components/schemas/Target'}
        backup: {$ref: '#/components/schemas/Target'}
"#;

/// [`CONVERSIONS`] with `Server` and `Volume` strings: `Target` converts from neither.
fn conversions_without_structs() -> String {
    let object = "      type: object\n      properties: {id: {type: string}}\n";
    CONVERSIONS
        .replace(
            &format!("    Server:\n{object}"),
            "    Server: {type: string}\n",
        )
        .replace(
            &format!("    Volume:\n{object}"),
            "    Volume: {type: string}\n",
        )
}

/// A union's `From<Member>` that goes (a second member of the same payload type makes it
/// ambiguous; a member that stops being a struct) breaks `.into()` from it: breaking; one that
/// comes is additive.
#[test]
fn a_lost_from_conversion_is_breaking_and_a_new_one_additive() {
    let second_server = replaced_once(
        CONVERSIONS,
        "        - {$ref: '#/components/schemas/Volume'}\n",
        "        - {$ref: '#/components/schemas/Volume'}\n        - {$ref: '#/components/schemas/Server'}\n",
    );
    let ambiguous = report(CONVERSIONS, &second_server);
    assert_eq!(
        class_of(&ambiguous, "`Target`: `From<Server>` removed"),
        Class::Breaking
    );
    let strings = conversions_without_structs();
    let lost = report(CONVERSIONS, &strings);
    for from in ["`From<Server>` removed", "`From<Volume>` removed"] {
        assert_eq!(class_of(&lost, from), Class::Breaking);
    }
    let gained = report(&strings, CONVERSIONS);
    for from in ["`From<Server>` added", "`From<Volume>` added"] {
        assert_eq!(class_of(&gained, from), Class::Additive);
    }
}

/// An argument that stops taking `impl Into<…>` (its union no longer converts from a named
/// member) breaks calls passing a member: the body of `point`, `Attachment::new`'s `target`,
/// the `backup` setter, the `kind` parameter. One that starts is additive.
#[test]
fn an_argument_that_stops_taking_impl_into_is_breaking_and_one_that_starts_additive() {
    let strings = conversions_without_structs();
    let arguments = [
        "`point`: request body",
        "`Attachment`: field `target`",
        "`Attachment`: field `backup`",
    ];
    let lost = report(CONVERSIONS, &strings);
    let gained = report(&strings, CONVERSIONS);
    for argument in arguments {
        let stops = format!("{argument}: no longer takes `impl Into<…>`");
        assert_eq!(class_of(&lost, &stops), Class::Breaking);
        let starts = format!("{argument}: now takes `impl Into<…>`");
        assert_eq!(class_of(&gained, &starts), Class::Additive);
    }
    let tier_text = replaced_once(
        CONVERSIONS,
        "Tier: {type: string, enum: [gold]}",
        "Tier: {type: string}",
    );
    let starts = report(CONVERSIONS, &tier_text);
    let param = "`attach`: query parameter `kind`";
    assert_eq!(
        class_of(&starts, &format!("{param}: now takes `impl Into<…>`")),
        Class::Additive
    );
    let stops = report(&tier_text, CONVERSIONS);
    assert_eq!(
        class_of(&stops, &format!("{param}: no longer takes `impl Into<…>`")),
        Class::Breaking
    );
}

/// A baseline of format 5 records no conversions: it is still read, and the report claims no
/// conversion change it cannot see.
#[test]
fn a_format_5_baseline_is_read_and_claims_no_conversion_change() {
    let mut old: serde_json::Value =
        serde_json::from_str(&Surface::of(&lower(CONVERSIONS), CRATE, "0.3.0").to_json())
            .expect("a surface");
    old["format"] = 5.into();
    strip_members(&mut old, &["converts_from", "into"]);
    let dir = scratch("format-5");
    std::fs::write(dir.join("api.json"), old.to_string()).expect("api.json written");
    let baseline = Baseline::load(&dir);
    assert!(matches!(baseline, Baseline::Found(_)), "{baseline:?}");
    let new = surface(&lower(&conversions_without_structs()));
    let report = compare(&baseline, Version::parse("0.3.0"), new).1;
    let claimed: Vec<_> = (report.changes.iter())
        .filter(|c| c.text.contains("From<") || c.text.contains("impl Into"))
        .collect();
    assert!(claimed.is_empty(), "{claimed:#?}");
    assert!(!report.changes.is_empty(), "the other changes are compared");
}

/// `value` without the object members named `names`, at any depth.
fn strip_members(value: &mut serde_json::Value, names: &[&str]) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|key, _| !names.contains(&key.as_str()));
            map.values_mut().for_each(|v| strip_members(v, names));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| strip_members(v, names)),
        _ => {}
    }
}

/// `api.json` reads back as the surface it was written from, for the contract and every corpus
/// document: a member the JSON loses (a `default: null` read back as no default) would make
/// a regeneration over its own output report a change that did not happen.
#[test]
fn api_json_reads_back_as_the_surface_it_was_written_from() {
    let repo = sdk_tests::workspace::repo();
    let corpus = std::fs::read_dir(repo.join("sdk-tests/realspecs")).expect("the corpus");
    let mut documents: Vec<PathBuf> = corpus
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml"))
        .collect();
    documents.sort();
    assert!(documents.len() >= 16, "the corpus: {documents:?}");
    documents.push(repo.join("spec/openapi.yaml"));
    for path in &documents {
        let api = oncegen::model(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = Surface::of(&api, CRATE, "0.3.0");
        let read: Surface = serde_json::from_str(&written.to_json()).expect("api.json reads");
        assert!(
            read == written,
            "{}: api.json does not read back",
            path.display()
        );
    }
}
