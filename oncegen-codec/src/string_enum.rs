//! `string_enum!`: the impls of a generated forward-compatible string enum.
//!
//! Generated code writes the enum itself (so its variants and docs read as plain Rust) and one
//! `string_enum!` line naming the catch-all variant and each variant's wire value; the macro
//! adds `as_str`, `Display`, `Serialize`, a `Deserialize` that keeps unknown values, and the
//! comparisons (`PartialEq`, `Eq`, `PartialOrd`, `Ord`, `Hash`) of the wire value: one
//! implementation each through `as_str`, cheaper to compile than four derives per enum.

/// Implements `as_str`, `Display`, `Serialize`, `Deserialize`, `PartialEq`, `Eq`, `PartialOrd`,
/// `Ord` and `Hash` for a string enum whose catch-all variant holds the wire value of anything
/// not listed. Values compare, order and hash as their wire strings.
///
/// ```
/// #[derive(Clone, Debug)]
/// pub enum Color {
///     Red,
///     DarkBlue,
///     Unknown(String),
/// }
/// oncegen_codec::string_enum!(Color, Unknown, Red = "red", DarkBlue = "dark-blue");
///
/// let c: Color = serde_json::from_str("\"dark-blue\"").unwrap();
/// assert_eq!(c, Color::DarkBlue);
/// assert_eq!(c.to_string(), "dark-blue");
/// let other: Color = serde_json::from_str("\"green\"").unwrap();
/// assert_eq!(other.as_str(), "green");
/// assert_eq!(serde_json::to_string(&other).unwrap(), "\"green\"");
/// assert!(Color::DarkBlue < Color::Red);
/// assert_eq!(Color::Unknown("red".into()), Color::Red);
/// ```
#[macro_export]
macro_rules! string_enum {
    ($name:ident, $fallback:ident, $($variant:ident = $value:literal),* $(,)?) => {
        impl $name {
            /// The wire value.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $value,)*
                    Self::$fallback(value) => value.as_str(),
                }
            }
        }

        impl ::std::cmp::PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.as_str() == other.as_str()
            }
        }

        impl ::std::cmp::Eq for $name {}

        impl ::std::cmp::PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> ::std::option::Option<::std::cmp::Ordering> {
                ::std::option::Option::Some(::std::cmp::Ord::cmp(self, other))
            }
        }

        impl ::std::cmp::Ord for $name {
            fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                self.as_str().cmp(other.as_str())
            }
        }

        impl ::std::hash::Hash for $name {
            fn hash<__H: ::std::hash::Hasher>(&self, state: &mut __H) {
                self.as_str().hash(state)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let value: ::std::string::String =
                    $crate::__private::serde::Deserialize::deserialize(deserializer)?;
                Ok(match value.as_str() {
                    $($value => Self::$variant,)*
                    _ => Self::$fallback(value),
                })
            }
        }
    };
}
