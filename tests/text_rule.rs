#![cfg(not(target_arch = "wasm32"))]
//! The look-alike rule for accounts and keys: a text is refused when it could be
//! mistaken for another (space at an edge, two spaces in a row, a character that
//! cannot be seen), and `visible` shows any text so that no two different texts
//! look the same. Expectations are derived from the rule, written out here.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::borrow::Cow;
use std::collections::HashMap;

use idempotency_lab::lab::{
    is_invisible, look_alike_problem, read_request, visible, FieldError, FormErrors,
    MAX_FIELD_CHARS,
};
use proptest::collection::vec;
use proptest::prelude::*;

const ZWSP: char = '\u{200B}';
const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';
const RLO: char = '\u{202E}';
const NBSP: char = '\u{A0}';

/// Persian for "I want", written (as Persian is) with a zero-width non-joiner
/// between «می» and «خواهم».
const PERSIAN_WANT: &str = "می\u{200C}خواهم";

/// Characters the rule names as invisible wherever they stand.
const ALWAYS_INVISIBLE: &[char] = &[
    // Control characters.
    '\u{0}',
    '\u{7}',
    '\u{1B}',
    '\u{7F}',
    '\u{80}',
    '\u{85}',
    '\u{9F}',
    // White space other than the plain space.
    '\t',
    '\n',
    '\u{B}',
    '\u{C}',
    '\r',
    NBSP,
    '\u{1680}',
    '\u{2000}',
    '\u{2002}',
    '\u{2007}',
    '\u{2009}',
    '\u{200A}',
    '\u{2028}',
    '\u{2029}',
    '\u{202F}',
    '\u{205F}',
    '\u{3000}',
    // Format characters.
    '\u{AD}',
    ZWSP,
    '\u{200E}',
    '\u{200F}',
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    RLO,
    '\u{2060}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{FEFF}',
    '\u{E0001}',
    '\u{E0041}',
    '\u{E007F}',
];

/// Arabic-script letters, one or more from each part of the script's blocks.
const ARABIC_LETTERS: &[char] = &[
    '\u{0627}', // ا alef
    '\u{0628}', // ب beh
    '\u{062E}', // خ khah
    '\u{0645}', // م meem
    '\u{0647}', // ه heh
    '\u{067E}', // پ peh
    '\u{0686}', // چ tcheh
    '\u{0698}', // ژ jeh
    '\u{06A9}', // ک keheh
    '\u{06AF}', // گ gaf
    '\u{06CC}', // ی farsi yeh
    '\u{0750}', // ݐ (Arabic Supplement)
    '\u{FB56}', // ﭖ peh, isolated presentation form
    '\u{FEE9}', // ﻩ heh, isolated presentation form
];

/// Neighbours a joiner may have that are not Arabic-script letters.
const NOT_ARABIC_LETTERS: &[char] = &[
    'a', 'Z', '1', '-', ' ', '\u{06F1}', // ۱ Persian digit one
    '\u{0661}', // ١ Arabic-Indic digit one
    '\u{060C}', // ، Arabic comma
    '\u{061F}', // ؟ Arabic question mark
    '\u{064E}', // fatha, a combining mark
    ZWSP, ZWNJ, ZWJ, 'é', '中',
];

fn request(account: &str, key: &str) -> Result<(), FormErrors> {
    read_request(account, key, "100").map(|_| ())
}

fn key_error(key: &str) -> Option<FieldError> {
    request("account-7", key).err().and_then(|e| e.key)
}

fn account_error(account: &str) -> Option<FieldError> {
    request(account, "order-1042").err().and_then(|e| e.account)
}

/// What the form must say of one account or key, from the rule: empty first, then
/// too long, then space at an edge, then two spaces in a row, then an invisible
/// character (using the `invisible` predicate given).
fn rule(
    text: &str,
    invisible: impl Fn(Option<char>, char, Option<char>) -> bool,
) -> Option<FieldError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.iter().all(|c| c.is_whitespace()) {
        return Some(FieldError::Empty);
    }
    if chars.len() > MAX_FIELD_CHARS {
        return Some(FieldError::TooLong);
    }
    if chars[0].is_whitespace() || chars[chars.len() - 1].is_whitespace() {
        return Some(FieldError::EdgeSpace);
    }
    if chars.windows(2).any(|w| w[0] == ' ' && w[1] == ' ') {
        return Some(FieldError::DoubleSpace);
    }
    let hidden = (0..chars.len()).any(|i| {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        invisible(prev, chars[i], chars.get(i + 1).copied())
    });
    hidden.then_some(FieldError::Invisible)
}

/// The look-alike part of the rule alone (no empty or length check).
fn problem_by_rule(
    text: &str,
    invisible: impl Fn(Option<char>, char, Option<char>) -> bool,
) -> Option<FieldError> {
    if text.is_empty() {
        return None;
    }
    match rule(text, invisible) {
        Some(FieldError::Empty) => Some(FieldError::EdgeSpace),
        Some(FieldError::TooLong) => unreachable!("only called on short texts"),
        other => other,
    }
}

/// The test's own statement of which characters cannot be seen, for the small
/// alphabets the properties draw from.
fn model_invisible(prev: Option<char>, c: char, next: Option<char>) -> bool {
    let letter = |c: Option<char>| c.is_some_and(|c| ARABIC_LETTERS.contains(&c));
    match c {
        ZWNJ | ZWJ => !(letter(prev) && letter(next)),
        ' ' => false,
        c if ALWAYS_INVISIBLE.contains(&c) => true,
        'a' | 'b' | '-' | '1' | '␠' | '⟨' | '⟩' | 'U' | '+' | '0'..='9' | 'A'..='F' => false,
        c if ARABIC_LETTERS.contains(&c) || NOT_ARABIC_LETTERS.contains(&c) => false,
        c => panic!("the model does not know {c:?}"),
    }
}

/// Reads back what `visible` shows: `␠` is a space, `⟨U+XXXX⟩` the character of
/// that code, anything else itself. For texts without `␠` or `⟨` of their own.
fn decode(shown: &str) -> String {
    let mut out = String::new();
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        if c == '␠' {
            out.push(' ');
            rest = &rest[c.len_utf8()..];
        } else if let Some(tail) = rest.strip_prefix("⟨U+") {
            let end = tail.find('⟩').expect("a code is closed");
            let code = &tail[..end];
            assert!(code.len() >= 4, "at least 4 hex digits: {shown:?}");
            assert!(
                code.chars().all(|d| matches!(d, '0'..='9' | 'A'..='F')),
                "upper-case hex: {shown:?}"
            );
            out.push(char::from_u32(u32::from_str_radix(code, 16).unwrap()).unwrap());
            rest = &tail[end + '⟩'.len_utf8()..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `visible` by the rule: each invisible character as its code, each space at an
/// edge or beside another space as `␠`; the text itself when it has no problem.
fn shown_by_rule(text: &str) -> String {
    if problem_by_rule(text, model_invisible).is_none() {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        if c == ' ' && (prev.is_none_or(|p| p == ' ') || next.is_none_or(|n| n == ' ')) {
            out.push('␠');
        } else if model_invisible(prev, c, next) {
            out.push_str(&format!("⟨U+{:04X}⟩", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// The form refuses each kind of look-alike
// ---------------------------------------------------------------------------------

#[test]
fn the_issue_cases_are_refused_with_the_reason() {
    // A trailing space would make a second operation that looks like the first.
    assert_eq!(key_error("order-1042 "), Some(FieldError::EdgeSpace));
    assert_eq!(key_error("order-1042"), None);
    assert_eq!(account_error("account-7 "), Some(FieldError::EdgeSpace));
    // A key of nothing but a zero-width space is not empty: it is invisible.
    assert_eq!(key_error("\u{200B}"), Some(FieldError::Invisible));
    // A right-to-left override before "+100" turns how the key reads around.
    assert_eq!(key_error("\u{202E}+100"), Some(FieldError::Invisible));
    assert_eq!(account_error("\u{202E}+100"), Some(FieldError::Invisible));
}

#[test]
fn space_at_either_end_is_an_edge_space_whatever_the_space() {
    for space in [' ', NBSP, '\t', '\n', '\u{2009}', '\u{3000}', '\u{2028}'] {
        for text in [format!("{space}order-1042"), format!("order-1042{space}")] {
            assert_eq!(key_error(&text), Some(FieldError::EdgeSpace), "{text:?}");
            assert_eq!(
                account_error(&text),
                Some(FieldError::EdgeSpace),
                "{text:?}"
            );
            assert_eq!(
                look_alike_problem(&text),
                Some(FieldError::EdgeSpace),
                "{text:?}"
            );
        }
    }
    assert_eq!(key_error(" a "), Some(FieldError::EdgeSpace));
}

#[test]
fn two_plain_spaces_in_a_row_are_a_double_space() {
    for text in ["order  1042", "a   b", "a b  c"] {
        assert_eq!(key_error(text), Some(FieldError::DoubleSpace), "{text:?}");
        assert_eq!(
            account_error(text),
            Some(FieldError::DoubleSpace),
            "{text:?}"
        );
        assert_eq!(look_alike_problem(text), Some(FieldError::DoubleSpace));
    }
    // Spaces apart from each other are fine.
    assert_eq!(key_error("a b c"), None);
}

#[test]
fn every_character_that_cannot_be_seen_is_refused_inside_a_text() {
    for &c in ALWAYS_INVISIBLE {
        let text = format!("order{c}1042");
        assert!(is_invisible(Some('r'), c, Some('1')), "{c:?}");
        assert!(is_invisible(None, c, None), "{c:?} alone");
        assert_eq!(key_error(&text), Some(FieldError::Invisible), "{c:?}");
        assert_eq!(account_error(&text), Some(FieldError::Invisible), "{c:?}");
        assert_eq!(
            look_alike_problem(&text),
            Some(FieldError::Invisible),
            "{c:?}"
        );
    }
    // Tags, the whole block, and the word joiner and isolates.
    for code in [0xE0000, 0xE0020, 0xE007E, 0x2060, 0x2066, 0x2069] {
        let c = char::from_u32(code).unwrap();
        assert!(is_invisible(Some('a'), c, Some('b')), "U+{code:04X}");
    }
}

#[test]
fn visible_characters_are_not_invisible() {
    for c in [
        'a', 'Z', '0', '-', '_', '.', '@', 'é', '中', '😀', '۱', '١', '␠', '⟨', '\u{064E}',
    ]
    .into_iter()
    .chain(ARABIC_LETTERS.iter().copied())
    {
        assert!(!is_invisible(Some('a'), c, Some('b')), "{c:?}");
        assert!(!is_invisible(None, c, None), "{c:?}");
    }
    // The plain space itself is seen between words.
    assert!(!is_invisible(Some('a'), ' ', Some('b')));
}

#[test]
fn a_joiner_is_seen_between_two_arabic_letters_and_nowhere_else() {
    for joiner in [ZWNJ, ZWJ] {
        for &p in ARABIC_LETTERS {
            for &n in ARABIC_LETTERS {
                assert!(
                    !is_invisible(Some(p), joiner, Some(n)),
                    "{p:?} {joiner:?} {n:?}"
                );
                let word: String = [p, joiner, n].iter().collect();
                assert_eq!(key_error(&word), None, "{word:?}");
            }
            for &other in NOT_ARABIC_LETTERS {
                assert!(
                    is_invisible(Some(p), joiner, Some(other)),
                    "{p:?} {joiner:?} {other:?}"
                );
                assert!(
                    is_invisible(Some(other), joiner, Some(p)),
                    "{other:?} {joiner:?} {p:?}"
                );
            }
            assert!(
                is_invisible(None, joiner, Some(p)),
                "{joiner:?} at the start"
            );
            assert!(is_invisible(Some(p), joiner, None), "{joiner:?} at the end");
        }
        assert!(is_invisible(None, joiner, None));
        assert!(is_invisible(Some('a'), joiner, Some('b')));
    }
    // In whole texts.
    for text in [
        "a\u{200C}b",
        "\u{200C}پ",
        "پ\u{200C}",
        "پ\u{200C}\u{200C}پ",
        "پ\u{200C}1",
        "پ\u{200C}۱",
    ] {
        assert_eq!(key_error(text), Some(FieldError::Invisible), "{text:?}");
    }
}

/// Letters of the Arabic script outside the ranges the code names: U+06D5 ARABIC
/// LETTER AE (Kurdish, Uyghur), U+06EE ARABIC LETTER DAL WITH INVERTED V, U+08A0
/// ARABIC LETTER BEH WITH SMALL V BELOW. A joiner between two of them (or one of
/// them and «ب») changes how they join, as it does for any Arabic letter.
#[test]
fn a_joiner_is_seen_between_letters_from_the_whole_arabic_script() {
    let refused: Vec<String> = ['\u{06D5}', '\u{06EE}', '\u{08A0}']
        .into_iter()
        .filter(|&letter| {
            let word: String = ['\u{0628}', ZWNJ, letter].iter().collect();
            is_invisible(Some('\u{0628}'), ZWNJ, Some(letter)) || key_error(&word).is_some()
        })
        .map(|letter| format!("U+{:04X}", letter as u32))
        .collect();
    assert!(
        refused.is_empty(),
        "U+200C after U+0628 is refused before {refused:?}"
    );
}

/// U+1BCA0..U+1BCA3, the shorthand format controls, are format characters (and
/// default-ignorable): they leave no trace where they stand.
#[test]
fn the_shorthand_format_controls_are_invisible() {
    let seen: Vec<String> = (0x1BCA0..=0x1BCA3)
        .filter(|&code| {
            let c = char::from_u32(code).unwrap();
            !is_invisible(Some('a'), c, Some('b'))
                || key_error(&format!("a{c}b")) != Some(FieldError::Invisible)
        })
        .map(|code| format!("U+{code:04X}"))
        .collect();
    assert!(seen.is_empty(), "taken for visible: {seen:?}");
}

#[test]
fn plain_keys_inner_spaces_persian_words_and_persian_digits_are_accepted() {
    for text in [
        "order-1042",
        "account-7",
        "order 1042",
        "a b c",
        PERSIAN_WANT,
        "سفارش-۱۰۴۲",
        "۱۲۳۴",
        "٠١٢",
        "حساب ۷",
        "ب\u{200D}ب",
        "x",
        "<img src=x onerror=alert(1)>",
    ] {
        assert_eq!(look_alike_problem(text), None, "{text:?}");
        let grant = read_request(text, text, "100").unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
        // Kept exactly as typed.
        assert_eq!(grant.key, text);
        assert_eq!(grant.account_id, text);
        assert_eq!(grant.points, 100);
    }
}

#[test]
fn empty_then_too_long_come_before_any_look_alike_problem() {
    // Only white space is empty, not an edge space.
    for text in ["", " ", "  ", "\t", "\u{A0}", " \u{3000} \n"] {
        assert_eq!(key_error(text), Some(FieldError::Empty), "{text:?}");
        assert_eq!(account_error(text), Some(FieldError::Empty), "{text:?}");
    }
    let long = "a".repeat(MAX_FIELD_CHARS);
    // Exactly at the limit: the look-alike problem is what is wrong.
    let at_limit_edge = format!("{} ", &long[1..]);
    assert_eq!(at_limit_edge.chars().count(), MAX_FIELD_CHARS);
    assert_eq!(key_error(&at_limit_edge), Some(FieldError::EdgeSpace));
    // One over: too long, whatever else is wrong.
    for text in [
        format!("{long} "),
        format!(" {long}"),
        format!("a  {}", &long[2..]),
        format!("{long}\u{200B}"),
        format!("\u{202E}{long}"),
    ] {
        assert_eq!(text.chars().count(), MAX_FIELD_CHARS + 1);
        assert_eq!(key_error(&text), Some(FieldError::TooLong), "{text:?}");
        assert_eq!(account_error(&text), Some(FieldError::TooLong), "{text:?}");
    }
    // A long Persian text is counted in characters, not bytes.
    let persian = "پ".repeat(MAX_FIELD_CHARS);
    assert!(persian.len() > MAX_FIELD_CHARS);
    assert_eq!(key_error(&persian), None);
}

#[test]
fn edge_space_then_double_space_then_invisible() {
    assert_eq!(
        look_alike_problem(" a  b\u{200B}"),
        Some(FieldError::EdgeSpace)
    );
    assert_eq!(
        look_alike_problem("a  b\u{200B} "),
        Some(FieldError::EdgeSpace)
    );
    assert_eq!(
        look_alike_problem("a  b\u{200B}"),
        Some(FieldError::DoubleSpace)
    );
    assert_eq!(
        look_alike_problem("\u{200B}a  b"),
        Some(FieldError::DoubleSpace)
    );
    assert_eq!(
        look_alike_problem("a b\u{200B}"),
        Some(FieldError::Invisible)
    );
    // A zero-width space at the start is not white space: it is invisible.
    assert_eq!(look_alike_problem("\u{200B}a"), Some(FieldError::Invisible));
    assert_eq!(look_alike_problem(""), None);
}

#[test]
fn account_key_and_points_are_each_reported() {
    let errors = read_request("account-7 ", "\u{200B}", "0").unwrap_err();
    assert_eq!(
        errors,
        FormErrors {
            account: Some(FieldError::EdgeSpace),
            key: Some(FieldError::Invisible),
            points: Some(FieldError::NotPositive),
        }
    );
    // Good points do not let a look-alike through.
    let errors = read_request("account-7", "order  1042", "100").unwrap_err();
    assert_eq!(
        errors,
        FormErrors {
            account: None,
            key: Some(FieldError::DoubleSpace),
            points: None,
        }
    );
    // Persian digits in the points field still read.
    let grant = read_request(PERSIAN_WANT, "order-1042", "۱۰۰").unwrap();
    assert_eq!(grant.points, 100);
}

// ---------------------------------------------------------------------------------
// visible
// ---------------------------------------------------------------------------------

#[test]
fn visible_shows_each_problem_as_a_sign() {
    let cases: &[(&str, &str)] = &[
        ("order-1042 ", "order-1042␠"),
        ("account-7 ", "account-7␠"),
        (" a", "␠a"),
        (" a ", "␠a␠"),
        (" ", "␠"),
        ("  ", "␠␠"),
        ("a  b", "a␠␠b"),
        ("a   b", "a␠␠␠b"),
        // Only the spaces that could be misread become signs.
        ("a b  c", "a b␠␠c"),
        ("a b ", "a b␠"),
        ("\u{200B}", "⟨U+200B⟩"),
        ("\u{202E}+100", "⟨U+202E⟩+100"),
        ("a\u{A0}b", "a⟨U+00A0⟩b"),
        ("\u{A0}a", "⟨U+00A0⟩a"),
        ("a\tb", "a⟨U+0009⟩b"),
        ("a\u{0}b", "a⟨U+0000⟩b"),
        ("a\u{AD}b", "a⟨U+00AD⟩b"),
        ("x\u{FEFF}", "x⟨U+FEFF⟩"),
        ("a\u{E0041}", "a⟨U+E0041⟩"),
        ("a\u{200C}b", "a⟨U+200C⟩b"),
        // A lone space beside an invisible character stays a space: the sign after
        // it already shows that something is there.
        ("x \u{200B}y", "x ⟨U+200B⟩y"),
        // A joiner that is seen stays as it is, even in a text with a problem.
        ("پ\u{200C}پ ", "پ\u{200C}پ␠"),
        ("پ\u{200C}\u{200C}پ", "پ⟨U+200C⟩⟨U+200C⟩پ"),
    ];
    for (text, shown) in cases {
        assert_eq!(visible(text), *shown, "{text:?}");
        assert!(
            matches!(visible(text), Cow::Owned(_)),
            "{text:?} has a problem"
        );
    }
}

#[test]
fn visible_returns_a_text_without_a_problem_unchanged_and_borrowed() {
    for text in [
        "",
        "order-1042",
        "order 1042",
        PERSIAN_WANT,
        "سفارش-۱۰۴۲",
        "ب\u{200D}ب",
    ] {
        let shown = visible(text);
        assert_eq!(shown, text);
        assert!(matches!(shown, Cow::Borrowed(_)), "{text:?}");
    }
}

/// The signs `visible` draws with, typed into a text, are shown by their code:
/// a typed `␠` must not look like a space at the end.
#[test]
fn typed_signs_are_shown_by_their_code_so_they_cannot_pass_for_a_space() {
    assert_eq!(visible("a␠"), "a⟨U+2420⟩");
    assert_eq!(visible("⟨U+200B⟩"), "⟨U+27E8⟩U+200B⟩");
    assert_ne!(visible("order-1042␠"), visible("order-1042 "));
    assert_ne!(visible("a⟨U+200B⟩"), visible("a\u{200B}"));
    assert_eq!(read_request("account-7", "a␠", "100").map(|_| ()), Ok(()));
}

#[test]
fn the_issue_cases_look_different_once_shown() {
    assert_ne!(visible("order-1042 "), visible("order-1042"));
    assert_ne!(visible("account-7 "), visible("account-7"));
    assert_ne!(visible("\u{200B}"), visible(""));
    assert_ne!(visible("\u{202E}+100"), visible("+100"));
    assert_ne!(visible("a  b"), visible("a b"));
    assert_ne!(visible("a\u{A0}b"), visible("a b"));
    assert_ne!(visible("می\u{200C}خواهم"), visible("میخواهم"));
}

/// Every text of up to 5 characters over a small alphabet of look-alikes: no two
/// different texts are shown the same, and each is shown as the rule says.
#[test]
fn no_two_short_texts_over_look_alikes_are_shown_the_same() {
    let alphabet = ['a', 'پ', ' ', NBSP, ZWSP, ZWNJ, ZWJ, RLO, '-'];
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut texts = vec![String::new()];
    let mut all = 0;
    for _ in 0..=5 {
        let mut longer = Vec::new();
        for text in &texts {
            let shown = visible(text).into_owned();
            assert_eq!(shown, shown_by_rule(text), "{text:?}");
            if let Some(other) = seen.insert(shown.clone(), text.clone()) {
                panic!("{other:?} and {text:?} are both shown as {shown:?}");
            }
            all += 1;
            for c in alphabet {
                longer.push(format!("{text}{c}"));
            }
        }
        texts = longer;
    }
    assert_eq!(all, (0..=5).map(|n| 9usize.pow(n)).sum::<usize>());
}

// ---------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------

/// A character the model knows: look-alikes weighted up.
fn known_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec!['a', 'b', '-', '1', 'پ', 'ب', 'ی', 'خ', ' ']),
        2 => prop::sample::select(vec![ZWNJ, ZWJ, ZWSP, RLO, NBSP, '\t', '\u{AD}', '\u{FEFF}']),
        1 => prop::sample::select(ALWAYS_INVISIBLE.to_vec()),
        1 => prop::sample::select(NOT_ARABIC_LETTERS.to_vec()),
    ]
}

fn known_text() -> impl Strategy<Value = String> {
    vec(known_char(), 0..12).prop_map(|cs| cs.into_iter().collect())
}

/// Any character at all, with look-alikes mixed in.
fn any_text() -> impl Strategy<Value = String> {
    vec(prop_oneof![3 => known_char(), 1 => any::<char>()], 0..16)
        .prop_map(|cs| cs.into_iter().collect())
}

/// Short and around the length limit.
fn form_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => vec(known_char(), 0..10),
        1 => vec(known_char(), MAX_FIELD_CHARS - 3..MAX_FIELD_CHARS + 3),
        1 => vec(prop::sample::select(vec!['a', ' ']), MAX_FIELD_CHARS - 2..MAX_FIELD_CHARS + 2),
    ]
    .prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// (a) A text with no problem is shown as it is, without a copy.
    #[test]
    fn a_text_without_a_problem_is_shown_as_it_is(text in any_text()) {
        if look_alike_problem(&text).is_none() {
            let shown = visible(&text);
            prop_assert_eq!(&*shown, text.as_str());
            prop_assert!(matches!(shown, Cow::Borrowed(_)));
        } else {
            prop_assert_ne!(&*visible(&text), text.as_str());
        }
    }

    /// (b) Different texts are never shown the same: the shown text reads back to
    /// the text, and two texts near each other never collide.
    #[test]
    fn different_texts_are_shown_differently(a in known_text(), b in known_text(), at in any::<prop::sample::Index>(), c in known_char()) {
        prop_assert_eq!(decode(&visible(&a)), a.clone());
        if visible(&a) == visible(&b) {
            prop_assert_eq!(&a, &b);
        }
        // A neighbour of `a`: one character changed.
        let mut near: Vec<char> = a.chars().collect();
        if !near.is_empty() {
            let i = at.index(near.len());
            near[i] = c;
            let near: String = near.into_iter().collect();
            prop_assert_eq!(visible(&a) == visible(&near), a == near, "{:?} {:?}", a, near);
        }
    }

    /// (b) over any characters but the two signs `visible` writes.
    #[test]
    fn any_text_reads_back_from_how_it_is_shown(text in any_text()) {
        prop_assume!(!text.contains(['␠', '⟨']));
        prop_assert_eq!(decode(&visible(&text)), text);
    }

    /// (c) What is shown has nothing left that cannot be seen, no space at an
    /// edge and no two spaces in a row.
    #[test]
    fn what_is_shown_has_no_problem_left(text in any_text()) {
        let shown = visible(&text);
        let chars: Vec<char> = shown.chars().collect();
        for i in 0..chars.len() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            prop_assert!(!is_invisible(prev, chars[i], next), "{:?} in {:?}", chars[i], shown);
        }
        prop_assert!(!shown.starts_with(char::is_whitespace), "{:?}", shown);
        prop_assert!(!shown.ends_with(char::is_whitespace), "{:?}", shown);
        prop_assert!(!shown.contains("  "), "{:?}", shown);
        prop_assert_eq!(look_alike_problem(&shown), None);
    }

    /// The problem found is the one the rule names, and `visible` shows what the
    /// rule says.
    #[test]
    fn the_problem_and_the_shown_text_follow_the_rule(text in known_text()) {
        prop_assert_eq!(look_alike_problem(&text), problem_by_rule(&text, model_invisible));
        prop_assert_eq!(visible(&text).into_owned(), shown_by_rule(&text));
    }

    /// (d) The form takes the request exactly when neither text has a problem and
    /// neither is empty or too long, and says what is wrong with each otherwise.
    #[test]
    fn the_form_takes_exactly_the_texts_without_a_problem(account in form_text(), key in form_text()) {
        let expected_account = rule(&account, model_invisible);
        let expected_key = rule(&key, model_invisible);
        match read_request(&account, &key, "100") {
            Ok(grant) => {
                prop_assert_eq!(expected_account, None);
                prop_assert_eq!(expected_key, None);
                prop_assert_eq!(grant.account_id, account);
                prop_assert_eq!(grant.key, key);
                prop_assert_eq!(grant.points, 100);
            }
            Err(errors) => {
                prop_assert!(expected_account.is_some() || expected_key.is_some());
                prop_assert_eq!(errors, FormErrors { account: expected_account, key: expected_key, points: None });
            }
        }
    }

    /// (d) the same with the crate's own predicate, over any characters.
    #[test]
    fn the_form_agrees_with_look_alike_problem_on_any_text(account in any_text(), key in any_text()) {
        let ok = |t: &str| !t.trim().is_empty() && t.chars().count() <= MAX_FIELD_CHARS && look_alike_problem(t).is_none();
        prop_assert_eq!(read_request(&account, &key, "100").is_ok(), ok(&account) && ok(&key));
        let expected = rule(&key, is_invisible);
        prop_assert_eq!(read_request("account-7", &key, "100").err().and_then(|e| e.key), expected);
    }
}
