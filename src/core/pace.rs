//! How a store's work meets the world around it: where the work takes its time,
//! the named moments at which a process may crash, and what the store reports of
//! its writes. The article's worker needs none of it; the lab's world uses it to
//! show write orders, crash windows and commit conflicts.

use std::future::Future;

use serde::{Deserialize, Serialize};

use super::error::GrantError;
use super::grant::{GrantPoints, StoreOutcome};

/// A named moment inside one grant's handling at which the process can crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashPoint {
    /// The work is done, and nothing is written yet.
    BeforeWrites,
    /// One of the two writes is made, the other is not.
    BetweenWrites,
    /// Everything is committed; the answer has not left yet.
    AfterCommit,
}

impl CrashPoint {
    pub const ALL: [CrashPoint; 3] = [
        CrashPoint::BeforeWrites,
        CrashPoint::BetweenWrites,
        CrashPoint::AfterCommit,
    ];

    /// A short stable name, for `data-` attributes and option values.
    pub fn code(self) -> &'static str {
        match self {
            CrashPoint::BeforeWrites => "before-writes",
            CrashPoint::BetweenWrites => "between-writes",
            CrashPoint::AfterCommit => "after-commit",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.code() == code)
    }
}

/// The two tables a grant writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Table {
    /// The account's balance (and, in the durable store, the operation's ledger row).
    Balance,
    Receipt,
}

/// What a store did on the way to its outcome, step by step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "step", content = "table", rename_all = "kebab-case")]
pub enum StoreStep {
    /// A write that holds at once: a durable statement of its own.
    Wrote(Table),
    /// Both writes in one step under one lock, as the in-memory store makes them.
    WroteBoth,
    /// A write inside a transaction: nobody sees it, and a crash undoes it, until commit.
    Staged(Table),
    /// The transaction's writes now hold, all together.
    Committed,
    /// Another attempt of the same operation committed its receipt first: the
    /// unique constraint refused this one. In a transaction its writes are rolled
    /// back; outside one, a write already made stays.
    Conflict,
    /// No receipt was found (it expired), but the operation's ledger row was:
    /// the store knows the operation was granted and grants nothing.
    RecognisedByLedger,
}

/// What the world gives a store while it handles one grant.
pub trait Pace {
    /// Awaited once, after the store has read what it needs and before it writes:
    /// how long the work takes. Two attempts in flight at once meet here.
    fn work(&self) -> impl Future<Output = ()>;
    /// Awaited at each crash point. A crash never resolves it: the process ends
    /// there, and what was written so far is all that was written.
    fn reach(&self, point: CrashPoint) -> impl Future<Output = ()>;
    /// A step the store took, for the world's log; `durable` says which store took it.
    fn note(&self, _step: StoreStep, _durable: bool) {}
    /// The world's time, in milliseconds, for what the store dates (receipts).
    fn now(&self) -> u64 {
        0
    }
}

/// Pacing for a store used on its own: no time, no crash, nothing reported.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unpaced;

impl Pace for Unpaced {
    async fn work(&self) {}
    async fn reach(&self, _point: CrashPoint) {}
}

/// A store the worker can hand grants to.
pub trait GrantStore: 'static {
    /// Handles one grant at most once per (account, key), pacing its steps with `pace`.
    fn apply_paced<P: Pace>(
        &self,
        grant: &GrantPoints,
        pace: &P,
    ) -> impl Future<Output = Result<StoreOutcome, GrantError>>;
}
