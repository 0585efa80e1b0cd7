//! What is wrong with a field a person typed: the form's verdicts and the
//! look-alike rule's share one list, so the page says each the same way.

/// Why a field was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldError {
    /// Empty or only white space.
    Empty,
    /// Longer than [`MAX_FIELD_CHARS`](super::MAX_FIELD_CHARS).
    TooLong,
    /// Not a whole number.
    NotANumber,
    /// Zero or less.
    NotPositive,
    /// Below zero, where 0 is the least.
    Negative,
    /// More than `i32::MAX`.
    TooLarge,
    /// Space at the start or end: it would look like the same text without it.
    EdgeSpace,
    /// Two spaces in a row, which read as one.
    DoubleSpace,
    /// A character that cannot be seen (a zero-width space, a direction control).
    Invisible,
}

/// In English, for logs and tests; the page says it in its language (`Texts::field_error`).
impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FieldError::Empty => "it is empty",
            FieldError::TooLong => "it is too long",
            FieldError::NotANumber => "it is not a whole number",
            FieldError::NotPositive => "it is not 1 or more",
            FieldError::Negative => "it is not 0 or more",
            FieldError::TooLarge => "it is too large",
            FieldError::EdgeSpace => "it has a space at an end",
            FieldError::DoubleSpace => "it has two spaces in a row",
            FieldError::Invisible => "it has a character that cannot be seen",
        })
    }
}
