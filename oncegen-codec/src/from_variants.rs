//! `From` conversions into an enum's variants, declared in one line per enum.

/// `impl From<Member> for Enum` for each `Variant(Member)`: the value becomes that variant.
/// `Variant(Box<Member>)` converts from `Member` and boxes it.
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct Cat;
/// #[derive(Debug, PartialEq)]
/// enum Pet {
///     Cat(Cat),
///     Names(Box<Vec<String>>),
/// }
/// oncegen_codec::from_variants!(Pet { Cat(Cat), Names(Box<Vec<String>>) });
///
/// assert_eq!(Pet::from(Cat), Pet::Cat(Cat));
/// assert_eq!(Pet::from(vec![]), Pet::Names(Box::default()));
/// ```
#[macro_export]
macro_rules! from_variants {
    ($name:ident { $($variant:ident($($member:tt)+)),+ $(,)? }) => {
        $( $crate::from_variants!(@one $name $variant $($member)+); )+
    };
    (@one $name:ident $variant:ident Box<$member:ty>) => {
        impl ::std::convert::From<$member> for $name {
            fn from(value: $member) -> Self {
                Self::$variant(::std::boxed::Box::new(value))
            }
        }
    };
    (@one $name:ident $variant:ident $member:ty) => {
        impl ::std::convert::From<$member> for $name {
            fn from(value: $member) -> Self {
                Self::$variant(value)
            }
        }
    };
}
