//! The change report as Markdown: printed by `cargo xtask gen` and, when the API changed, the
//! new entry of `CHANGELOG.md`.
//!
//! A report with changes opens with the version bump, the warnings and a table of counts per
//! area and class, then lists one line per change, by class and then by area.

use super::ChangeReport;
use super::diff::Class;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The report.
pub fn render(report: &ChangeReport) -> String {
    if report.no_baseline.is_none() && report.changes.is_empty() {
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
    out
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
