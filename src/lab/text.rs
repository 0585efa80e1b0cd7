//! Keys and accounts that look the same must be the same. One rule says which
//! characters cannot be seen: the form refuses them, and where one still shows up
//! (a session saved by an older build) the page draws it as a visible sign.

use std::borrow::Cow;

use super::field_error::FieldError;

/// Whether `c` leaves no visible trace where it stands. `prev` and `next` are its
/// neighbours: a zero-width (non-)joiner between two Arabic-script letters changes
/// how they join (Persian writes words such as «می‌خواهم» with one), so it is
/// seen there and only there.
pub fn is_invisible(prev: Option<char>, c: char, next: Option<char>) -> bool {
    match c {
        '\u{200C}' | '\u{200D}' => {
            !(prev.is_some_and(is_arabic_letter) && next.is_some_and(is_arabic_letter))
        }
        // The plain space is visible between words; other white space (no-break,
        // thin, ideographic, tabs, line breaks) is not told apart from it.
        ' ' => false,
        c if c.is_whitespace() || c.is_control() => true,
        // Format characters: soft hyphen, Arabic number marks, zero-width spaces
        // and joiners, direction marks, embeddings, overrides and isolates, the
        // word joiner and invisible operators, the byte-order mark, tags.
        '\u{00AD}'
        | '\u{034F}'
        | '\u{0600}'..='\u{0605}'
        | '\u{061C}'
        | '\u{06DD}'
        | '\u{070F}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{17B4}'
        | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{2800}'
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}' => true,
        _ => false,
    }
}

/// Letters of the Arabic script (Arabic, its supplements and extensions, and
/// presentation forms), the script whose letters join.
fn is_arabic_letter(c: char) -> bool {
    matches!(
        c,
        '\u{0620}'..='\u{064A}'
            | '\u{066E}'..='\u{066F}'
            | '\u{0671}'..='\u{06D3}'
            | '\u{06D5}'
            | '\u{06EE}'..='\u{06EF}'
            | '\u{06FA}'..='\u{06FF}'
            | '\u{0750}'..='\u{077F}'
            | '\u{0870}'..='\u{0887}'
            | '\u{0889}'..='\u{088E}'
            | '\u{08A0}'..='\u{08C9}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFC}'
    )
}

/// Why an account or key cannot be told apart from another that looks the same,
/// if it cannot: space at either end, two spaces in a row, or a character that
/// cannot be seen.
pub fn look_alike_problem(text: &str) -> Option<FieldError> {
    if text.starts_with(char::is_whitespace) || text.ends_with(char::is_whitespace) {
        return Some(FieldError::EdgeSpace);
    }
    let chars: Vec<char> = text.chars().collect();
    if chars.windows(2).any(|w| w == [' ', ' ']) {
        return Some(FieldError::DoubleSpace);
    }
    let hidden = (0..chars.len()).any(|i| {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        is_invisible(prev, chars[i], chars.get(i + 1).copied())
    });
    hidden.then_some(FieldError::Invisible)
}

/// The signs `visible` draws with. Typed into a text, they are shown by their
/// code too, so a sign on screen always stands for what it replaced.
const SPACE_SIGN: char = '␠';
const CODE_OPENS: char = '⟨';

/// `text` as it must be shown so that no two different texts look alike: each
/// character that cannot be seen becomes its code in brackets (`⟨U+200B⟩`), and a
/// space at either end, or beside another space, becomes `␠`. Text with none of
/// these (and none of those signs) comes back as it was, without a copy.
pub fn visible(text: &str) -> Cow<'_, str> {
    if look_alike_problem(text).is_none() && !text.contains([SPACE_SIGN, CODE_OPENS]) {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut shown = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let lone_space =
            c == ' ' && prev.is_some_and(|p| p != ' ') && next.is_some_and(|n| n != ' ');
        if c == ' ' && !lone_space {
            shown.push(SPACE_SIGN);
        } else if is_invisible(prev, c, next) || c == SPACE_SIGN || c == CODE_OPENS {
            shown.push_str(&format!("⟨U+{:04X}⟩", u32::from(c)));
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}
