//! Deprecation guidance: the note `#[deprecated(note)]` carries and the change report lists.

/// The guidance a deprecated item carries: the first sentence of its documentation that names
/// the deprecation, a replacement or a migration ("deprecated", "legacy", "obsolete",
/// "superseded", "sunset", "instead", "replaced by", "in favor of", "migrate"); `None` when the
/// item is not deprecated or its documentation gives no such guidance (a plain description
/// such as "A list of features" says nothing about the deprecation, so it is not a note).
pub fn note(deprecated: bool, doc: Option<&str>) -> Option<String> {
    if !deprecated {
        return None;
    }
    let text = one_line(doc?);
    let names_guidance = |s: &&str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphabetic())
            .any(|w| GUIDANCE_STEMS.iter().any(|stem| w.starts_with(stem)))
    };
    text.split_inclusive(". ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .find(names_guidance)
        .map(str::to_owned)
}

/// The starts of the words that make a sentence deprecation guidance.
const GUIDANCE_STEMS: &[&str] = &[
    "deprecat", "legacy", "obsolet", "supersed", "sunset", "instead", "replace", "favor", "favour",
    "migrat",
];

/// Whether `doc` is nothing but `note`, the deprecation note taken from it (the docs then need
/// not repeat what `#[deprecated]` shows).
pub fn is_only(note: Option<&str>, doc: &str) -> bool {
    note.is_some_and(|note| note == one_line(doc))
}

/// `text` with each run of whitespace (newlines included) one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::note;

    #[test]
    fn the_note_is_the_sentence_that_gives_guidance() {
        let doc = "Free text. Kept because old clients read it. Use `name` instead.";
        assert_eq!(
            note(true, Some(doc)).as_deref(),
            Some("Use `name` instead.")
        );
        assert_eq!(
            note(true, Some("Legacy flat copy of `error.code`.")).as_deref(),
            Some("Legacy flat copy of `error.code`.")
        );
        assert_eq!(note(false, Some(doc)), None);
        assert_eq!(note(true, None), None);
        // A plain description is no guidance.
        assert_eq!(note(true, Some("A list of features in a project")), None);
        assert_eq!(
            note(true, Some("Used to list things. Removed in favor of `v2`.")).as_deref(),
            Some("Removed in favor of `v2`.")
        );
    }
}
