//! The change report: what a new revision of the contract changes for a Rust caller of the SDK,
//! and the crate version and changelog entry that follow from it.
//!
//! The report reads two [`Surface`]s, never the emitter: the one generated now and the one
//! the previous generation left next to the crate (`api.json`). `baseline.rs` reads the
//! previous one ([`Baseline`]); `diff/` classifies the changes ([`compare`]); `version.rs`
//! bumps the crate version; [`render`] writes the report; `changelog.rs` puts it on top of
//! `CHANGELOG.md` ([`updated_changelog`]).
//!
//! The rules (what is breaking, additive or docs only for the Rust API, what is wire-breaking
//! or degraded for released SDKs, and how they compare with oasdiff) are in
//! `docs/change-report.md`.

mod baseline;
pub(crate) mod changelog;
mod diff;
mod render;
pub(crate) mod version;

pub use baseline::Baseline;
pub use changelog::updated as updated_changelog;
pub use diff::{Change, Class, Deprecation, Wire, WireChange};
pub use render::render;
pub use version::Version;

use crate::surface::Surface;
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
    /// Changes of the command-line tool generated from the surface (its commands and flags),
    /// for scripts that call it; they do not set the crate version (the Rust API does).
    pub cli: Vec<Change>,
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
    pub fn wire_totals(&self) -> [usize; 3] {
        let mut totals = [0; 3];
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

/// Compares `surface`, the surface of the crate being generated, with `baseline`: the surface
/// with the crate version the changes imply (its own is replaced), and the report.
/// `manifest_version` is the version
/// the crate's Cargo.toml states, if any. The changes bump the baseline's version, or the
/// manifest's when it is ahead (a release bumped by hand; the report says so). Without a
/// baseline nothing is compared and the version stays the manifest's ([`Version::INITIAL`]
/// without one).
pub fn compare(
    baseline: &Baseline,
    manifest_version: Option<Version>,
    mut surface: Surface,
) -> (Surface, ChangeReport) {
    let mut warnings = Vec::new();
    let previous = previous_version(baseline, manifest_version, &mut warnings);
    surface.crate_version = previous.to_string();
    let diff::Diff {
        changes,
        mut wire,
        deprecations,
        cli,
    } = baseline_diff(baseline, &surface, &mut warnings);
    wire.sort_by_key(|c| std::cmp::Reverse(c.class));
    let crate_version = match changes.iter().map(|c| c.class).max() {
        Some(class) => previous.bumped(class),
        None => previous,
    };
    surface.crate_version = crate_version.to_string();
    let mut report = ChangeReport {
        contract_revision: surface.contract_revision.clone(),
        previous_version: previous,
        crate_version,
        no_baseline: baseline.absence_reason(),
        changes,
        wire,
        deprecations,
        cli,
        warnings,
        operations: surface.operations.len(),
        types: surface.types.len(),
    };
    if let Some(warning) = behaviour_warning(&report) {
        report.warnings.insert(0, warning);
    }
    if let Some(warning) = wire_warning(&report) {
        report.warnings.insert(0, warning);
    }
    if let Some(warning) = cli_warning(&report) {
        report.warnings.push(warning);
    }
    if let Some(warning) = deprecation_warning(&report) {
        report.warnings.push(warning);
    }
    (surface, report)
}

/// The version the changes bump: the baseline's, or the manifest's when they differ and it is
/// ahead (with a warning either way), or the manifest's without a baseline.
fn previous_version(
    baseline: &Baseline,
    manifest_version: Option<Version>,
    warnings: &mut Vec<String>,
) -> Version {
    let recorded = match baseline {
        Baseline::Found(old) => Version::parse(&old.crate_version),
        _ => None,
    };
    match (recorded, manifest_version) {
        (Some(recorded), Some(manifest)) if manifest != recorded => {
            let (kept, verb) = if manifest > recorded {
                (manifest, "is ahead of")
            } else {
                (recorded, "is behind")
            };
            warnings.push(format!(
                "Cargo.toml says version {manifest}, which {verb} the {recorded} `{}` recorded: \
                 versioning goes on from {kept}",
                crate::surface::FILE_NAME
            ));
            kept
        }
        (Some(recorded), _) => recorded,
        (None, manifest) => manifest.unwrap_or(Version::INITIAL),
    }
}

/// The changes from the baseline to `surface` (none without a baseline), with a warning when
/// the API changed under the same contract revision.
fn baseline_diff(baseline: &Baseline, surface: &Surface, warnings: &mut Vec<String>) -> diff::Diff {
    let Baseline::Found(old) = baseline else {
        return diff::Diff::default();
    };
    let diff = diff::diff(old, surface);
    let changed = !diff.changes.is_empty() || !diff.wire.is_empty();
    if changed && old.contract_revision == surface.contract_revision {
        warnings.push(format!(
            "the API changed but `info.version` is still `{}`: a new contract \
             revision needs its own version in the spec (a change of the generator alone \
             keeps it)",
            surface.contract_revision
        ));
    }
    diff
}

/// The warning that code using newly deprecated items fails `-D warnings` builds.
fn deprecation_warning(report: &ChangeReport) -> Option<String> {
    let n = report.deprecations.len();
    let them = if n == 1 { "it" } else { "them" };
    (n > 0).then(|| {
        format!(
            "this revision deprecates {n} {}: code that uses {them} (tests and examples \
             included) fails `-D warnings` builds until it moves off {them} or allows \
             `deprecated` (see Deprecations)",
            if n == 1 { "item" } else { "items" },
        )
    })
}

/// The warning that scripts calling the command-line tool break, with how many of its
/// changes do.
fn cli_warning(report: &ChangeReport) -> Option<String> {
    let breaking = report
        .cli
        .iter()
        .filter(|c| c.class == Class::Breaking)
        .count();
    (breaking > 0).then(|| {
        format!(
            "scripts calling the command-line tool break: {breaking} {} of its commands or \
             flags (see Command-line tool); the crate version follows the Rust API only",
            if breaking == 1 { "change" } else { "changes" }
        )
    })
}

/// The warning that released SDKs' calls now do something else, naming the operations.
fn behaviour_warning(report: &ChangeReport) -> Option<String> {
    let operations: std::collections::BTreeSet<&str> = report
        .wire
        .iter()
        .filter(|c| c.class == Wire::Behaviour)
        .flat_map(|c| c.operations.iter().map(String::as_str))
        .collect();
    if operations.is_empty() {
        return None;
    }
    let named: Vec<String> = operations.iter().map(|o| format!("`{o}`")).collect();
    Some(format!(
        "released SDK versions (up to {}) get another behaviour from a server of this \
         revision (see Behaviour changes): {}",
        report.previous_version,
        named.join(", ")
    ))
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
