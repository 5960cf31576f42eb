//! The change report: what a new revision of the contract changes for a Rust caller of the SDK,
//! and the crate version and changelog entry that follow from it.
//!
//! [`describe`] turns the model into an [`ApiDescription`] kept next to the crate (`api.json`),
//! [`access`] its security schemes and servers;
//! [`baseline`] reads the previous one; [`diff`] classifies the changes; [`version`] bumps the
//! crate version; [`render`] writes the report; [`changelog`] puts it on top of `CHANGELOG.md`;
//! [`lockfile`] keeps the version in `Cargo.lock` in step; [`regenerate`](mod@regenerate) is
//! the entry point `cargo xtask gen` uses.
//!
//! The report answers two questions: does code written against the previous crate still
//! compile and mean the same (the **Rust API**, which sets the version), and does the previous
//! crate still work against a server of this revision (the **wire**, for SDKs already in users'
//! hands). Both come from comparing two `api.json` files; the wire facts it records (method,
//! path, scopes, requiredness, constraints, enum values, union members, pagination fields,
//! security schemes and each operation's requirements, server URLs) come from the model.
//!
//! # Classification of the Rust API
//!
//! A change is **breaking** when code written against the previous crate may stop compiling or
//! may compile and do something else, **additive** when it only adds API, **docs only** when
//! the Rust API is unchanged (docs, wire details, server behaviour). The revision's class is
//! that of its most severe change.
//!
//! - Call sites: the positional arguments of every client method (required parameters, then a
//!   required body) and of every request type's `new` (required fields without a fixed value)
//!   are recorded in call order. A change of the order of the arguments both revisions keep is
//!   breaking; when every position keeps its type the report says that existing calls still
//!   compile and send the values crossed.
//!   Swaps are reported, not yet impossible: the emitter takes the arguments in the model's
//!   order, which is the order of the properties in the document, so reordering two properties
//!   swaps them. The chosen remedy (issue #22, for the emitter) keeps positional arguments and
//!   their compile-time check and takes them in an order the document's layout cannot move:
//!   `new`'s by Rust name, a method's path parameters in template order (which only a new
//!   path changes, itself wire-breaking), then the other required parameters by Rust name, then
//!   `body`. A rename can still move an argument; this report names that as a reorder.
//! - Probable renames: a removed and an added item of the same shape in the same place, matched
//!   one to one, are one line: a field of the same struct with the same Rust type, fixed value
//!   and constraints (breaking: the field's name changes); a parameter of the same operation
//!   with the same location, requiredness, type and constraints (a required one is a positional
//!   argument, so docs only unless its position moves; an optional one renames its setter:
//!   breaking); the one removed and the one added value of an enum (breaking); an operation
//!   with the same method and path, parameter names aside (below).
//! - Operations: removed, renamed to another client method (a removed and an added operation
//!   with the same method and path are one rename), moved to another area, or a changed success
//!   type: breaking. Added: additive. A rename that keeps the method name, a new method or path:
//!   docs only.
//! - Parameters and request bodies: required ones are client-method arguments, optional ones
//!   builder setters. Adding a required one, removing any, optional ↔ required and type changes:
//!   breaking. Adding an optional one: additive. Location, wire name, media type, constraints,
//!   deprecation: docs only.
//! - Struct fields (structs are `#[non_exhaustive]`): removed, or a changed Rust type (`T`,
//!   `Option<T>`, `Nullable<T>`, so in a response type optional ↔ required is breaking when it
//!   adds or drops the `Option`): breaking. In a request type a field that becomes, or stops
//!   being, an argument of `new` (required and without a fixed value): breaking; so is adding
//!   one. Other added fields: additive. Optional ↔ required or nullability that leaves the Rust
//!   type alone, constraints, deprecation, docs: docs only. Types are written as emitted
//!   (`Option<i64>` → `Option<String>`), paths left out.
//! - Enums and tagged unions have an `Unknown` fallback and are forward compatible: an added
//!   value or variant is additive, a removed one breaking. An added variant of an untagged union
//!   or of an `x-at-most-one-of` choice enum (exhaustive): breaking.
//! - Error codes (crate-wide): added additive, removed breaking. Error responses of an
//!   operation (statuses and their codes): docs only.
//! - A builder's other sending methods (`send_text`, `send_bytes`, `send_json`, `download`):
//!   added additive; removed or resolving to another type breaking. Its `error_body`: added
//!   additive; removed or returning another type (one error type ↔ the `{Builder}Error` enum)
//!   breaking; a variant of that exhaustive enum added, removed or retyped: breaking.
//! - Positional arguments (client methods and `new`) are in an order no reorder of the spec
//!   changes (`crate::emit::call_order`); a reorder the generator makes is breaking.
//! - Pagination added: additive (`into_stream`); removed: breaking; another model or other
//!   fields: docs only. Idempotency-Key: from `none` additive (`idempotency_key` setter), to
//!   `none` breaking, otherwise docs only. Operation envelope: gained additive, lost breaking
//!   (`operation_format`). Deprecation and scopes: docs only.
//! - Types: added additive; removed, moved to another module, or another kind: breaking. A type
//!   that becomes a request type gains `new` and setters (additive); the reverse is breaking.
//! - Security schemes (area `security_schemes`, one `static` each): added additive; removed
//!   breaking; a removed and an added scheme sent the same way are one probable rename
//!   (breaking: the `static` is renamed). Another kind (bearer, basic, API key): breaking, since
//!   a credential of the old kind set for it is then a configuration error. An API key sent in
//!   another place or under another header, query or cookie name, another document key, the
//!   description: docs only (the credential set for the scheme follows it; code is unchanged).
//! - An operation's security requirements (each the schemes sent together; the runtime sends
//!   the first whose credentials are all set). An old requirement is still met when a new one
//!   needs no scheme it lacks. One that is not (a scheme added to it, a requirement dropped):
//!   breaking, because code that set only those credentials must set others. Otherwise a new
//!   requirement, or none needed any more: additive (a new way to call it). Another order, a
//!   requirement dropped that another still covers, security newly stated or no longer
//!   stated: docs only.
//! - Servers (area `servers`: a constant per server, a function per server with variables,
//!   `DEFAULT` for the first). A caller passes `Config::new` a base URL: a string of their own,
//!   which no revision changes, or one of these constants. A server added: additive; removed,
//!   or the same URL under another constant (a server inserted before one named after its
//!   place renumbers it): breaking. A constant whose value changes (another URL, or a
//!   variable's default) and `DEFAULT` naming a server with another URL: breaking, deliberately:
//!   code passing it still compiles and sends every call elsewhere (another region, a sandbox),
//!   which the maintainer must announce. A function's arguments (the variables, in document
//!   order) added, removed or reordered: breaking; a function added: additive. A variable's
//!   listed values, a template that keeps the value, descriptions: docs only.
//! - A new contract revision (`info.version`) changes `CONTRACT_REVISION`: docs only.
//!
//! # Released SDKs against the new server
//!
//! Each change is also judged for the previous crate calling a server of the new revision:
//! **wire-breaking** when its calls may fail (the route is gone, the request is rejected, the
//! response no longer decodes), **degraded** when they work but the SDK sees less. A type's
//! changes count for the operations of the previous crate that send it (reachable from a
//! parameter or the body) or receive it (reachable from the success type). Any wire-breaking
//! change puts a warning naming those operations at the top of the report.
//!
//! - Wire-breaking: an operation removed, or moved to another method or path (parameter names
//!   in the template do not count); a success type the old one no longer decodes (a renamed
//!   type of the same shape does); pagination removed or changed (model or fields); a new scope
//!   (credentials without it get 403); Idempotency-Key from `none` to `required`; a required
//!   parameter, header or body added, or an optional one made required; a parameter's type,
//!   location or wire name changed; a body's media type changed, or its type to one the server
//!   no longer reads the old one as; a request field added as required or made required,
//!   renamed on the wire, of another type, or no longer nullable; narrowed request constraints
//!   (a bound added or tightened, a pattern, `multipleOf` or `format` added or changed,
//!   `uniqueItems`); a request enum value removed; a response field the old crate decodes as
//!   required (`T`) removed, renamed, retyped, or now optional or nullable; a member added to
//!   an untagged response union (no catch-all: it may fail to decode or be taken for another
//!   member); an alias retargeted or a type of another kind. Security: a scheme sent another
//!   way (another kind, or an API key in another place or under another name; header names
//!   compared without case), for the operations whose requirements name it; an old requirement
//!   of an operation that no new one is met by (both get 401). Servers: a URL a released
//!   constant holds that no server of the revision lists any more (removed, moved, or a
//!   variable's default that left its listed values), and a value dropped from a variable's
//!   listed values; every operation is named, since every call of a client configured with it
//!   goes there, and a base URL configured as a string is unaffected.
//! - Degraded: a value added to a response enum or a member to a tagged response union (the
//!   old crate decodes it as `Unknown`); a new error code (read as `ErrorCode::Unknown`); a
//!   parameter, request field or body removed (the old crate still sends it when set); an
//!   optional response field removed (read as absent); the operation envelope withdrawn.
//! - Deprecations: an item newly marked deprecated is listed with the guidance its description
//!   gives ([`crate::emit::docs::deprecation_note`]), with the reminder that `#[deprecated]` items fail
//!   `-D warnings` builds.
//!
//! # Compared with oasdiff
//!
//! oasdiff's breaking-change checks (its `BREAKING-CHANGES-EXAMPLES.md` and release notes up to
//! 1.31) answer the wire question for any client. They agree with the rules above on removed
//! or moved paths and operations, new required parameters, headers, bodies and request
//! properties, optional → required, new scopes (from 1.30), narrowed request constraints,
//! removed request enum values, response properties that become optional or nullable,
//! response type changes and removed media types; and both read `{zone}` → `{zone_name}` as
//! the same path. Where they differ:
//!
//! - A value added to a response enum or a branch to a response `oneOf` fails oasdiff from
//!   1.30 (before, only with `x-extensible-enum`); here it is degraded, because the generated
//!   enums and tagged unions decode it as `Unknown`, and wire-breaking only for untagged unions.
//! - oasdiff lets widening type changes pass (integer → number in a request, number → integer
//!   in a response); here any change of the Rust type is wire-breaking, since the old crate's
//!   type is what it sends and decodes.
//! - oasdiff allows removing a deprecated operation after its sunset date; the contract has no
//!   sunset dates, so a removal is always wire-breaking here.
//! - Removing an optional response property or any request property: a warning in oasdiff,
//!   degraded here. A changed default of an optional request parameter: an error in oasdiff
//!   before 1.30, docs only here (as in 1.30).
//! - A scope added to one of several alternative security requirements: oasdiff judges each
//!   requirement; the model keeps one list of scopes per operation, so it is reported as
//!   required (an over-report).
//! - Response constraints (an error in oasdiff 1.31 when one is removed) are not judged: the
//!   SDK does not validate responses.
//! - Argument order and probable renames are this report's own: oasdiff compares documents,
//!   not the call sites of a generated SDK.

pub mod access;
pub mod baseline;
pub mod changelog;
pub mod describe;
pub mod diff;
pub mod lockfile;
pub mod regenerate;
pub mod render;
pub mod version;

pub use baseline::Baseline;
pub use describe::ApiDescription;
pub use diff::{Change, Class, Deprecation, Wire, WireChange};
pub use regenerate::{Regeneration, Shape, regenerate, regenerate_as};
pub use version::Version;

use crate::ir::Api;
use std::collections::BTreeMap;

/// The outcome of comparing a new model with the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeReport {
    /// `info.version` of the new spec.
    pub contract_revision: String,
    /// Crate version before this generation.
    pub previous_version: Version,
    /// Crate version after it.
    pub crate_version: Version,
    /// Why there was no baseline to compare against, if there was none.
    pub no_baseline: Option<String>,
    /// Every change of the Rust API, classified (empty without a baseline).
    pub changes: Vec<Change>,
    /// What the revision does to released SDK versions calling a server of it, most severe
    /// first (empty without a baseline).
    pub wire: Vec<WireChange>,
    /// Items the revision deprecates, with the spec's guidance.
    pub deprecations: Vec<Deprecation>,
    /// Problems the maintainer should look at.
    pub warnings: Vec<String>,
    /// Number of operations of the new API.
    pub operations: usize,
    /// Number of named types of the new API.
    pub types: usize,
}

impl ChangeReport {
    /// The most severe class among the changes (`None`: no change).
    pub fn severity(&self) -> Option<Class> {
        self.changes.iter().map(|c| c.class).max()
    }

    /// Number of changes per area, indexed like [`Class::ALL`].
    pub fn counts_by_area(&self) -> BTreeMap<&str, [usize; 3]> {
        let mut counts: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
        for change in &self.changes {
            counts.entry(&change.area).or_default()[class_index(change.class)] += 1;
        }
        counts
    }

    /// Number of changes per class, indexed like [`Class::ALL`].
    pub fn totals(&self) -> [usize; 3] {
        let mut totals = [0; 3];
        for change in &self.changes {
            totals[class_index(change.class)] += 1;
        }
        totals
    }

    /// Number of wire changes per class, indexed like [`Wire::ALL`].
    pub fn wire_totals(&self) -> [usize; 2] {
        let mut totals = [0; 2];
        for change in &self.wire {
            let index = Wire::ALL
                .iter()
                .position(|c| *c == change.class)
                .expect("every wire class is listed");
            totals[index] += 1;
        }
        totals
    }

    /// The client methods of released SDKs that a wire-breaking change affects, sorted.
    pub fn wire_broken_operations(&self) -> Vec<&str> {
        let operations: std::collections::BTreeSet<&str> = self
            .wire
            .iter()
            .filter(|c| c.class == Wire::Breaking)
            .flat_map(|c| c.operations.iter().map(String::as_str))
            .collect();
        operations.into_iter().collect()
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL
        .iter()
        .position(|c| *c == class)
        .expect("every class is listed")
}

/// Compares `api` (to be generated as `crate_name`) with `baseline`: the new description,
/// with the crate version the changes imply, and the report. `manifest_version` is the version
/// the crate's Cargo.toml states, if any. The changes bump the baseline's version, or the
/// manifest's when it is ahead (a release bumped by hand; the report says so). Without a
/// baseline nothing is compared and the version stays the manifest's ([`Version::INITIAL`]
/// without one).
pub fn compare(
    baseline: &Baseline,
    manifest_version: Option<Version>,
    api: &Api,
    crate_name: &str,
) -> (ApiDescription, ChangeReport) {
    let mut warnings = Vec::new();
    let recorded = match baseline {
        Baseline::Found(old) => Version::parse(&old.crate_version),
        _ => None,
    };
    let previous = match (recorded, manifest_version) {
        (Some(recorded), Some(manifest)) if manifest != recorded => {
            let (kept, verb) = if manifest > recorded {
                (manifest, "is ahead of")
            } else {
                (recorded, "is behind")
            };
            warnings.push(format!(
                "Cargo.toml says version {manifest}, which {verb} the {recorded} `{}` recorded: \
                 versioning goes on from {kept}",
                describe::FILE_NAME
            ));
            kept
        }
        (Some(recorded), _) => recorded,
        (None, manifest) => manifest.unwrap_or(Version::INITIAL),
    };
    let mut description = ApiDescription::of(api, crate_name, &previous.to_string());
    let diff = match baseline {
        Baseline::Found(old) => {
            let diff = diff::diff(old, &description);
            let changed = !diff.changes.is_empty() || !diff.wire.is_empty();
            if changed && old.contract_revision == description.contract_revision {
                warnings.push(format!(
                    "the API changed but `info.version` is still `{}`: a new contract \
                     revision needs its own version in the spec (a change of the generator alone \
                     keeps it)",
                    description.contract_revision
                ));
            }
            diff
        }
        _ => diff::Diff::default(),
    };
    let diff::Diff {
        changes,
        mut wire,
        deprecations,
    } = diff;
    wire.sort_by_key(|c| std::cmp::Reverse(c.class));
    let crate_version = match changes.iter().map(|c| c.class).max() {
        Some(class) => previous.bumped(class),
        None => previous,
    };
    description.crate_version = crate_version.to_string();
    let mut report = ChangeReport {
        contract_revision: api.version.clone(),
        previous_version: previous,
        crate_version,
        no_baseline: baseline.absence_reason(),
        changes,
        wire,
        deprecations,
        warnings,
        operations: description.operations.len(),
        types: description.types.len(),
    };
    if let Some(warning) = wire_warning(&report) {
        report.warnings.insert(0, warning);
    }
    if !report.deprecations.is_empty() {
        let n = report.deprecations.len();
        report.warnings.push(format!(
            "this revision deprecates {n} {}: code that uses {} (tests and examples \
             included) fails `-D warnings` builds until it moves off {} or allows `deprecated` \
             (see Deprecations)",
            if n == 1 { "item" } else { "items" },
            if n == 1 { "it" } else { "them" },
            if n == 1 { "it" } else { "them" },
        ));
    }
    (description, report)
}

/// The warning of a revision with wire-breaking changes: which released operations may fail.
fn wire_warning(report: &ChangeReport) -> Option<String> {
    const NAMED: usize = 12;
    let operations = report.wire_broken_operations();
    if operations.is_empty() {
        return None;
    }
    let mut named: Vec<String> = operations
        .iter()
        .take(NAMED)
        .map(|o| format!("`{o}`"))
        .collect();
    if operations.len() > NAMED {
        named.push(format!("{} more", operations.len() - NAMED));
    }
    Some(format!(
        "released SDK versions (up to {}) will fail against a server of this revision: {} \
         wire-breaking {} in {} {}: {}",
        report.previous_version,
        report.wire_totals()[0],
        if report.wire_totals()[0] == 1 {
            "change"
        } else {
            "changes"
        },
        operations.len(),
        if operations.len() == 1 {
            "operation"
        } else {
            "operations"
        },
        named.join(", ")
    ))
}
