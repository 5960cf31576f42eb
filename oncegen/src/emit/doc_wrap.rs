//! Doc comments wrapped at [`WIDTH`] columns, `///` and indentation included: done on the
//! formatted file, the one place the column a comment starts at is known, so every emitter's
//! comments (the SDK's, the tools', the crate docs') are wrapped by this one function.
//!
//! A line is broken only at a space outside a code span, or a link, never before a
//! word that would start a Markdown block (a list item, a heading, a quote, a fence); a list
//! item's continuation lines are indented under its text. Code blocks, headings and tables
//! are left as they are, and so is a line with no place to break. Written here because the
//! Markdown-aware wrappers (`textwrap` breaks inside code spans) do not keep these.

/// The column no doc comment line goes past (rustfmt's default width).
const WIDTH: usize = 100;

/// `text` (a Rust file) with each doc comment line longer than [`WIDTH`] broken into lines
/// that fit.
pub fn wrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 20);
    let mut in_fence = false;
    for line in text.lines() {
        let Some((prefix, content)) = doc_comment(line) else {
            in_fence = false;
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let opened = content.trim_start();
        if opened.starts_with("```") || opened.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if in_fence || width(line) <= WIDTH || opened.starts_with(['#', '|']) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for piece in broken(content, WIDTH.saturating_sub(width(prefix))) {
            out.push_str(prefix);
            out.push_str(&piece);
            out.push('\n');
        }
    }
    out
}

/// A doc comment line as its prefix (indentation, `///` or `//!`, a space) and its text.
fn doc_comment(line: &str) -> Option<(&str, &str)> {
    let opened = line.trim_start();
    let indent = line.len() - opened.len();
    if !(opened.starts_with("///") || opened.starts_with("//!")) || opened.starts_with("////") {
        return None;
    }
    let start = indent + 3 + usize::from(opened[3..].starts_with(' '));
    Some((&line[..start], &line[start..]))
}

/// Columns `text` takes.
fn width(text: &str) -> usize {
    text.chars().count()
}

/// `content` in lines of at most `budget` columns where it can be broken; continuation lines
/// indented under a list item's text.
fn broken(content: &str, budget: usize) -> Vec<String> {
    let hang = " ".repeat(hanging_indent(content));
    let mut lines = Vec::new();
    let mut line = content[..content.len() - content.trim_start().len()].to_owned();
    let mut empty = true;
    for word in words(content) {
        let fits = width(&line) + 1 + width(word) <= budget;
        if empty || fits || starts_block(word) {
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        } else {
            lines.push(std::mem::replace(&mut line, format!("{hang}{word}")));
        }
    }
    lines.push(line);
    lines
}

/// How far a list item's text is indented (`- `, `1. `, after the line's own indentation);
/// the indentation alone for any other line.
fn hanging_indent(content: &str) -> usize {
    let opened = content.trim_start();
    let indent = content.len() - opened.len();
    let marker = opened.split(' ').next().unwrap_or("");
    let bullet = matches!(marker, "-" | "*" | "+");
    let number = marker.len() > 1
        && marker.ends_with(['.', ')'])
        && marker[..marker.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_digit());
    if (bullet || number) && opened.len() > marker.len() {
        indent + marker.len() + 1
    } else {
        indent
    }
}

/// Whether a line starting with `word` would start a Markdown block instead of continuing
/// the paragraph.
fn starts_block(word: &str) -> bool {
    let ordered = word.len() > 1
        && word.ends_with(['.', ')'])
        && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit());
    matches!(word, "-" | "*" | "+")
        || ordered
        || word.starts_with(['#', '>', '|', '=', '`', '~']) && !is_code_span(word)
        || word.chars().all(|c| c == '-' || c == '_')
}

/// Whether `word` is (or starts with) a whole code span, which starts no block.
fn is_code_span(word: &str) -> bool {
    let ticks = word.len() - word.trim_start_matches('`').len();
    ticks > 0 && ticks < 3 && word[ticks..].contains(&word[..ticks])
}

/// The words of `content` (its indentation dropped): split at spaces outside code spans and
/// `[…](…)` links (an autolink holds no space).
fn words(content: &str) -> Vec<&str> {
    let text = content.trim_start();
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let (mut start, mut i) = (0, 0);
    let (mut ticks, mut brackets, mut destination) = (0usize, 0usize, false);
    while i < bytes.len() {
        let after = |b: u8| i > 0 && bytes[i - 1] == b;
        match bytes[i] {
            b'`' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                ticks = match ticks {
                    0 if text[i + run..].contains(&text[i..i + run]) => run,
                    open if open == run => 0,
                    open => open,
                };
                i += run;
                continue;
            }
            b'[' if ticks == 0 && !after(b'\\') => brackets += 1,
            b']' if ticks == 0 && !after(b'\\') => brackets = brackets.saturating_sub(1),
            b'(' if ticks == 0 && after(b']') => destination = true,
            b')' if destination => destination = false,
            b' ' if ticks == 0 && brackets == 0 && !destination => {
                if i > start {
                    words.push(&text[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        words.push(&text[start..]);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, wrapped};

    fn doc(text: &str) -> String {
        wrapped(&format!("    /// {text}\n"))
    }

    #[test]
    fn a_long_line_is_broken_at_spaces_within_the_width() {
        let text = "word ".repeat(40);
        let out = doc(text.trim_end());
        assert!(out.lines().count() > 1);
        assert!(
            out.lines()
                .all(|l| l.len() <= WIDTH && l.starts_with("    /// word"))
        );
        assert_eq!(
            out.replace("\n    /// ", " "),
            format!("    /// {}\n", text.trim_end())
        );
    }

    #[test]
    fn code_spans_and_links_stay_whole_and_no_block_starts() {
        let span = "`a b c d e f g h`";
        let text = format!(
            "{} {span} [the link](crate::x y) - 1. # > end",
            "x".repeat(70)
        );
        let out = doc(&text);
        assert!(
            out.contains(span) && out.contains("[the link](crate::x y)"),
            "{out}"
        );
        for line in out.lines().skip(1) {
            let word = line
                .trim_start_matches("    /// ")
                .split(' ')
                .next()
                .unwrap();
            assert!(!["-", "1.", "#", ">"].contains(&word), "{out}");
        }
    }

    #[test]
    fn a_list_item_continues_under_its_text_and_code_blocks_are_kept() {
        let item = format!("- {}", "item ".repeat(30));
        let out = doc(item.trim_end());
        assert!(
            out.lines().skip(1).all(|l| l.starts_with("    ///   item")),
            "{out}"
        );
        let code = format!("/// ```\n/// {}\n/// ```\n", "x ".repeat(60));
        assert_eq!(wrapped(&code), code);
    }
}
