//! One reader for every JSON file and link the lab opens (a session, a
//! teacher's scenario, the course's files): it tells JSON that cannot be read
//! apart from JSON with a field that breaks a rule, and sorts serde's English
//! ("invalid type: sequence, expected a boolean at line 1 column 245") into
//! data, so each language can say it in its own words and no parser's words
//! reach the page.

use serde::Deserialize;

/// Why a JSON text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Not JSON at all (cut short, another kind of file, something after its
    /// end). The parser's words are kept for a developer; the page never shows them.
    NotJson(String),
    /// JSON, but a field breaks the file's rules: where
    /// (`actions[3].grant.points`) and which rule (boxed: the errors that
    /// carry this one stay small).
    BadField {
        path: String,
        problem: Box<FieldProblem>,
    },
}

/// What a field gets wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldProblem {
    /// A field this place does not have.
    UnknownField(String),
    /// An action (or a choice's value) the lab does not know.
    UnknownName(String),
    /// A field this place needs.
    Missing(String),
    /// A field written twice.
    Twice(String),
    /// A value of the wrong kind or out of range: what was found, and what fits.
    Wrong { found: Found, expected: Expected },
    /// Anything the reader does not sort: said only as "cannot be read".
    Unreadable,
}

/// A value a file holds where it should not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Whole(i128),
    /// A number with a fraction or an exponent, as written ("-0.0", "1.5").
    Fraction(String),
    Text(String),
    YesNo(bool),
    Null,
    List,
    Object,
    /// A value of a kind the reader does not name.
    Value,
}

/// What a field may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A whole number from `min` to `max`.
    Whole {
        min: i128,
        max: i128,
    },
    Text,
    YesNo,
    List,
    Object,
    /// A kind the reader does not name.
    Other,
}

/// In English, for logs and tests; the page words each problem in its
/// language (`Texts::session_error` and its kin).
impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldProblem::UnknownField(name) => write!(f, "there is no field {name} here"),
            FieldProblem::UnknownName(name) => write!(f, "{name} is not a name the lab knows"),
            FieldProblem::Missing(name) => write!(f, "the field {name} is missing"),
            FieldProblem::Twice(name) => write!(f, "the field {name} is written twice"),
            FieldProblem::Wrong { found, expected } => {
                write!(f, "{found} does not fit: it must be {expected}")
            }
            FieldProblem::Unreadable => f.write_str("this value cannot be read here"),
        }
    }
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::Whole(n) => write!(f, "{n}"),
            Found::Fraction(written) => f.write_str(written),
            Found::Text(text) => write!(f, "\"{text}\""),
            Found::YesNo(b) => write!(f, "{b}"),
            Found::Null => f.write_str("null"),
            Found::List => f.write_str("a list"),
            Found::Object => f.write_str("an object"),
            Found::Value => f.write_str("this value"),
        }
    }
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Whole { min, max } => write!(f, "a whole number from {min} to {max}"),
            Expected::Text => f.write_str("text"),
            Expected::YesNo => f.write_str("true or false"),
            Expected::List => f.write_str("a list"),
            Expected::Object => f.write_str("an object"),
            Expected::Other => f.write_str("a value of another kind"),
        }
    }
}

/// Reads `text` as a `T`, whole: anything after the value is refused too.
pub fn read_json<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, ReadError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut reader).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => ReadError::BadField {
                path,
                problem: Box::new(FieldProblem::from_serde(&inner.to_string())),
            },
            _ => ReadError::NotJson(inner.to_string()),
        }
    })?;
    reader
        .end()
        .map_err(|e| ReadError::NotJson(e.to_string()))?;
    Ok(value)
}

/// The name inside serde's first pair of backticks (`` unknown field `by`, expected… ``).
fn quoted(rest: &str) -> String {
    rest.split('`').nth(1).unwrap_or_default().to_owned()
}

impl FieldProblem {
    /// Sorts serde's message ("invalid value: integer `-5`, expected u64 at
    /// line 1 column 9") into a problem.
    pub fn from_serde(message: &str) -> FieldProblem {
        // serde_json adds where it was; the path says that better.
        let message = message
            .rsplit_once(" at line ")
            .map_or(message, |(head, _)| head);
        for (prefix, problem) in [
            (
                "unknown field ",
                FieldProblem::UnknownField as fn(String) -> FieldProblem,
            ),
            ("unknown variant ", FieldProblem::UnknownName),
            ("missing field ", FieldProblem::Missing),
            ("duplicate field ", FieldProblem::Twice),
        ] {
            if let Some(rest) = message.strip_prefix(prefix) {
                return problem(quoted(rest));
            }
        }
        let wrong = message
            .strip_prefix("invalid type: ")
            .or_else(|| message.strip_prefix("invalid value: "));
        if let Some((found, expected)) = wrong.and_then(|w| w.rsplit_once(", expected ")) {
            return FieldProblem::Wrong {
                found: Found::from_serde(found),
                expected: Expected::from_serde(expected),
            };
        }
        // A list of the wrong length where an object or a fixed list belongs.
        if let Some((_, expected)) = message
            .strip_prefix("invalid length ")
            .and_then(|w| w.split_once(", expected "))
        {
            return FieldProblem::Wrong {
                found: Found::List,
                expected: Expected::from_serde(expected),
            };
        }
        FieldProblem::Unreadable
    }
}

impl Found {
    /// Sorts serde's `Unexpected` ("integer `-5`", "string \"x\"", "sequence").
    fn from_serde(words: &str) -> Found {
        let value = || quoted(words);
        match words.split_once(' ').map_or(words, |(kind, _)| kind) {
            "integer" => value().parse().map_or(Found::Value, Found::Whole),
            "floating" => Found::Fraction(value()),
            "boolean" => Found::YesNo(value() == "true"),
            "string" => Found::Text(unescape(words.trim_start_matches("string "))),
            // "unit value" is JSON's null; "unit variant" is a name without its fields.
            "null" => Found::Null,
            "unit" if words == "unit value" => Found::Null,
            "sequence" => Found::List,
            "map" => Found::Object,
            _ => Found::Value,
        }
    }
}

impl Expected {
    fn from_serde(words: &str) -> Expected {
        let whole = |min: i128, max: i128| Expected::Whole { min, max };
        match words {
            "u8" => whole(0, u8::MAX.into()),
            "u16" => whole(0, u16::MAX.into()),
            "u32" => whole(0, u32::MAX.into()),
            "u64" | "usize" => whole(0, u64::MAX.into()),
            "i8" => whole(i8::MIN.into(), i8::MAX.into()),
            "i16" => whole(i16::MIN.into(), i16::MAX.into()),
            "i32" => whole(i32::MIN.into(), i32::MAX.into()),
            "i64" | "isize" => whole(i64::MIN.into(), i64::MAX.into()),
            "a string" | "string" => Expected::Text,
            "a boolean" => Expected::YesNo,
            "a sequence" => Expected::List,
            // The lab's action reader asks for "an action": a name, or an
            // object named by it.
            "a map" | "map" | "an action" => Expected::Object,
            _ if words.starts_with("struct ") || words.starts_with("tuple") => Expected::Object,
            _ => Expected::Other,
        }
    }
}

/// A string as serde quotes it (Rust's `{:?}`: `"a\"b\u{202e}"`), back to its
/// characters, so the page shows it by the one rule for text it did not write.
fn unescape(quoted: &str) -> String {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or(quoted);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let code: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                let c = u32::from_str_radix(&code, 16).ok().and_then(char::from_u32);
                out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serdes_words_are_sorted_into_data() {
        let wrong = |found, expected| FieldProblem::Wrong { found, expected };
        let cases = [
            (
                "invalid type: floating point `-0.0`, expected i32 at line 1 column 9",
                wrong(
                    Found::Fraction("-0.0".into()),
                    Expected::Whole {
                        min: i32::MIN.into(),
                        max: i32::MAX.into(),
                    },
                ),
            ),
            (
                "invalid type: sequence, expected a boolean at line 1 column 245",
                wrong(Found::List, Expected::YesNo),
            ),
            (
                "invalid type: string \"a\\\"\\u{202e}b\", expected u64",
                wrong(
                    Found::Text("a\"\u{202e}b".into()),
                    Expected::Whole {
                        min: 0,
                        max: u64::MAX.into(),
                    },
                ),
            ),
            (
                "invalid type: null, expected a sequence",
                wrong(Found::Null, Expected::List),
            ),
            (
                "invalid length 0, expected struct Scripts with 2 elements",
                wrong(Found::List, Expected::Object),
            ),
            (
                "invalid type: map, expected a strange thing",
                wrong(Found::Object, Expected::Other),
            ),
            (
                "duplicate field `version`",
                FieldProblem::Twice("version".into()),
            ),
            ("trailing characters", FieldProblem::Unreadable),
        ];
        for (message, problem) in cases {
            assert_eq!(FieldProblem::from_serde(message), problem, "{message}");
        }
    }
}
