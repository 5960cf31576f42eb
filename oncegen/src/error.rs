//! The generator's error type: every failure on input data names where it happened.

use std::path::PathBuf;

/// Everything that can go wrong while reading, lowering or writing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The input is neither valid JSON nor valid YAML.
    #[error("{source_name}: cannot parse document: {message}")]
    Syntax {
        /// The file name or label of the input.
        source_name: String,
        /// The parser's message.
        message: String,
    },
    /// The document uses a construct the generator does not handle, or is malformed.
    #[error("at `{pointer}`: {message}")]
    Located {
        /// JSON pointer (`#/paths/~1v1~1zones/get`) of the offending construct.
        pointer: String,
        /// What is wrong and which construct it is.
        message: String,
    },
}

impl Error {
    /// Builds a [`Error::Located`] error.
    pub fn at(pointer: &str, message: impl Into<String>) -> Self {
        Error::Located {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

/// Shorthand for results carrying [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
