//! Everything a person can do in the lab, as data. The lab's state is what the
//! simulated world makes of a list of these, so the list can be replayed,
//! exported and shared.

use serde::{Deserialize, Serialize};

use crate::core::{CrashPoint, GrantPoints, Language};
use crate::sim::Setting;

/// The most grants one burst may queue: enough to fill the queue many times over,
/// small enough that a hostile permalink cannot freeze the page.
pub const MAX_BURST: u32 = 10_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// A caller hands this grant to the worker and waits, at most its timeout.
    Send {
        grant: GrantPoints,
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    /// Resend the last request unchanged, same key.
    RetrySame {
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    /// Resend the last request under a key never used before: a new operation.
    RetryFresh {
        #[serde(default)]
        lose_acknowledgement: bool,
    },
    /// Many callers at once, each with its own new key, to fill the queue.
    Burst {
        account_id: String,
        points: i32,
        count: u32,
    },
    /// A load test from a batch job with no deadline: `count` grants of `points`
    /// to one account, where about `duplicate_percent` of them repeat an earlier
    /// grant of the same run (same key, same points) as a redelivery would. Which
    /// ones repeat is fixed by the run, so a replay makes the same choices.
    Stress {
        account_id: String,
        points: i32,
        count: u32,
        duplicate_percent: u8,
    },
    /// While the consumer is paused, let it take the next delivery, and only that.
    Step,
    /// Let `ms` of virtual time pass.
    Wait { ms: u64 },
    /// Read an account's current balance, apart from any receipt.
    CheckBalance { account_id: String },
    /// End the process and start a new, empty one.
    Restart,
    /// Change one of the world's settings, from now on.
    Set(Setting),
    /// Arms a crash at a named point (or disarms it): the first handling to reach
    /// it crashes its process, and a new process takes over.
    SetCrashPoint { point: Option<CrashPoint> },
    /// Move the clock forward at once (an hour, a day, to a time), with
    /// everything due on the way happening in order.
    MoveClock { ms: u64 },
    /// Arms (or disarms) a fault of the queue: the next message sent is
    /// delivered twice, as an at-least-once queue may.
    SetRedeliver { on: bool },
    /// Sign a caller in (`None`: sign out). Signed in, calls act on the caller's
    /// account only; a request naming another is refused.
    SignIn { account_id: Option<String> },
    /// Crash this running process now: its memory, queue and work in hand are
    /// lost, and a new process takes its place.
    CrashProcess { process: u32 },
    /// Lose the answer to this attempt where it is now, on its way back to its
    /// caller (a network time must be set for an answer to be on its way).
    LoseAnswer { attempt: u64 },
    /// Set an account's preferred language: idempotent by nature, no key needed.
    SetPreferredLanguage {
        account_id: String,
        language: Language,
    },
}

impl Action {
    /// How many grants this action queues.
    pub fn sends(&self) -> u64 {
        match self {
            Action::Send { .. } | Action::RetrySame { .. } | Action::RetryFresh { .. } => 1,
            Action::Burst { count, .. } | Action::Stress { count, .. } => u64::from(*count),
            _ => 0,
        }
    }

    /// The free text an action carries (accounts and keys), for size checks on import.
    pub fn texts(&self) -> Vec<&str> {
        match self {
            Action::Send { grant, .. } => vec![grant.account_id.as_str(), grant.key.as_str()],
            Action::Burst { account_id, .. }
            | Action::Stress { account_id, .. }
            | Action::CheckBalance { account_id }
            | Action::SetPreferredLanguage { account_id, .. }
            | Action::SignIn {
                account_id: Some(account_id),
            } => vec![account_id.as_str()],
            _ => Vec::new(),
        }
    }
}
