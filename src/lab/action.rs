//! Everything a person can do in the lab, as data. The lab's state is what the
//! simulated world makes of a list of these, so the list can be replayed,
//! exported and shared.

use serde::{Deserialize, Serialize};

use crate::core::{CrashPoint, EmailVia, GrantPoints, InFlightPolicy, Language, RetryPolicy};
use crate::sim::{Acknowledge, Routing, StoreKind};

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
    /// Hold or release the consumer. Callers' clocks keep running.
    SetPaused { paused: bool },
    /// While the consumer is paused, let it take the next delivery, and only that.
    Step,
    /// Let `ms` of virtual time pass.
    Wait { ms: u64 },
    /// Read an account's current balance, apart from any receipt.
    CheckBalance { account_id: String },
    /// End the process and start a new, empty one.
    Restart,
    /// How long each caller sent from now on waits for its answer.
    SetCallerTimeout { ms: u64 },
    /// How long the consumer works on each delivery it takes from now on.
    SetProcessingTime { ms: u64 },
    /// Whether requests sent from now on also go to the naive worker beside.
    SetNaive { on: bool },
    /// The store every worker hands its next delivery to: the process's memory,
    /// or the durable store in one of its write orders.
    SetStore { kind: StoreKind },
    /// Arms a crash at a named point (or disarms it): the first handling to reach
    /// it crashes its process, and a new process takes over.
    SetCrashPoint { point: Option<CrashPoint> },
    /// Run one worker process, or two side by side.
    SetProcesses { count: u8 },
    /// How calls are shared between two processes.
    SetRouting { routing: Routing },
    /// How long the durable store keeps a receipt before the sweeper deletes it.
    SetRetention { hours: u32 },
    /// Whether the durable store also recognises an operation by its ledger row.
    SetLedgerCheck { on: bool },
    /// Move the clock forward at once (an hour, a day, to a time), with
    /// everything due on the way happening in order.
    MoveClock { ms: u64 },
    /// Whether in-progress records are kept, and what a duplicate that finds one
    /// is given: it waits for the first attempt, or is told to retry later.
    SetInFlight { policy: InFlightPolicy },
    /// Arms (or disarms) a fault of the queue: the next message sent is
    /// delivered twice, as an at-least-once queue may.
    SetRedeliver { on: bool },
    /// When consumers acknowledge a message: as they take it, or after the work.
    SetAcknowledge { when: Acknowledge },
    /// Whether a person's callers retry by themselves (`None`: they do not):
    /// how many attempts, and the seed their backoff's jitter is drawn from.
    SetAutoRetry { policy: Option<RetryPolicy> },
    /// Whether each grant also sends a confirmation email.
    SetEmail { on: bool },
    /// How confirmation emails go: inline, or through an outbox and its relay.
    SetEmailVia { via: EmailVia },
    /// Sign a caller in (`None`: sign out). Signed in, calls act on the caller's
    /// account only; a request naming another is refused.
    SignIn { account_id: Option<String> },
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
