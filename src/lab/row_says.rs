//! What a timeline row and a crash marker say, decided here once and before
//! any language: which case each cell shows, with its facts. The page turns
//! each case into words of its language; a test reads the cases natively.

use crate::core::{CrashPoint, GrantError, StoreOutcome, StoreStep, Table};
use crate::sim::AttemptId;

use super::timeline::AttemptRow;

/// The store's cell: what the store did with the attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreSays {
    /// It added these points (and they stand, whatever receipt it returned).
    Applied {
        points: i32,
    },
    /// It found the operation's receipt and added nothing.
    Replayed,
    Rejected(GrantError),
    /// Its process crashed at this point while handling it.
    CrashedAt(CrashPoint),
    /// It never will: the attempt was refused, withdrawn or lost with its process.
    Never,
    /// Not yet: the attempt is on its way.
    NotYet,
}

/// The caller's cell: what the caller heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallerSays {
    /// A copy the queue delivered: nobody called, nobody hears.
    Queue,
    /// Nothing yet: still waiting.
    Waiting,
    Receipt {
        balance: i32,
    },
    Timeout,
    ProcessEnded,
    Error(GrantError),
}

/// Which attempt of which request this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptSays {
    /// The queue delivered this attempt's message again.
    RedeliveryOf(AttemptId),
    /// The caller's retry policy sent it again after this attempt.
    RetryOf(AttemptId),
    /// The first attempt of a request reusing a key with other points.
    KeyReused,
    /// The n-th attempt of this exact request.
    Nth(u32),
}

/// How the store knew the operation, when it was not by its own receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownBy {
    /// Another attempt's commit won the race; this one returned its receipt.
    LostRaceReceipt,
    /// Another attempt's commit won the race.
    LostRace,
    /// The ledger row stood in for an expired receipt.
    Ledger,
}

/// Everything a row's cells say, as cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSays {
    pub store: StoreSays,
    pub caller: CallerSays,
    pub attempt: AttemptSays,
    pub known_by: Option<KnownBy>,
}

impl AttemptRow {
    /// What this row says, cell by cell.
    pub fn says(&self) -> RowSays {
        RowSays {
            store: self.store_says(),
            caller: self.caller_says(),
            attempt: self.attempt_says(),
            known_by: self.known_by(),
        }
    }

    fn store_says(&self) -> StoreSays {
        let Some(handled) = &self.handled else {
            return match self.crashed_at {
                // The marker row before says what stands of its writes.
                Some(point) => StoreSays::CrashedAt(point),
                None if self.never_handled => StoreSays::Never,
                None => StoreSays::NotYet,
            };
        };
        match &handled.store {
            Ok(StoreOutcome::Applied(receipt)) => StoreSays::Applied {
                points: receipt.points,
            },
            // Its balance write stands though its receipt lost the race: it
            // added points, whatever receipt it then returned.
            Ok(StoreOutcome::Replayed(_)) if handled.applied() => StoreSays::Applied {
                points: self.attempt.grant.points,
            },
            Ok(StoreOutcome::Replayed(_)) => StoreSays::Replayed,
            Err(e) => StoreSays::Rejected(e.clone()),
        }
    }

    fn caller_says(&self) -> CallerSays {
        if self.attempt.redelivery_of.is_some() {
            return CallerSays::Queue;
        }
        match &self.caller {
            None => CallerSays::Waiting,
            Some(Ok(receipt)) => CallerSays::Receipt {
                balance: receipt.balance,
            },
            Some(Err(GrantError::Timeout)) => CallerSays::Timeout,
            Some(Err(GrantError::WorkerStopped)) => CallerSays::ProcessEnded,
            Some(Err(e)) => CallerSays::Error(e.clone()),
        }
    }

    fn attempt_says(&self) -> AttemptSays {
        let attempt = &self.attempt;
        match (attempt.redelivery_of, attempt.retry_of) {
            (Some(original), _) => AttemptSays::RedeliveryOf(original),
            (None, Some(previous)) => AttemptSays::RetryOf(previous),
            (None, None) if attempt.reuses_key => AttemptSays::KeyReused,
            (None, None) => AttemptSays::Nth(attempt.attempt_of_request),
        }
    }

    fn known_by(&self) -> Option<KnownBy> {
        let handled = self.handled.as_ref()?;
        if handled.conflict {
            Some(match handled.store {
                Ok(StoreOutcome::Replayed(_)) => KnownBy::LostRaceReceipt,
                _ => KnownBy::LostRace,
            })
        } else if handled.by_ledger {
            Some(KnownBy::Ledger)
        } else {
            None
        }
    }
}

/// What a crash left of its handling's writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashLeft {
    /// Nothing was written yet.
    Nothing,
    /// Receipt first, crashed between: a completion with no points.
    ReceiptOnly,
    /// Balance first, crashed between: points with no receipt.
    PointsOnly,
    /// One transaction, crashed before commit: its staged writes are gone.
    StagedGone,
    /// Everything committed; only the answer is missing.
    Committed,
    /// The store was the process's memory: what it wrote went with it.
    MemoryGone,
}

impl CrashLeft {
    /// What a crash at `point` left, given the steps the store had taken
    /// (`wrote`) and whether the store was the durable one.
    pub fn of(point: CrashPoint, wrote: &[StoreStep], durable: bool) -> CrashLeft {
        let wrote_any = |table: Table| {
            wrote.iter().any(|s| {
                *s == StoreStep::Wrote(table)
                    || matches!(s, StoreStep::WroteBoth | StoreStep::Committed)
            })
        };
        match (wrote_any(Table::Balance), wrote_any(Table::Receipt)) {
            // Only a transaction reaches the point between its writes with
            // nothing written: both are staged, and staged writes die with the
            // process.
            (false, false) if durable && point == CrashPoint::BetweenWrites => {
                CrashLeft::StagedGone
            }
            (false, false) => CrashLeft::Nothing,
            _ if !durable => CrashLeft::MemoryGone,
            (true, true) => CrashLeft::Committed,
            (false, true) => CrashLeft::ReceiptOnly,
            (true, false) => CrashLeft::PointsOnly,
        }
    }
}
