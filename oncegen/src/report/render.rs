//! The change report as Markdown: printed by `cargo xtask gen` and, when the API changed, the
//! new entry of `CHANGELOG.md`.
//!
//! A report with changes opens with the version bump, the warnings and a table of counts per
//! area and class; then come what the revision does to released SDKs (wire-breaking first),
//! one line per change of the Rust API by class and then by area, the changes of the
//! command-line tool's commands and flags, and the new deprecations with their guidance.

use super::ChangeReport;
use super::diff::{Class, Wire};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The report.
pub fn render(report: &ChangeReport) -> String {
    if report.no_baseline.is_none()
        && report.changes.is_empty()
        && report.wire.is_empty()
        && report.cli.is_empty()
    {
        return format!(
            "No API change: contract revision `{}`, crate version {}.\n",
            report.contract_revision, report.crate_version
        );
    }
    let mut out = format!(
        "## {} — contract revision `{}`\n\n",
        report.crate_version, report.contract_revision
    );
    if let Some(reason) = &report.no_baseline {
        let _ = writeln!(
            out,
            "No baseline: {reason}, so changes cannot be listed. This generation records the \
             description of the API ({} operations, {} types) for the next one to compare \
             against. The crate version stays {}.",
            report.operations, report.types, report.crate_version
        );
        return out;
    }
    if let Some(class) = report.severity() {
        let _ = writeln!(
            out,
            "{} → {}: {} bump, the most severe change is {}.\n",
            report.previous_version,
            report.crate_version,
            report.previous_version.bump_name(class),
            class.title().to_lowercase()
        );
    }
    for warning in &report.warnings {
        let _ = writeln!(out, "> **Warning:** {warning}\n");
    }
    counts_table(report, &mut out);
    wire_section(report, &mut out);
    for class in Class::ALL {
        let mut by_area: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for change in report.changes.iter().filter(|c| c.class == class) {
            by_area.entry(&change.area).or_default().push(&change.text);
        }
        if by_area.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n### {}", class.title());
        for (area, lines) in by_area {
            let _ = writeln!(out, "\n#### `{area}`\n");
            for line in lines {
                let _ = writeln!(out, "- {line}");
            }
        }
    }
    cli_section(report, &mut out);
    deprecations(report, &mut out);
    out
}

/// The commands and flags of the command-line tool that changed, breaking first.
fn cli_section(report: &ChangeReport, out: &mut String) {
    if report.cli.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n### Command-line tool\n\nThe commands and flags of the tool generated from this \
         API (`<bin> <area> <operation>`): a renamed or removed one, or a new required flag, \
         breaks scripts that call it."
    );
    for class in Class::ALL {
        let lines: Vec<&str> = report
            .cli
            .iter()
            .filter(|c| c.class == class)
            .map(|c| c.text.as_str())
            .collect();
        if lines.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n#### {} for scripts\n", class.title());
        for line in lines {
            let _ = writeln!(out, "- {line}");
        }
    }
}

/// What SDK versions up to the previous one do against a server of this revision.
fn wire_section(report: &ChangeReport, out: &mut String) {
    let counts: Vec<String> = Wire::ALL
        .iter()
        .zip(report.wire_totals())
        .map(|(class, n)| format!("{n} {}", class.title().to_lowercase()))
        .collect();
    let _ = writeln!(
        out,
        "\n### Released SDKs against this server\n\nWhat SDK versions up to {} do when they call \
         a server of contract revision `{}`: {}.",
        report.previous_version,
        report.contract_revision,
        counts.join(", ")
    );
    for class in Wire::ALL {
        let lines: Vec<&str> = report
            .wire
            .iter()
            .filter(|c| c.class == class)
            .map(|c| c.text.as_str())
            .collect();
        if lines.is_empty() {
            continue;
        }
        let meaning = match class {
            Wire::Breaking => "calls may fail",
            Wire::Behaviour => "calls work and do something else",
            Wire::Degraded => "calls work, the SDK sees less",
        };
        let _ = writeln!(out, "\n#### {} ({meaning})\n", class.title());
        for line in lines {
            let _ = writeln!(out, "- {line}");
        }
    }
}

/// The newly deprecated items, their guidance, and what deprecation does to strict builds.
fn deprecations(report: &ChangeReport, out: &mut String) {
    if report.deprecations.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n### Deprecations\n\nDeprecated items are `#[deprecated]`: code using them gets a \
         warning, which fails builds run with `-D warnings` (`cargo clippy -- -D warnings`, \
         `RUSTFLAGS=-Dwarnings`). Move to what the note says, or allow it where it is used with \
         `#[allow(deprecated)]`.\n"
    );
    for d in &report.deprecations {
        let note = d.note.as_deref().unwrap_or("the spec gives no guidance");
        let _ = writeln!(out, "- {} (`{}`): {note}", d.item, d.area);
    }
}

fn counts_table(report: &ChangeReport, out: &mut String) {
    let header: Vec<&str> = Class::ALL.iter().map(|c| c.title()).collect();
    let _ = writeln!(out, "| Area | {} |", header.join(" | "));
    let _ = writeln!(out, "| --- |{}", " ---: |".repeat(Class::ALL.len()));
    for (area, counts) in report.counts_by_area() {
        let cells: Vec<String> = counts.iter().map(usize::to_string).collect();
        let _ = writeln!(out, "| `{area}` | {} |", cells.join(" | "));
    }
    let totals: Vec<String> = report.totals().iter().map(|n| format!("**{n}**")).collect();
    let _ = writeln!(out, "| **Total** | {} |", totals.join(" | "));
}
