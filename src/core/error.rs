//! Every way a grant can fail, with a human message and whether retrying can help.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::grant::{GrantPoints, GrantResult};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GrantError {
    /// The key is empty or only white space.
    EmptyKey,
    /// The account is empty or only white space.
    EmptyAccount,
    /// Points must be 1 or more.
    NonPositivePoints,
    /// The new balance would not fit in an `i32`; nothing was changed.
    Overflow,
    /// The acknowledgement was lost: the caller cannot tell whether the grant was applied.
    Timeout,
    /// The worker was shut down before it took this request.
    WorkerStopped,
    /// Another attempt of this operation is still being handled: try again later
    /// (409 Conflict in the IETF Idempotency-Key draft).
    InProgress,
    /// The request names an account other than the signed-in caller's: a key
    /// is not a credential, and the account comes from who is signed in.
    Forbidden { signed_in: String, named: String },
    /// The key was already used for a grant with other points.
    PayloadMismatch {
        stored: GrantResult,
        rejected: GrantPoints,
    },
}

impl GrantError {
    /// Whether sending the very same request again (same key) may succeed.
    ///
    /// Only what may go away is worth retrying: a lost acknowledgement (the
    /// outcome is unknown, and the stored receipt makes the retry safe) and an
    /// operation still in progress. Every other error is about the request or the
    /// worker, and repeating it gives the same error.
    pub fn is_retryable(&self) -> bool {
        matches!(self, GrantError::Timeout | GrantError::InProgress)
    }

    /// A short stable name, for logs, tests and `data-` attributes.
    pub fn code(&self) -> &'static str {
        match self {
            GrantError::EmptyKey => "empty-key",
            GrantError::EmptyAccount => "empty-account",
            GrantError::NonPositivePoints => "non-positive-points",
            GrantError::Overflow => "overflow",
            GrantError::Timeout => "timeout",
            GrantError::WorkerStopped => "worker-stopped",
            GrantError::InProgress => "in-progress",
            GrantError::Forbidden { .. } => "forbidden",
            GrantError::PayloadMismatch { .. } => "payload-mismatch",
        }
    }
}

impl fmt::Display for GrantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrantError::EmptyKey => write!(f, "the key is empty; give the operation a key"),
            GrantError::EmptyAccount => {
                write!(f, "the account is empty; say which account to credit")
            }
            GrantError::NonPositivePoints => write!(f, "points must be 1 or more"),
            GrantError::Overflow => write!(
                f,
                "the new balance would exceed {}; nothing was changed",
                i32::MAX
            ),
            GrantError::Timeout => write!(
                f,
                "no acknowledgement arrived; the grant may or may not have been applied, \
                 so retry with the same key"
            ),
            GrantError::WorkerStopped => write!(f, "the worker has stopped and takes no new work"),
            GrantError::InProgress => write!(
                f,
                "another attempt with this key is still being handled; retry in a moment"
            ),
            GrantError::Forbidden { signed_in, named } => write!(
                f,
                "signed in as {signed_in:?}, the request may not act on account {named:?}"
            ),
            GrantError::PayloadMismatch { stored, rejected } => write!(
                f,
                "key {:?} on account {:?} was already used for {} points; \
                 a request for {} points under the same key is rejected",
                stored.key, stored.account_id, stored.points, rejected.points
            ),
        }
    }
}

impl std::error::Error for GrantError {}
