//! Every hand-written function of the workspace fits on a screen: at most 60 lines from its
//! `fn` line to its closing brace.
//!
//! Hand-written means every `.rs` file of every workspace package (sources, tests, benches,
//! build scripts) whose first line is not a `// @generated` header. A function is found by its `fn`
//! line and ends at the first line holding only `}` at the same indentation: the layout
//! `rustfmt` gives, which CI enforces (`cargo fmt --check`). Functions still over the limit are
//! named in [`LONGER`] with their current length: the list may only shrink, and an entry must
//! be removed (or lowered) as soon as its function is shortened.

use sdk_tests::workspace;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The most lines a function may have.
const LIMIT: usize = 60;

/// Functions over [`LIMIT`] while the sweep works them down: `(file, function, lines)`.
const LONGER: &[(&str, &str, usize)] = &[
    (
        "customer-cloud-cli/tests/operations.rs",
        "configure_writes_an_owner_only_profile_that_commands_and_doctor_use",
        86,
    ),
    (
        "customer-cloud-cli/tests/operations.rs",
        "every_operation_has_a_round_trip_through_the_cli",
        289,
    ),
    (
        "customer-cloud-cli/tests/operations.rs",
        "output_formats_and_jq_filters",
        72,
    ),
    (
        "customer-cloud-cli/tests/terminal.rs",
        "configure_reads_secrets_without_echo_and_writes_them_owner_only",
        64,
    ),
    ("customer-cloud-mcp/tests/inspector_cli.rs", "exercise", 68),
    (
        "customer-cloud-mcp/tests/same_write.rs",
        "an_outcome_never_delivered_is_answered_as_a_replay_after_a_restart",
        76,
    ),
    (
        "customer-cloud-mcp/tests/tools.rs",
        "credentials_come_from_the_clis_configuration_file",
        71,
    ),
    (
        "customer-cloud-mcp/tests/tools.rs",
        "dynamic_mode_offers_three_tools_that_reach_every_operation",
        81,
    ),
    (
        "customer-cloud-mcp/tests/tools.rs",
        "every_operation_is_callable_as_a_tool",
        204,
    ),
    ("customer-cloud-sdk/examples/errors.rs", "main", 73),
    ("customer-cloud-sdk/examples/quickstart.rs", "main", 80),
    ("sdk-tests/realservers/chroma/basics.rs", "main", 305),
    ("sdk-tests/realservers/chroma/nulls.rs", "main", 132),
    ("sdk-tests/realservers/prefect/basics.rs", "main", 206),
    (
        "sdk-tests/tests/architecture.rs",
        "crates_depend_only_on_what_their_boundaries_allow",
        81,
    ),
    (
        "sdk-tests/tests/architecture.rs",
        "the_writer_keeps_unchanged_and_hand_written_files_and_check_mode_touches_nothing",
        78,
    ),
    (
        "sdk-tests/tests/e2e/auth.rs",
        "scope_ip_and_credential_failures_are_typed_errors",
        69,
    ),
    (
        "sdk-tests/tests/e2e/coverage.rs",
        "every_documented_operation_has_a_round_trip",
        451,
    ),
    (
        "sdk-tests/tests/e2e/crash.rs",
        "a_journal_damaged_on_disk_is_reported_and_nothing_is_resent_for_it",
        77,
    ),
    ("sdk-tests/tests/e2e/crash.rs", "assert_exactly_once", 68),
    (
        "sdk-tests/tests/e2e/crash.rs",
        "writers_killed_at_random_points_lose_and_duplicate_nothing",
        82,
    ),
    (
        "sdk-tests/tests/e2e/crash/pg_writer.rs",
        "pg_writer_child",
        82,
    ),
    (
        "sdk-tests/tests/e2e/crash/postgres.rs",
        "a_fleet_on_postgres_killed_at_random_with_a_database_restart_loses_and_duplicates_nothing",
        101,
    ),
    ("sdk-tests/tests/e2e/crash/writer.rs", "writer_child", 90),
    (
        "sdk-tests/tests/e2e/exactly_once.rs",
        "every_write_is_applied_exactly_once_under_faults",
        105,
    ),
    (
        "sdk-tests/tests/e2e/failure_modes.rs",
        "an_expired_receipt_is_410_operation_expired_for_polls_and_lookups",
        69,
    ),
    (
        "sdk-tests/tests/e2e/flows.rs",
        "atomic_deploy_with_max_total_then_wait_then_find_the_service",
        141,
    ),
    (
        "sdk-tests/tests/e2e/flows.rs",
        "catalog_then_draft_order_then_partial_and_full_payment_then_service",
        134,
    ),
    (
        "sdk-tests/tests/e2e/flows.rs",
        "dns_zone_dry_run_then_create",
        79,
    ),
    (
        "sdk-tests/tests/e2e/flows.rs",
        "service_listing_filters_are_sent_as_comma_lists",
        63,
    ),
    (
        "sdk-tests/tests/e2e/flows.rs",
        "tcp_proxy_update_replaces_supplied_arrays_and_keeps_omitted_fields",
        116,
    ),
    (
        "sdk-tests/tests/e2e/rate_limit.rs",
        "a_429_storm_waits_for_retry_after_and_never_retries_in_parallel",
        130,
    ),
    (
        "sdk-tests/tests/e2e/settle.rs",
        "writes_settle_in_one_call_under_the_issue_fault_mix",
        90,
    ),
    ("sdk-tests/tests/e2e/writes.rs", "assert_ledger", 68),
    (
        "sdk-tests/tests/spec_driven.rs",
        "the_runtime_names_no_operation_path_code_or_field_of_the_api",
        63,
    ),
    (
        "sdk-tests/tests/webhooks.rs",
        "webhooks_and_callbacks_get_typed_payloads",
        64,
    ),
];

/// The folder of every workspace package, from `cargo metadata`.
fn package_dirs() -> Vec<PathBuf> {
    let manifest = |p: &Value| p["manifest_path"].as_str().map(PathBuf::from);
    let packages = workspace::packages();
    let manifests = packages.iter().filter_map(manifest);
    manifests
        .map(|m| m.parent().expect("folder").to_owned())
        .collect()
}

/// Whether the file's first line is a `@generated` header.
fn generated(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|l| l.starts_with("// @generated"))
}

/// The name of the function a line starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "fn" => {
                let rest = words.next()?;
                let end = rest.find(['(', '<']).unwrap_or(rest.len());
                return Some(&rest[..end]);
            }
            "const" | "async" | "unsafe" | "default" | "extern" | "\"C\"" => {}
            w if w == "pub" || w.starts_with("pub(") => {}
            _ => return None,
        }
    }
    None
}

/// Each function of `text` with its line count.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let closing = format!("{indent}}}");
        let opens = lines[start..].iter().position(|l| l.contains('{'));
        let declared = lines[start..]
            .iter()
            .position(|l| l.trim_end().ends_with(';'));
        if declared.is_some_and(|d| opens.is_none_or(|o| d < o)) {
            continue; // a declaration without a body
        }
        let body = lines[start..].iter().position(|l| l.trim_end() == closing);
        if let Some(len) = body.filter(|_| !line.trim_end().ends_with('}')) {
            found.push((name.to_owned(), len + 1));
        }
    }
    found
}

/// Every hand-written function over the limit: `(file, function) -> lines`.
fn longer_functions() -> BTreeMap<(String, String), usize> {
    let repo = workspace::repo();
    let rust = |name: &str| name.ends_with(".rs");
    let mut files: Vec<PathBuf> = package_dirs()
        .iter()
        .flat_map(|dir| workspace::files(dir, &rust))
        .collect();
    files.sort();
    files.dedup();
    assert!(files.len() > 100, "files found: {}", files.len());
    let mut longer = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        if generated(&text) {
            continue;
        }
        let shown = file
            .strip_prefix(&repo)
            .expect("in the repository")
            .display()
            .to_string();
        for (name, lines) in functions(&text) {
            if lines > LIMIT {
                let key = (shown.clone(), name);
                let longest = longer.entry(key).or_insert(lines);
                *longest = lines.max(*longest);
            }
        }
    }
    longer
}

#[test]
fn every_hand_written_function_fits_on_a_screen() {
    let longer = longer_functions();
    let mut problems = Vec::new();
    for ((file, name), lines) in &longer {
        match LONGER.iter().find(|(f, n, _)| f == file && n == name) {
            None => problems.push(format!("{file}: `{name}` has {lines} lines (at most {LIMIT})")),
            Some((_, _, allowed)) if lines > allowed => problems.push(format!(
                "{file}: `{name}` grew to {lines} lines (listed at {allowed}; at most {LIMIT})"
            )),
            Some((_, _, allowed)) if lines < allowed => problems.push(format!(
                "{file}: `{name}` is down to {lines} lines: lower its entry in LONGER from {allowed}"
            )),
            Some(_) => {}
        }
    }
    for (file, name, allowed) in LONGER {
        if !longer.contains_key(&((*file).to_owned(), (*name).to_owned())) {
            problems.push(format!(
                "{file}: `{name}` (listed at {allowed}) is within {LIMIT} lines or gone: \
                 remove its entry from LONGER"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_measures_functions_as_rustfmt_lays_them_out() {
    let text = "\
/// Doc.
pub(crate) async fn a<T>(x: T)
where
    T: Send,
{
    let _ = x;
}
impl S {
    fn b(&self) {}
    pub const fn c() -> u8 {
        1
    }
}
trait T {
    fn d(&self);
    fn e(&self) {
        todo!()
    }
}
let f = \"fn not_a_function() {\";
";
    let found: Vec<(String, usize)> = functions(text);
    let expected = [("a", 6), ("c", 3), ("e", 3)];
    let expected: Vec<(String, usize)> = expected
        .iter()
        .map(|(n, l)| ((*n).to_owned(), *l))
        .collect();
    assert_eq!(found, expected);
    assert!(generated("// @generated by oncegen\nfn x() {}"));
}
