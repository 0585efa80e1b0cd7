//! How a struct of messages that take no value is declared: its fields are
//! read from the language's file by their own names.

/// Declares the messages that take no value: one field each, read from the
/// language's file by the field's own name.
macro_rules! words {
    ($(#[$doc:meta])* $name:ident, $prefix:literal { $($field:ident),* $(,)? }) => {
        $(#[$doc])*
        pub struct $name {
            $(pub $field: &'static str,)*
        }

        impl $name {
            /// Every key this struct reads, for the test that compares them
            /// with the language files.
            pub const KEYS: &'static [&'static str] = &[$(concat!($prefix, stringify!($field))),*];

            pub(super) fn read(catalog: &'static $crate::i18n::Catalog) -> $name {
                // One lookup in a loop, not one per field: smaller in the Wasm.
                let words: Vec<&'static str> = Self::KEYS.iter().map(|key| catalog.word(key)).collect();
                let [$($field,)*] = <[&'static str; { Self::KEYS.len() }]>::try_from(words)
                    .unwrap_or_else(|_| unreachable!("one word per key"));
                $name { $($field,)* }
            }
        }
    };
}
pub(super) use words;
