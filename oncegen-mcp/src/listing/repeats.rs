//! A passage several tools' descriptions share is listed once: where a description repeats a
//! run of sentences that a tool listed before it says, it points to that tool's text instead.
//!
//! Done on the tools one listing offers (so the text pointed to is always in it), not in the
//! generated table: a tool described alone (the dynamic mode's `describe`) keeps its text. The
//! last line of a description with several (a generated tool's request, effects and scopes) is
//! kept whole, and a passage stays within a line.

/// The shortest passage, in bytes, worth a pointer (which takes about 80).
const MIN_PASSAGE: usize = 160;

/// How many words of a passage's start and end the pointer quotes.
const QUOTED_WORDS: usize = 3;

/// `descriptions` (tool name, description) in listing order, each passage of one that an
/// earlier one says replaced by a pointer to it.
pub(super) fn said_once(descriptions: &[(&str, &str)]) -> Vec<String> {
    let mut listed: Vec<(&str, Vec<String>)> = Vec::new();
    for (name, description) in descriptions {
        let (prose, last) = match description.rfind('\n') {
            Some(at) => description.split_at(at + 1),
            None => (*description, ""),
        };
        let own = sentences(prose);
        let mut kept: Vec<String> = Vec::new();
        let mut at = 0;
        while at < own.len() {
            match longest_earlier(&own[at..], &listed) {
                Some((tool, len)) => {
                    kept.push(pointer(tool, &own[at..at + len]));
                    at += len;
                }
                None => {
                    kept.push(own[at].to_owned());
                    at += 1;
                }
            }
        }
        kept.push(last.to_owned());
        listed.push((name, kept));
    }
    listed.into_iter().map(|(_, kept)| kept.concat()).collect()
}

/// The tool listed earlier saying the longest run of sentences `own` starts with, and the
/// run's length in sentences, when the run is long enough to point to.
fn longest_earlier<'l>(
    own: &[&str],
    listed: &[(&'l str, Vec<String>)],
) -> Option<(&'l str, usize)> {
    let mut best: Option<(&str, usize, usize)> = None;
    for (tool, said) in listed {
        for start in 0..said.len() {
            let len = run(own, &said[start..]);
            let bytes: usize = own[..len].iter().map(|s| s.len()).sum();
            if bytes >= MIN_PASSAGE && best.is_none_or(|(_, _, most)| bytes > most) {
                best = Some((tool, len, bytes));
            }
        }
    }
    best.map(|(tool, len, _)| (tool, len))
}

/// How many sentences `own` and `said` start with alike, up to the end of a line: a passage
/// stays within a paragraph (the line of a tool's effects is never pointed to).
fn run(own: &[&str], said: &[String]) -> usize {
    let mut len = 0;
    for (a, b) in own.iter().zip(said) {
        if a.trim() != b.trim() {
            break;
        }
        len += 1;
        if a.ends_with('\n') {
            break;
        }
    }
    len
}

/// What stands for `passage`, which `tool`'s description says.
fn pointer(tool: &str, passage: &[&str]) -> String {
    let text = passage.concat();
    let words: Vec<&str> = text.split_whitespace().collect();
    let first = words[..QUOTED_WORDS.min(words.len())].join(" ");
    let last = words[words.len().saturating_sub(QUOTED_WORDS)..].join(" ");
    let after = &text[text.trim_end().len()..];
    format!("As `{tool}` says from \"{first}\" to \"{last}\"{after}")
}

/// `text` cut after each `.`, `!` or `?` that a space follows, the space kept, so that the
/// sentences joined are `text` again.
fn sentences(text: &str) -> Vec<&str> {
    let mut cut = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if let (true, Some(&(next, space))) = (matches!(c, '.' | '!' | '?'), chars.peek())
            && space.is_whitespace()
        {
            let end = next + space.len_utf8();
            cut.push(&text[start..end]);
            start = end;
            chars.next();
        }
    }
    if start < text.len() {
        cut.push(&text[start..]);
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::{said_once, sentences};

    const RULES: &str = "Rules: a type filter applies before pagination and never takes a \
        product code. An unsupported region returns 400. Prices exclude add-ons and tax; \
        availability is not a reservation.";

    #[test]
    fn sentences_join_back_into_the_text() {
        let text = "One. Two!\nThree? e.g.x Four";
        assert_eq!(
            sentences(text),
            ["One. ", "Two!\n", "Three? ", "e.g.x Four"]
        );
    }

    #[test]
    fn a_passage_an_earlier_tool_says_is_pointed_to() {
        let first = format!("Lists products. {RULES}\nGET /v1/products.");
        let second = format!("Same in a region. {RULES}\nGET /v1/products/{{region}}.");
        let third = "Lists products. Short.";
        let said = said_once(&[
            ("get_products", &first),
            ("by_region", &second),
            ("x", third),
        ]);
        assert_eq!(said[0], first, "the first keeps its text");
        assert_eq!(
            said[1],
            "Same in a region. As `get_products` says from \"Rules: a type\" to \"not a \
             reservation.\"\nGET /v1/products/{region}."
        );
        assert_eq!(said[2], third, "a short repeat is kept");
    }
}
