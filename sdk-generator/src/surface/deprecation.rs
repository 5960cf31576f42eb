//! Deprecation guidance: the note `#[deprecated(note)]` carries and the change report lists.

/// The guidance a deprecated item carries: the first sentence of its documentation that names
/// the deprecation or a replacement (the words "deprecated", "instead", "replaced by", "use"),
/// else its first sentence; `None` when the item is not deprecated or has no documentation.
pub fn note(deprecated: bool, doc: Option<&str>) -> Option<String> {
    if !deprecated {
        return None;
    }
    let text = one_line(doc?);
    let sentences: Vec<&str> = text
        .split_inclusive(". ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let names_guidance = |s: &&&str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphabetic())
            .any(|w| {
                w.starts_with("deprecat")
                    || w.starts_with("replace")
                    || w == "instead"
                    || w == "use"
            })
    };
    let chosen = sentences
        .iter()
        .find(names_guidance)
        .or(sentences.first())?;
    Some((*chosen).to_owned())
}

/// Whether `doc` is nothing but the deprecation note taken from it (the docs then need not
/// repeat what `#[deprecated]` shows).
pub fn is_only_note(deprecated: bool, doc: &str) -> bool {
    note(deprecated, Some(doc)).is_some_and(|note| note == one_line(doc))
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
    }
}
