//! One row per finished attempt: what the store did beside what the caller got.

use serde::{Deserialize, Serialize};

use crate::core::{Delivered, GrantError, GrantPoints, GrantResult, StoreOutcome};

/// How an attempt came to be, so the timeline can say "retry" where it was one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    Send,
    RetrySame,
    RetryFresh,
    Burst,
}

/// A delivery from the moment a producer sends it until the consumer answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Counts every attempt in the lab from 1, in sending order.
    pub id: u64,
    pub grant: GrantPoints,
    pub origin: Origin,
    /// 1 for the first attempt with this (account, key), 2 for its first retry, ...
    pub attempt_of_key: u32,
    pub lose_acknowledgement: bool,
}

/// The combined verdict of one attempt, as the page colours and labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Applied, and the caller got the receipt.
    Applied,
    /// The stored receipt was returned; nothing changed.
    Replayed,
    /// Refused: bad input or a changed payload. Nothing changed.
    Rejected,
    /// The caller timed out, but the store only returned the stored receipt.
    Timeout,
    /// The caller timed out *after* the store applied the grant: the trap of the article.
    TimeoutApplied,
}

impl Outcome {
    /// The stable name used in `data-outcome`.
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Applied => "applied",
            Outcome::Replayed => "replayed",
            Outcome::Rejected => "rejected",
            Outcome::Timeout => "timeout",
            Outcome::TimeoutApplied => "timeout-applied",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRow {
    pub attempt: Attempt,
    pub delivered: Delivered,
    /// The account's current balance right after this attempt: the store's truth,
    /// which the receipt's balance may lag behind.
    pub balance_after: i32,
}

impl AttemptRow {
    pub fn outcome(&self) -> Outcome {
        match (&self.delivered.store, &self.delivered.caller) {
            (Err(_), _) => Outcome::Rejected,
            (Ok(StoreOutcome::Applied(_)), Err(_)) => Outcome::TimeoutApplied,
            (Ok(StoreOutcome::Replayed(_)), Err(_)) => Outcome::Timeout,
            (Ok(StoreOutcome::Applied(_)), Ok(_)) => Outcome::Applied,
            (Ok(StoreOutcome::Replayed(_)), Ok(_)) => Outcome::Replayed,
        }
    }

    /// The receipt the caller holds, if the acknowledgement reached it.
    pub fn caller_receipt(&self) -> Option<&GrantResult> {
        self.delivered.caller.as_ref().ok()
    }

    /// The error the caller got, if any (a timeout included).
    pub fn caller_error(&self) -> Option<&GrantError> {
        self.delivered.caller.as_ref().err()
    }

    /// Why the store refused, if it did.
    pub fn store_error(&self) -> Option<&GrantError> {
        self.delivered.store.as_ref().err()
    }
}

/// The slice of a long timeline to render, `size` rows ending at `end` (clamped),
/// or the newest rows when `end` is `None`. Keeps the page's DOM bounded, and a
/// page anchored by its end stays put while new rows arrive.
pub fn page_window(total: usize, end: Option<usize>, size: usize) -> std::ops::Range<usize> {
    let size = size.max(1);
    let end = end.map_or(total, |e| e.clamp(size.min(total), total));
    end.saturating_sub(size)..end
}
