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
    /// More than `i32::MAX`.
    TooLarge,
    /// Space at the start or end: it would look like the same text without it.
    EdgeSpace,
    /// Two spaces in a row, which read as one.
    DoubleSpace,
    /// A character that cannot be seen (a zero-width space, a direction control).
    Invisible,
}
