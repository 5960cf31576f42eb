//! `CHANGELOG.md` next to the generated crate: the rendered change reports, newest first.

use super::ChangeReport;
use super::render::render;

/// File name of the changelog, in the generated crate's directory.
pub const FILE_NAME: &str = "CHANGELOG.md";

/// The changelog with this generation's entry on top, or `None` when it gets no entry: an
/// entry is added when the API changed, and when there is no baseline to a changelog that does
/// not exist yet (its first entry); never when nothing changed.
pub fn updated(existing: Option<&str>, report: &ChangeReport, crate_name: &str) -> Option<String> {
    let changed = !report.changes.is_empty() || !report.wire.is_empty() || !report.cli.is_empty();
    let add = changed || (report.no_baseline.is_some() && existing.is_none());
    add.then(|| with_entry(existing, &render(report), crate_name))
}

/// `existing` (or a new changelog of `crate_name`) with `entry` inserted before the first
/// released entry: a hand-written `## Unreleased` section (notes of changes not yet in a
/// generated entry) stays on top.
fn with_entry(existing: Option<&str>, entry: &str, crate_name: &str) -> String {
    let existing = existing.map_or_else(|| header(crate_name), str::to_owned);
    let first_entry = existing
        .match_indices("## ")
        .map(|(at, _)| at)
        .filter(|at| *at == 0 || existing[..*at].ends_with('\n'))
        .find(|at| !existing[*at..].starts_with(UNRELEASED));
    match first_entry {
        Some(at) => format!("{}{entry}\n{}", &existing[..at], &existing[at..]),
        None => format!("{}\n\n{entry}", existing.trim_end()),
    }
}

/// The heading of the hand-written section that stays above every generated entry.
const UNRELEASED: &str = "## Unreleased";

fn header(crate_name: &str) -> String {
    format!(
        "# Changelog of `{crate_name}`\n\nOne entry per generation that changed the API, newest \
         first, written by `oncegen` from its change report (see \"When the contract \
         changes\" in the generator's README)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_go_before_the_previous_ones() {
        let first = with_entry(None, "## 0.1.0 — one\n\nfirst\n", "demo");
        assert!(first.starts_with("# Changelog of `demo`\n\n"));
        assert!(
            first.ends_with("changes\" in the generator's README).\n\n## 0.1.0 — one\n\nfirst\n")
        );
        let second = with_entry(Some(&first), "## 0.2.0 — two\n\nsecond\n", "demo");
        let new_at = second.find("## 0.2.0").expect("new entry");
        let old_at = second.find("## 0.1.0").expect("old entry");
        assert!(new_at < old_at);
        assert!(second.contains("second\n\n## 0.1.0"));
    }

    #[test]
    fn a_hand_written_unreleased_section_stays_on_top() {
        let first = with_entry(None, "## 0.1.0 — one\n\nfirst\n", "demo");
        let at = first.find("## 0.1.0").expect("entry");
        let with_notes = format!(
            "{}## Unreleased — by hand\n\n- a note\n\n{}",
            &first[..at],
            &first[at..]
        );
        let second = with_entry(Some(&with_notes), "## 0.2.0 — two\n\nsecond\n", "demo");
        let unreleased = second.find("## Unreleased").expect("notes kept");
        let new_at = second.find("## 0.2.0").expect("new entry");
        let old_at = second.find("## 0.1.0").expect("old entry");
        assert!(unreleased < new_at && new_at < old_at, "{second}");
        assert!(second.contains("- a note\n\n## 0.2.0 — two\n\nsecond\n\n## 0.1.0"));
    }
}
