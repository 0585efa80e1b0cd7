//! Reading the request form: every field checked, nothing sent while one is wrong.

use crate::core::GrantPoints;

use super::field_error::FieldError;
use super::text::look_alike_problem;

/// Longest account or key the form takes: long enough for any real id, short
/// enough that a pasted novel cannot swamp the timeline.
pub const MAX_FIELD_CHARS: usize = 80;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormErrors {
    pub account: Option<FieldError>,
    pub key: Option<FieldError>,
    pub points: Option<FieldError>,
}

impl FormErrors {
    pub fn is_empty(&self) -> bool {
        self.account.is_none() && self.key.is_none() && self.points.is_none()
    }
}

/// Turns the three fields into a grant, or says what is wrong with each.
///
/// Account and key are kept exactly as typed, so they are refused when they could
/// be mistaken for another (see [`look_alike_problem`]); points accept Persian and Arabic-Indic digits as well as ASCII.
pub fn read_request(account: &str, key: &str, points: &str) -> Result<GrantPoints, FormErrors> {
    let errors = FormErrors {
        account: check_text(account),
        key: check_text(key),
        points: parse_points(points).err(),
    };
    match parse_points(points) {
        Ok(points) if errors.is_empty() => Ok(GrantPoints::new(key, account, points)),
        _ => Err(errors),
    }
}

/// Reads a points field on its own.
pub fn parse_points(text: &str) -> Result<i32, FieldError> {
    match parse_integer(text)? {
        n if n <= 0 => Err(FieldError::NotPositive),
        n => i32::try_from(n).map_err(|_| FieldError::TooLarge),
    }
}

/// Reads a whole number with its sign (`-5`, `−5`, `+5`) in any of the digits
/// the points field takes: every numeric field reads its text here, so a
/// negative number is a number out of range, never "not a number". A run of
/// digits too long for the result is still just a number out of range.
pub fn parse_integer(text: &str) -> Result<i128, FieldError> {
    let ascii: String = text.trim().chars().map(to_ascii_digit).collect();
    if ascii.is_empty() {
        return Err(FieldError::Empty);
    }
    let (negative, digits) = match ascii.strip_prefix(['-', '\u{2212}']) {
        Some(rest) => (true, rest),
        None => (false, ascii.strip_prefix('+').unwrap_or(&ascii)),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(FieldError::NotANumber);
    }
    let size: i128 = digits.parse().unwrap_or(i128::MAX);
    Ok(if negative { -size } else { size })
}

/// Reads a number of milliseconds (a setting): a whole number, 0 or more, in any
/// of the digits the points field takes. The lab checks the range.
pub fn parse_millis(text: &str) -> Result<u64, FieldError> {
    parse_whole(text)
}

/// Reads a whole number, 0 or more (a setting, a seed), in any of the digits
/// the points field takes. The caller checks the range.
pub fn parse_whole(text: &str) -> Result<u64, FieldError> {
    match parse_integer(text)? {
        n if n < 0 => Err(FieldError::Negative),
        n => Ok(u64::try_from(n).unwrap_or(u64::MAX)),
    }
}

/// What is wrong with an account or key, as the form and the lab both judge it.
pub(crate) fn check_text(text: &str) -> Option<FieldError> {
    if text.trim().is_empty() {
        Some(FieldError::Empty)
    } else if text.chars().count() > MAX_FIELD_CHARS {
        Some(FieldError::TooLong)
    } else {
        look_alike_problem(text)
    }
}

/// Maps Persian (U+06F0..) and Arabic-Indic (U+0660..) digits to ASCII.
fn to_ascii_digit(c: char) -> char {
    match c {
        '\u{06F0}'..='\u{06F9}' => char::from(b'0' + (c as u32 - 0x06F0) as u8),
        '\u{0660}'..='\u{0669}' => char::from(b'0' + (c as u32 - 0x0660) as u8),
        _ => c,
    }
}
