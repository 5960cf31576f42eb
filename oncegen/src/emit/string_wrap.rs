//! Long string literals continued over lines of at most [`WIDTH`] columns: a literal that is a
//! line's whole value (`description: "…",` in a table, `note = "…",` in an attribute, `"…",`
//! as an argument) is broken at its spaces and before its `\n` escapes, each line ending in
//! `\`, which the compiler reads as nothing (it also skips the next line's indentation), so the
//! value is unchanged. Lines inside raw strings are left as they are. Written here because
//! rustfmt leaves long strings alone and prettyplease prints a literal on one line.

/// The column a continued literal's lines stay within where its words allow.
const WIDTH: usize = 100;

/// `text` (a Rust file) with each line holding only a long string literal continued over
/// lines.
pub fn wrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 20);
    let mut raw_closer: Option<String> = None;
    for line in text.lines() {
        if let Some(closer) = &raw_closer {
            if line.contains(closer.as_str()) {
                raw_closer = None;
            }
            out.push_str(line);
        } else if let Some(continued) = continued(line) {
            out.push_str(&continued);
        } else {
            raw_closer = opened_raw(line);
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The delimiter closing a raw string `line` opens and does not close.
fn opened_raw(line: &str) -> Option<String> {
    let start = line.find(" r#").or_else(|| line.find("(r#"))? + 2;
    let hashes = line[start..].bytes().take_while(|&b| b == b'#').count();
    let body = line[start + hashes..].strip_prefix('"')?;
    let closer = format!("\"{}", "#".repeat(hashes));
    (!body.contains(&closer)).then_some(closer)
}

/// `line` as a continued literal, when it is longer than [`WIDTH`] and holds only
/// `[name: ]"…"[,]` or `name = "…"[,]`.
fn continued(line: &str) -> Option<String> {
    if line.chars().count() <= WIDTH {
        return None;
    }
    let opened = line.trim_start();
    let indent = &line[..line.len() - opened.len()];
    let quote = opened.find('"')?;
    let key = &opened[..quote];
    let is_key = key.is_empty()
        || [": ", " = "].iter().any(|end| {
            key.strip_suffix(end)
                .is_some_and(|k| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        });
    let literal = &opened[quote + 1..];
    let (body, tail) = literal
        .strip_suffix("\",")
        .map(|b| (b, "\","))
        .or_else(|| literal.strip_suffix('"').map(|b| (b, "\"")))?;
    if !is_key {
        return None;
    }
    let units = units(body)?;
    let first = indent.len() + key.len() + 1;
    let next = format!("{indent}    ");
    let pieces = pieces(&units, first, next.len());
    let mut out = format!("{indent}{key}\"");
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            out.push_str("\\\n");
            out.push_str(&next);
        }
        out.push_str(piece);
    }
    out.push_str(tail);
    Some(out)
}

/// The characters and escapes of a literal's `body`; `None` when it holds a `"` that ends it
/// early (it is not one literal).
fn units(body: &str) -> Option<Vec<&str>> {
    let mut units = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        let len = match c {
            '"' => return None,
            '\\' => match rest[1..].chars().next()? {
                'u' => rest.find('}')? + 1,
                'x' => 4,
                escaped => 1 + escaped.len_utf8(),
            },
            c => c.len_utf8(),
        };
        let (unit, after) = rest.split_at(len.min(rest.len()));
        units.push(unit);
        rest = after;
    }
    Some(units)
}

/// `units` in pieces that fit [`WIDTH`] (the first starting at column `first`, the others at
/// `next`), cut after a space followed by a word, or before a `\n` escape.
fn pieces(units: &[&str], first: usize, next: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let (mut piece, mut column) = (String::new(), first);
    let mut i = 0;
    while i < units.len() {
        // The next run that cannot be cut: a `\n` alone, else up to a `\n` or through a space
        // that a word follows.
        let mut end = i + 1;
        if units[i] != "\\n" {
            end = i;
            while end < units.len() && units[end] != "\\n" {
                let cut_after = units[end] == " " && units.get(end + 1).is_some_and(|u| *u != " ");
                end += 1;
                if cut_after {
                    break;
                }
            }
        }
        let run: String = units[i..end].concat();
        let cut_before = units[i] == "\\n" && !piece.is_empty();
        // `\` ends a continued line; `",` the last.
        if cut_before || (!piece.is_empty() && column + run.chars().count() + 2 > WIDTH) {
            pieces.push(std::mem::take(&mut piece));
            column = next;
        }
        column += run.chars().count();
        piece.push_str(&run);
        i = end;
    }
    pieces.push(piece);
    pieces
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, wrapped};

    /// The value of the literal on `text`'s line(s) as the compiler reads it.
    fn value(text: &str) -> String {
        let literal = &text[text.find('"').unwrap()..text.rfind('"').unwrap() + 1];
        let continued = literal.replace("\\\n", "\u{0}");
        let joined: String = continued
            .split('\u{0}')
            .enumerate()
            .map(|(i, part)| if i == 0 { part } else { part.trim_start() })
            .collect();
        syn::parse_str::<syn::LitStr>(&joined).unwrap().value()
    }

    #[test]
    fn a_long_literal_is_continued_and_reads_the_same() {
        let words = "word  word ".repeat(20);
        let line = format!("        help: \"{words}\\n    indented\\n\\\"q\\\" {words}\",");
        let out = wrapped(&format!("{line}\n"));
        assert!(out.lines().count() > 2, "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= WIDTH), "{out}");
        assert_eq!(value(&out), value(&line));
        let note = format!("            note = \"{words}\"");
        let out = wrapped(&format!("{note}\n"));
        assert!(out.lines().count() > 2, "{out}");
        assert_eq!(value(&out), value(&note));
    }

    #[test]
    fn raw_strings_and_other_lines_are_kept() {
        let long = "x ".repeat(80);
        let text =
            format!("const S: &str = r#\"{{\n  \"{long}\",\n}}\"#;\nlet x = f(\"{long}\", 1);\n");
        assert_eq!(wrapped(&text), text);
    }
}
