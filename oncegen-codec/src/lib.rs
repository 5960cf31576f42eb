//! The JSON encoding of generated API types, with no HTTP.
//!
//! A generated SDK's types name these items (through `oncegen-runtime`, which re-exports each at
//! the same path; `docs/runtime-surface.md`), so a crate of generated types compiles against
//! this crate alone:
//!
//! * `json_object!`, `string_enum!`, `tagged_union!`, `untagged_union!`: the serde impls of
//!   generated structs, string enums, tagged and untagged unions, written to be cheap to compile
//!   (one runtime call per field or variant);
//! * `from_variants!`: a union's `From` conversions in one line;
//! * `exclusive_group!`: an `x-at-most-one-of` group of a struct's members, as one enum;
//! * [`refusing_unknown`]: decoding input a user wrote, where a member no type names is an
//!   error rather than skipped;
//! * [`tagged`], [`untagged`]: how a union decodes into the member its tag names, or the member
//!   the value fits;
//! * [`Nullable`]: a field where absent differs from `null`;
//! * [`Secret`]: a string redacted in `Debug` and `Display`, zeroized on drop.
//!
//! The macros decode and encode as serde's derive does with the same attributes, except where
//! `tests/differential.rs` documents why.
#![deny(missing_docs)]

mod from_variants;
mod group;
mod json_object;
pub mod located;
pub mod nullable;
pub mod secret;
mod string_enum;
pub mod tagged;
mod unknown;
pub mod untagged;

pub use nullable::Nullable;
pub use secret::Secret;
pub use unknown::{closest, dropped_members, refusing_unknown};

/// Re-exports for the macros (not a public API).
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;

    /// What `json_object!` expands to calls.
    pub mod json_object {
        pub use crate::group::{Group, GroupField, GroupSlot};
        pub use crate::json_object::{
            Field, Ignored, Key, Object, Optional, Rest, Slot, Tag, Writer, deserialize, read,
        };
    }
}
