//! Input bytes to text: UTF-8 only, and an invalid byte is reported with its line and column.

use crate::error::{Error, Result};

/// The UTF-8 text of `bytes`, or an error naming the line, column and byte offset of the first
/// invalid sequence.
pub(super) fn decode<'a>(bytes: &'a [u8], source_name: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        let before = bytes.get(..offset).unwrap_or_default();
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        // Columns count characters; the prefix is valid UTF-8 by construction.
        let column = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
            .chars()
            .count()
            + 1;
        let byte = bytes.get(offset).copied().unwrap_or_default();
        Error::Syntax {
            source_name: source_name.to_owned(),
            message: format!(
                "invalid UTF-8 (byte 0x{byte:02x}) at line {line} column {column} (byte offset {offset}); documents must be UTF-8"
            ),
        }
    })
}
