//! What the world reports, each with its virtual time. The lab's views are folds
//! of this log; two runs of one history give the same log, byte for byte.

use serde::{Deserialize, Serialize};

use crate::core::{
    CrashPoint, GrantError, GrantPoints, GrantResult, Language, MailOutcome, StoreOutcome,
    StoreStep,
};

use super::clock::Millis;
use super::settings::Slot;

/// Numbers one attempt: a call of one caller, from sending to its answer.
pub type AttemptId = u64;
/// Counts processes from 1; a restart starts the next one.
pub type ProcessNumber = u32;

/// Who sent an attempt: a person (a request, or a retry with the same or a
/// fresh key), a burst or a batch job, the queue, or a caller's retry policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    Send,
    RetrySame,
    RetryFresh,
    Burst,
    /// The queue delivered a message again: nobody called.
    Redelivered,
    /// The caller's retry policy sent it again, after a backoff.
    AutoRetry,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub at: Millis,
    #[serde(flatten)]
    pub what: Happening,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Happening {
    /// A caller hands the attempt to the process's worker, and waits for the
    /// answer until `deadline` (a patient caller, such as a batch job, has none).
    Sent {
        attempt: AttemptId,
        /// Who sent it.
        origin: Origin,
        process: ProcessNumber,
        deadline: Option<Millis>,
        grant: GrantPoints,
        acknowledgement_will_be_lost: bool,
        /// Sent by the queue, which delivers this attempt's message again.
        #[serde(skip_serializing_if = "Option::is_none")]
        redelivery_of: Option<AttemptId>,
        /// Sent by the caller's retry policy, after this attempt failed.
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_of: Option<AttemptId>,
        /// How long the request takes to reach the process, and its answer to
        /// come back (0, unsaid: both arrive at once).
        #[serde(skip_serializing_if = "is_zero")]
        transit: Millis,
    },
    /// The queue was full: the caller waits for room.
    WaitingForRoom {
        attempt: AttemptId,
    },
    Queued {
        attempt: AttemptId,
    },
    /// The consumer took it out of the queue and starts working on it.
    Taken {
        attempt: AttemptId,
    },
    /// `PointStore::apply` ran: what the store did, whether the fault then lost the
    /// acknowledgement, and the account's balance right after.
    Handled {
        attempt: AttemptId,
        store: Result<StoreOutcome, GrantError>,
        acknowledgement_lost: bool,
        balance: i32,
    },
    /// The answer dropped on its way back to the caller, half way: the
    /// caller hears nothing of it.
    AnswerLost {
        attempt: AttemptId,
    },
    /// The caller heard back before its deadline, with the account's balance then.
    Answered {
        attempt: AttemptId,
        answer: Result<GrantResult, GrantError>,
        balance: i32,
    },
    /// The caller's deadline passed with no answer.
    TimedOut {
        attempt: AttemptId,
        balance: i32,
    },
    /// The process ended: its memory, queue and work in hand are gone.
    ProcessEnded {
        process: ProcessNumber,
    },
    ProcessStarted {
        process: ProcessNumber,
        /// Where it runs: 1, or 2 beside it.
        #[serde(skip_serializing_if = "is_first_slot")]
        slot: Slot,
    },
    /// The process crashed at an armed crash point while handling the attempt.
    /// What the store had written so far is all it wrote; a restart follows.
    Crashed {
        attempt: AttemptId,
        process: ProcessNumber,
        point: CrashPoint,
    },
    /// A step the store took while handling the attempt: a write, a commit, a
    /// conflict on the unique constraint, a ledger row that recognised it.
    Store {
        attempt: AttemptId,
        /// In the durable store, or in the process's memory.
        durable: bool,
        #[serde(flatten)]
        step: StoreStep,
    },
    /// The sweeper deleted an expired receipt from the durable store.
    Expired {
        account_id: String,
        key: String,
        /// The retention in force: how long it was kept.
        retention: Millis,
    },
    /// Someone moved the clock forward (from `from` to the event's time).
    ClockMoved {
        from: Millis,
    },
    /// The attempt found its operation's in-progress record held by `holder`:
    /// it waits for the release (`waits`), or its caller is told to retry later.
    InProgress {
        attempt: AttemptId,
        holder: AttemptId,
        waits: bool,
    },
    /// The request named an account other than the signed-in caller's, and was
    /// refused before the store was asked. `leak` is the receipt a store that
    /// trusted the request would have handed over, if one is stored.
    Forbidden {
        attempt: AttemptId,
        leak: Option<GrantResult>,
    },
    /// The mail service got a confirmation email for (`account_id`, `key`):
    /// from the outbox's relay (with the operation's id) or inline, and what
    /// it did with it.
    Emailed {
        account_id: String,
        key: String,
        outbox: bool,
        outcome: MailOutcome,
    },
    /// The caller's attempt failed with what may go away: it waits `wait` ms
    /// before its retry number `retry`.
    Backoff {
        attempt: AttemptId,
        wait: Millis,
        retry: u32,
    },
    /// The caller's attempts ran out with the outcome unknown: it looked the
    /// operation up by its key and found this receipt (or none).
    LookedUp {
        attempt: AttemptId,
        receipt: Option<GrantResult>,
    },
    /// An account's preferred language was set; `previous` is what it was.
    LanguageSet {
        account_id: String,
        language: Language,
        previous: Option<Language>,
    },
    /// The naive worker beside (which treats every delivery as new) applied its copy
    /// of the attempt; the account's balance on that side is now `balance`.
    NaiveHandled {
        attempt: AttemptId,
        balance: i32,
    },
}

impl Happening {
    /// The attempt this is about, if it is about one.
    pub fn attempt(&self) -> Option<AttemptId> {
        match self {
            Happening::Sent { attempt, .. }
            | Happening::WaitingForRoom { attempt }
            | Happening::Queued { attempt }
            | Happening::Taken { attempt }
            | Happening::Handled { attempt, .. }
            | Happening::AnswerLost { attempt }
            | Happening::Answered { attempt, .. }
            | Happening::TimedOut { attempt, .. }
            | Happening::NaiveHandled { attempt, .. }
            | Happening::Crashed { attempt, .. }
            | Happening::InProgress { attempt, .. }
            | Happening::Forbidden { attempt, .. }
            | Happening::Backoff { attempt, .. }
            | Happening::LookedUp { attempt, .. }
            | Happening::Store { attempt, .. } => Some(*attempt),
            Happening::ProcessEnded { .. }
            | Happening::ProcessStarted { .. }
            | Happening::Expired { .. }
            | Happening::ClockMoved { .. }
            | Happening::LanguageSet { .. }
            | Happening::Emailed { .. } => None,
        }
    }
}

/// A message that takes no time goes unsaid, so a log from before transit
/// reads as it always did.
fn is_zero(ms: &Millis) -> bool {
    *ms == 0
}

/// Process 1's slot goes unsaid, so a one-process log reads as it always did.
fn is_first_slot(slot: &Slot) -> bool {
    *slot == 1
}
