//! One row per attempt, from the moment it is sent: what the caller got (nothing
//! yet, while it waits) beside what the store did, and, after a timeout, what
//! really became of the attempt.

use crate::core::{
    CrashPoint, GrantError, GrantPoints, GrantResult, Language, StoreOutcome, StoreStep,
};
pub use crate::sim::Origin;
use crate::sim::{AttemptId, Millis, ProcessNumber, Slot};

/// One call of one caller, from sending until its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Counts every attempt in the lab from 1, in sending order.
    pub id: AttemptId,
    pub grant: GrantPoints,
    pub origin: Origin,
    /// 1 for the first attempt of this exact request (account, key and points),
    /// 2 for its first retry, ... A request that reuses a key with other points is
    /// not a retry: it starts at 1 (and the store will say what it makes of it).
    pub attempt_of_request: u32,
    /// The first attempt of a request whose key an earlier request of the account
    /// used with other points: not a retry, and not a new operation either (the
    /// store will say what it makes of it).
    pub reuses_key: bool,
    pub lose_acknowledgement: bool,
    /// The process it was sent to.
    pub process: ProcessNumber,
    pub sent_at: Millis,
    /// When its caller stops waiting; `None` for a patient caller (a batch job)
    /// and for a copy the queue delivered again (nobody waits for it).
    pub deadline: Option<Millis>,
    /// The queue delivered this attempt's message again.
    pub redelivery_of: Option<AttemptId>,
    /// The caller's retry policy sent this after that attempt failed.
    pub retry_of: Option<AttemptId>,
    /// How long its request takes to reach the process, and its answer to
    /// come back (0: at once).
    pub transit: Millis,
}

/// What the store did with an attempt, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handling {
    pub at: Millis,
    pub store: Result<StoreOutcome, GrantError>,
    /// This attempt's own writes added the points, and they stand: an applied
    /// grant, or one written balance first that then lost the race for the receipt
    /// and returned the winner's (the points it added stay).
    pub points_added: bool,
    /// The fault struck after the store's work: the answer never left.
    pub acknowledgement_lost: bool,
    /// The account's balance right after.
    pub balance_after: i32,
    /// The store added points that an earlier attempt had already added for the
    /// same operation (a restart or another process forgot it, a crash left no
    /// receipt, or the receipt expired): the process of that earlier attempt...
    pub granted_before_in: Option<ProcessNumber>,
    /// ... and the attempt itself.
    pub granted_before_by: Option<AttemptId>,
    /// Why the store did not know the operation when it granted it again.
    pub regrant_cause: Option<RegrantCause>,
    /// The store added points for a purchase this earlier attempt had already
    /// paid under another key: a fresh key is a new operation to the store.
    pub paid_before_by: Option<AttemptId>,
    /// The unique constraint refused this attempt's receipt: another attempt of
    /// the operation had committed first, and this one returned that receipt.
    pub conflict: bool,
    /// Its receipt had expired; the operation's ledger row recognised it.
    pub by_ledger: bool,
    /// How the durable store wrote it, if it wrote: both in one commit, or two
    /// writes each committed on its own.
    pub durable_writes: Option<DurableWrites>,
}

/// How the durable store made a grant's writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DurableWrites {
    /// Both in one transaction, committed together.
    OneCommit,
    /// The receipt, then the balance.
    ReceiptThenBalance,
    /// The balance, then the receipt.
    BalanceThenReceipt,
}

impl DurableWrites {
    /// The stable name used in `data-writes`.
    pub fn code(self) -> &'static str {
        match self {
            DurableWrites::OneCommit => "one-commit",
            DurableWrites::ReceiptThenBalance => "receipt-then-balance",
            DurableWrites::BalanceThenReceipt => "balance-then-receipt",
        }
    }
}

impl Handling {
    /// Whether the store added the points: what it did, even where it then
    /// answered with a stored receipt (not a replay that added nothing, not a refusal).
    pub fn applied(&self) -> bool {
        self.points_added
    }
}

/// Why a store granted an operation whose points an earlier attempt had added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegrantCause {
    /// The earlier process ended, and its memory with the receipt.
    Restart,
    /// The other process, still running, had applied it in its own memory.
    OtherProcess,
    /// The earlier attempt added the points and crashed before its receipt.
    CrashLeftNoReceipt,
    /// The receipt was deleted when its retention ran out.
    ReceiptExpired,
    /// Both attempts were at work at once, and neither found a receipt.
    Race,
}

/// The combined verdict of one attempt, as the page colours and labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Sent, and its caller has not heard anything yet: the row says what is
    /// known so far (the store may already have applied it).
    Pending,
    /// Applied, and the caller got the receipt.
    Applied,
    /// The stored receipt was returned; nothing changed.
    Replayed,
    /// Refused: bad input or a changed payload. Nothing changed.
    Rejected,
    /// The caller timed out, and the store did not apply the grant (yet, or at all).
    Timeout,
    /// The caller timed out, but the store applied the grant: the trap of the article.
    TimeoutApplied,
    /// The process ended before answering: the caller got an error.
    ProcessEnded,
    /// Another attempt of the operation was in progress: the caller was told to
    /// retry later, and the store never saw this one.
    InProgress,
    /// A copy the queue delivered again, whatever the store made of it (the
    /// row says): nobody was waiting for it.
    Redelivered,
    /// It named another account than the signed-in caller's: refused before
    /// any store was asked.
    Forbidden,
    /// The caller's last attempt: out of attempts with the outcome unknown, it
    /// looked the operation up instead of retrying again.
    GaveUpLookedUp,
}

impl Outcome {
    /// The stable name used in `data-outcome`.
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Pending => "pending",
            Outcome::Applied => "applied",
            Outcome::Replayed => "replayed",
            Outcome::Rejected => "rejected",
            Outcome::Timeout => "timeout",
            Outcome::TimeoutApplied => "timeout-applied",
            Outcome::ProcessEnded => "process-ended",
            Outcome::InProgress => "in-progress",
            Outcome::Redelivered => "redelivered",
            Outcome::Forbidden => "forbidden",
            Outcome::GaveUpLookedUp => "gave-up-looked-up",
        }
    }
}

/// What really became of an attempt whose caller timed out. The caller cannot
/// know it; the lab can, once it has happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Truth {
    /// The store never applied it: refused, given up while waiting for room, or
    /// lost with its process.
    NeverApplied,
    /// The store recognised the key and returned the stored receipt: this attempt
    /// added nothing (before or after the deadline).
    ReturnedReceipt,
    /// The store had dealt with it before the deadline; only the answer was missing.
    AppliedBeforeTimeout,
    /// It was still queued or running at the deadline, and was applied afterwards.
    AppliedAfterTimeout,
    /// Still queued or running: nobody knows yet.
    Pending,
    /// Its process crashed while handling it: the crash row says what was written.
    Crashed,
}

impl Truth {
    /// The stable name used in `data-truth`.
    pub fn code(self) -> &'static str {
        match self {
            Truth::NeverApplied | Truth::ReturnedReceipt => "never-applied",
            Truth::AppliedBeforeTimeout => "applied-before-timeout",
            Truth::AppliedAfterTimeout => "applied-after-timeout",
            Truth::Pending => "pending",
            Truth::Crashed => "crashed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRow {
    pub attempt: Attempt,
    /// When its caller heard something; `None` while it waits.
    pub answered_at: Option<Millis>,
    /// What the caller got: the receipt, a rejection, `Timeout` when its deadline
    /// passed, or `WorkerStopped` when the process ended; `None` while it waits.
    pub caller: Option<Result<GrantResult, GrantError>>,
    /// The account's current balance right after the store's work on this
    /// attempt (for one the store never worked on, when its caller heard
    /// something): the store's truth, which the receipt's balance may lag
    /// behind. A timed-out attempt the store applies later gets the balance
    /// after that work. Before the store has worked on it and while its caller
    /// waits: 0 (see [`Self::balance_known`]).
    pub balance_after: i32,
    /// What the store did, once it has (possibly after the answer).
    pub handled: Option<Handling>,
    /// Whether the store had dealt with it by the time the caller got its answer.
    pub handled_before_answer: bool,
    /// The store will never see it: the caller gave up waiting for room, or the
    /// process ended while it was queued or in hand.
    pub never_handled: bool,
    /// Its process crashed at this point while handling it.
    pub crashed_at: Option<CrashPoint>,
    /// It found its operation's in-progress record held by another attempt.
    pub met_in_progress: Option<MetInProgress>,
    /// Refused: it named another account than the signed-in caller's.
    pub forbidden: Option<Forbidden>,
    /// The caller's last attempt: it gave up and looked the operation up.
    pub looked_up: Option<LookedUp>,
}

/// What a caller that ran out of attempts found when it looked its operation up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookedUp {
    /// The stored receipt: the operation was applied (`None`: not found).
    pub receipt: Option<GrantResult>,
}

/// A request refused for naming another account than the signed-in caller's,
/// and what a store that trusted the request would have given away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    /// The receipt it would have handed over (`None`: it would have added the
    /// points to that account instead).
    pub leak: Option<GrantResult>,
}

/// A duplicate found its operation in progress: which attempt held the record,
/// and whether this one waited for it or was told to retry later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MetInProgress {
    pub holder: AttemptId,
    pub waited: bool,
}

impl AttemptRow {
    /// The row of an attempt just sent: nobody has heard anything yet.
    pub fn sent(attempt: Attempt) -> Self {
        AttemptRow {
            attempt,
            answered_at: None,
            caller: None,
            balance_after: 0,
            handled: None,
            handled_before_answer: false,
            never_handled: false,
            crashed_at: None,
            met_in_progress: None,
            forbidden: None,
            looked_up: None,
        }
    }

    /// Whether its caller has heard something (an answer, a timeout, an error).
    pub fn answered(&self) -> bool {
        self.caller.is_some()
    }

    /// Whether `balance_after` says something: once answered, or once the store
    /// has handled it.
    pub fn balance_known(&self) -> bool {
        self.answered() || self.handled.is_some()
    }

    /// Applied, and its points went in a second time: for an operation an
    /// earlier attempt had granted, or for a purchase one had paid under
    /// another key. Such a row never reads as a plain success.
    pub fn applied_again(&self) -> bool {
        self.outcome() == Outcome::Applied
            && self
                .handled
                .as_ref()
                .is_some_and(|h| h.granted_before_by.is_some() || h.paid_before_by.is_some())
    }

    pub fn outcome(&self) -> Outcome {
        if self.attempt.redelivery_of.is_some() {
            return Outcome::Redelivered;
        }
        if self.looked_up.is_some() {
            return Outcome::GaveUpLookedUp;
        }
        let applied = self.handled.as_ref().is_some_and(Handling::applied);
        let Some(caller) = &self.caller else {
            return Outcome::Pending;
        };
        match caller {
            Ok(_) if applied => Outcome::Applied,
            Ok(_) => Outcome::Replayed,
            Err(GrantError::Timeout) if applied => Outcome::TimeoutApplied,
            Err(GrantError::Timeout) => Outcome::Timeout,
            Err(GrantError::WorkerStopped) => Outcome::ProcessEnded,
            Err(GrantError::InProgress) => Outcome::InProgress,
            Err(GrantError::Forbidden { .. }) => Outcome::Forbidden,
            Err(_) => Outcome::Rejected,
        }
    }

    /// For a timed-out attempt, what really happened to it; `None` otherwise.
    pub fn truth(&self) -> Option<Truth> {
        if self.caller != Some(Err(GrantError::Timeout)) {
            return None;
        }
        Some(match &self.handled {
            Some(h) if h.applied() && self.handled_before_answer => Truth::AppliedBeforeTimeout,
            Some(h) if h.applied() => Truth::AppliedAfterTimeout,
            Some(Handling {
                store: Ok(StoreOutcome::Replayed(_)),
                ..
            }) => Truth::ReturnedReceipt,
            Some(_) => Truth::NeverApplied,
            None if self.crashed_at.is_some() => Truth::Crashed,
            None if self.never_handled => Truth::NeverApplied,
            None => Truth::Pending,
        })
    }

    /// The receipt the caller holds, if the answer reached it.
    pub fn caller_receipt(&self) -> Option<&GrantResult> {
        self.caller.as_ref()?.as_ref().ok()
    }

    /// The error the caller got, if any (a timeout included).
    pub fn caller_error(&self) -> Option<&GrantError> {
        self.caller.as_ref()?.as_ref().err()
    }

    /// Why the store refused, if it did.
    pub fn store_error(&self) -> Option<&GrantError> {
        self.handled.as_ref()?.store.as_ref().err()
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

/// A row of the timeline that is not an attempt: something that happened to the
/// processes, the stores or the clock, between the attempts' rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub at: Millis,
    /// How many attempt rows came before it.
    pub before_row: usize,
    pub kind: MarkerKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkerKind {
    /// A process crashed at an armed point while handling `attempt`; `wrote` is
    /// what stands of that handling's writes (a transaction's staged writes are gone).
    Crash {
        process: ProcessNumber,
        attempt: AttemptId,
        point: CrashPoint,
        wrote: Vec<StoreStep>,
        durable: bool,
    },
    /// A process ended and a new, empty one took its slot.
    Restart {
        ended: ProcessNumber,
        started: ProcessNumber,
        slot: Slot,
    },
    /// A second process started beside the first.
    ProcessStarted { process: ProcessNumber, slot: Slot },
    /// The second process was taken away.
    ProcessEnded { process: ProcessNumber },
    /// The unique constraint refused `attempt`'s receipt: another attempt of the
    /// operation committed first. `rolled_back` when its writes were undone with
    /// it (a transaction); otherwise the points it added stay.
    CommitConflict {
        attempt: AttemptId,
        process: ProcessNumber,
        rolled_back: bool,
        /// Outside a transaction: it had already added its points, which stay.
        points_stay: bool,
    },
    /// The sweeper deleted `count` expired receipts at once, the first of them
    /// for (`account_id`, `key`).
    Expired {
        count: u32,
        account_id: String,
        key: String,
        /// The retention in force when they expired, in ms.
        retention: Millis,
    },
    /// Someone moved the clock forward from `from` to the marker's time.
    Clock { from: Millis },
    /// The mail service got a confirmation email: from the outbox's relay or
    /// inline, delivered to the inbox or dropped as a copy.
    Email {
        account_id: String,
        key: String,
        outbox: bool,
        delivered: bool,
    },
    /// A caller's `attempt` failed with what may go away; it waits `wait` ms
    /// before its retry number `retry`.
    Backoff {
        attempt: AttemptId,
        wait: Millis,
        retry: u32,
    },
    /// An account's preferred language was set; `previous` is what it was, so
    /// a repeat shows that nothing changed.
    LanguageSet {
        account_id: String,
        language: Language,
        previous: Option<Language>,
    },
}

impl MarkerKind {
    /// The stable name used in `data-event`.
    pub fn code(&self) -> &'static str {
        match self {
            MarkerKind::Crash { .. } => "crash",
            MarkerKind::Restart { .. } => "restart",
            MarkerKind::ProcessStarted { .. } => "process-started",
            MarkerKind::ProcessEnded { .. } => "process-ended",
            MarkerKind::CommitConflict { .. } => "commit-conflict",
            MarkerKind::Expired { .. } => "expired",
            MarkerKind::Clock { .. } => "clock",
            MarkerKind::LanguageSet { .. } => "language-set",
            MarkerKind::Backoff { .. } => "backoff",
            MarkerKind::Email { .. } => "email",
        }
    }

    /// For a marker of an operation that may change nothing: whether it changed
    /// anything.
    pub fn changed(&self) -> Option<bool> {
        match self {
            MarkerKind::LanguageSet {
                language, previous, ..
            } => Some(*previous != Some(*language)),
            _ => None,
        }
    }
}
