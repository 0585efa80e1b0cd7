//! What narration, questions and challenges may read from the world: a small,
//! closed list of facts, each named in the data files as `name` or `name:arg`
//! (`balance:account-7`, `receipt-balance:last`). Every number a step states is
//! one of these, read from the lab at that step, never written by hand.

use crate::core::PointWorker;
use crate::lab::{AttemptRow, Invariant, LabState, Origin, RegrantCause};

/// A fact's value: a number, or a stable code (an outcome, a truth, a yes/no).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Number(i64),
    Code(String),
}

/// Which timeline row a fact reads: the n-th from the first (1-based), or counted
/// back from the newest (`last`, `last-1`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowRef {
    Nth(usize),
    FromLast(usize),
}

impl RowRef {
    fn parse(arg: &str) -> Option<RowRef> {
        if arg == "last" {
            return Some(RowRef::FromLast(0));
        }
        if let Some(back) = arg.strip_prefix("last-") {
            return back.parse().ok().map(RowRef::FromLast);
        }
        arg.parse().ok().filter(|n| *n >= 1).map(RowRef::Nth)
    }

    /// The row's index in a timeline of `len` rows, if it has that row.
    pub fn index(self, len: usize) -> Option<usize> {
        match self {
            RowRef::Nth(n) => (n <= len).then(|| n - 1),
            RowRef::FromLast(back) => len.checked_sub(back + 1),
        }
    }
}

/// One readable fact. The closed list is the contract of the data files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// The account's current balance in the store in use.
    Balance(String),
    /// The account's balance at the naive worker beside.
    NaiveBalance(String),
    /// The balance on the receipt a row's caller holds.
    ReceiptBalance(RowRef),
    /// The account's balance right after a row's attempt was answered (while
    /// its caller waits: right after the store handled it; missing before).
    RowBalance(RowRef),
    /// The points a row's attempt asked for.
    Points(RowRef),
    /// A row's attempt number (as the timeline shows it).
    Attempt(RowRef),
    /// The current balance of a row's account.
    AccountBalance(RowRef),
    /// The naive worker's balance for a row's account.
    RowNaiveBalance(RowRef),
    /// Why the store granted a row's operation again (`restart`,
    /// `crash-left-no-receipt`, `receipt-expired`, ...), `none` if it did not.
    RegrantCause(RowRef),
    /// How a row's attempt came to be (`send`, `retry-same`, `retry-fresh`, ...).
    Origin(RowRef),
    /// The error a row's caller got (`timeout`, `payload-mismatch`, ...).
    Error(RowRef),
    /// A row's outcome code (`applied`, `replayed`, `timeout-applied`, ...).
    Outcome(RowRef),
    /// What became of a timed-out row (`applied-after-timeout`, ...).
    Truth(RowRef),
    /// How many rows the timeline has.
    Rows,
    /// How many messages wait in the queue, and how many callers wait for room.
    Queued,
    WaitingForRoom,
    /// How many callers the newest burst sent at once: the burst's rows sent
    /// at the moment its newest one was (a stress run's batch job, which makes
    /// its calls as room opens up and waits without a deadline, is no burst).
    BurstSize,
    /// The queue's capacity (the article's 16).
    QueueCapacity,
    CallerTimeout,
    ProcessingTime,
    RetentionHours,
    /// Emails in the inbox.
    Emails,
    /// The store in use (`in-memory`, `balance-first`, `one-transaction`, ...).
    Store,
    /// Whether a promise holds: `yes` or `no`.
    Holds(Invariant),
    /// The balance the last separate read returned.
    ReadBalance,
}

/// Why a fact could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FactError {
    /// The name (or its argument) is not one the lab knows.
    Unknown(String),
    /// The fact exists but the world has no value for it now (no such row, no
    /// receipt on that row, nothing read yet).
    Missing(String),
    /// The fact is in no part of the picture, so it cannot mark one.
    NotDrawn(String),
}

impl std::fmt::Display for FactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FactError::Unknown(name) => write!(f, "unknown fact `{name}`"),
            FactError::Missing(name) => write!(f, "the world has no `{name}` at this step"),
            FactError::NotDrawn(name) => write!(f, "`{name}` is in no part of the picture"),
        }
    }
}

impl Fact {
    pub fn parse(text: &str) -> Result<Fact, FactError> {
        let unknown = || FactError::Unknown(text.to_string());
        let (name, arg) = match text.split_once(':') {
            Some((name, arg)) => (name, Some(arg)),
            None => (text, None),
        };
        let row = || arg.and_then(RowRef::parse).ok_or_else(unknown);
        let account = || {
            arg.filter(|a| !a.trim().is_empty())
                .map(str::to_string)
                .ok_or_else(unknown)
        };
        let bare = |fact: Fact| arg.is_none().then_some(fact).ok_or_else(unknown);
        match name {
            "balance" => Ok(Fact::Balance(account()?)),
            "naive-balance" => Ok(Fact::NaiveBalance(account()?)),
            "receipt-balance" => Ok(Fact::ReceiptBalance(row()?)),
            "row-balance" => Ok(Fact::RowBalance(row()?)),
            "points" => Ok(Fact::Points(row()?)),
            "attempt" => Ok(Fact::Attempt(row()?)),
            "outcome" => Ok(Fact::Outcome(row()?)),
            "account-balance" => Ok(Fact::AccountBalance(row()?)),
            "row-naive-balance" => Ok(Fact::RowNaiveBalance(row()?)),
            "regrant-cause" => Ok(Fact::RegrantCause(row()?)),
            "origin" => Ok(Fact::Origin(row()?)),
            "error" => Ok(Fact::Error(row()?)),
            "truth" => Ok(Fact::Truth(row()?)),
            "holds" => Invariant::ALL
                .into_iter()
                .find(|i| Some(i.code()) == arg)
                .map(Fact::Holds)
                .ok_or_else(unknown),
            "rows" => bare(Fact::Rows),
            "store" => bare(Fact::Store),
            "queued" => bare(Fact::Queued),
            "waiting-for-room" => bare(Fact::WaitingForRoom),
            "burst-size" => bare(Fact::BurstSize),
            "queue-capacity" => bare(Fact::QueueCapacity),
            "caller-timeout" => bare(Fact::CallerTimeout),
            "processing-time" => bare(Fact::ProcessingTime),
            "retention-hours" => bare(Fact::RetentionHours),
            "emails" => bare(Fact::Emails),
            "read-balance" => bare(Fact::ReadBalance),
            _ => Err(unknown()),
        }
    }

    /// Reads the fact from the lab as it is now. `name` is the fact as written,
    /// for the error.
    pub fn read(&self, state: &LabState, name: &str) -> Result<Value, FactError> {
        let missing = || FactError::Missing(name.to_string());
        let row = |at: RowRef| -> Result<&AttemptRow, FactError> {
            let rows = state.timeline();
            at.index(rows.len()).map(|i| &rows[i]).ok_or_else(missing)
        };
        let number = |n: i64| Ok(Value::Number(n));
        let code = |c: &str| Ok(Value::Code(c.to_string()));
        // An account nobody has sent to is a slip of the pen, not a zero.
        let known = |account: &str| {
            state
                .timeline()
                .iter()
                .any(|r| r.attempt.grant.account_id == account)
                .then_some(())
                .ok_or_else(missing)
        };
        let naive = |account: &str| {
            state
                .naive_balances()
                .iter()
                .find(|(a, _)| a == account)
                .map_or(0, |(_, b)| i64::from(*b))
        };
        match self {
            Fact::Balance(account) => {
                known(account)?;
                number(state.store().balance(account).into())
            }
            Fact::NaiveBalance(account) => {
                known(account)?;
                number(naive(account))
            }
            Fact::RowNaiveBalance(at) => number(naive(&row(*at)?.attempt.grant.account_id)),
            Fact::RegrantCause(at) => {
                let handled = row(*at)?.handled.as_ref().ok_or_else(missing)?;
                code(handled.regrant_cause.map_or("none", regrant_code))
            }
            Fact::ReceiptBalance(at) => row(*at)?
                .caller_receipt()
                .map(|r| Value::Number(r.balance.into()))
                .ok_or_else(missing),
            // Nothing is known of a row whose caller waits and whose attempt the
            // store has not handled yet.
            Fact::RowBalance(at) => {
                let row = row(*at)?;
                if !row.balance_known() {
                    return Err(missing());
                }
                number(row.balance_after.into())
            }
            Fact::Points(at) => number(row(*at)?.attempt.grant.points.into()),
            Fact::Attempt(at) => number(row(*at)?.attempt.id as i64),
            Fact::Outcome(at) => code(row(*at)?.outcome().code()),
            Fact::AccountBalance(at) => number(
                state
                    .store()
                    .balance(&row(*at)?.attempt.grant.account_id)
                    .into(),
            ),
            Fact::Origin(at) => code(origin_code(row(*at)?.attempt.origin)),
            Fact::Error(at) => row(*at)?
                .caller_error()
                .map(|e| Value::Code(e.code().to_string()))
                .ok_or_else(missing),
            Fact::Store => code(state.settings().store.code()),
            Fact::Truth(at) => row(*at)?
                .truth()
                .map(|t| Value::Code(t.code().to_string()))
                .ok_or_else(missing),
            Fact::Rows => number(state.timeline().len() as i64),
            Fact::Queued => number(state.queue().len() as i64),
            Fact::WaitingForRoom => number(state.waiting() as i64),
            Fact::BurstSize => {
                // A burst's callers wait at most the caller timeout; a stress
                // run's batch job waits as long as it takes.
                let burst = |r: &&AttemptRow| {
                    r.attempt.origin == Origin::Burst && r.attempt.deadline.is_some()
                };
                let rows = state.timeline();
                let newest = rows.iter().rev().find(burst).ok_or_else(missing)?;
                let sent_at = newest.attempt.sent_at;
                number(
                    rows.iter()
                        .filter(burst)
                        .filter(|r| r.attempt.sent_at == sent_at)
                        .count() as i64,
                )
            }
            Fact::QueueCapacity => number(PointWorker::CAPACITY as i64),
            Fact::CallerTimeout => number(state.settings().caller_timeout_ms as i64),
            Fact::ProcessingTime => number(state.settings().processing_ms as i64),
            Fact::RetentionHours => number(state.settings().retention_hours.into()),
            Fact::Emails => number(state.world().inbox_len() as i64),
            Fact::Holds(invariant) => code(if state.invariants().holds(*invariant) {
                "yes"
            } else {
                "no"
            }),
            Fact::ReadBalance => state
                .last_read()
                .and_then(|r| r.balance.as_ref().ok())
                .map(|b| Value::Number((*b).into()))
                .ok_or_else(missing),
        }
    }

    /// The row a fact reads, if it reads one: what a question's feedback points at.
    pub fn row(&self) -> Option<RowRef> {
        match self {
            Fact::ReceiptBalance(at)
            | Fact::RowBalance(at)
            | Fact::Points(at)
            | Fact::Attempt(at)
            | Fact::Outcome(at)
            | Fact::AccountBalance(at)
            | Fact::RowNaiveBalance(at)
            | Fact::RegrantCause(at)
            | Fact::Origin(at)
            | Fact::Error(at)
            | Fact::Truth(at) => Some(*at),
            _ => None,
        }
    }
}

fn origin_code(origin: Origin) -> &'static str {
    match origin {
        Origin::Send => "send",
        Origin::RetrySame => "retry-same",
        Origin::RetryFresh => "retry-fresh",
        Origin::Burst => "burst",
        Origin::Redelivered => "redelivered",
        Origin::AutoRetry => "auto-retry",
    }
}

fn regrant_code(cause: RegrantCause) -> &'static str {
    match cause {
        RegrantCause::Restart => "restart",
        RegrantCause::OtherProcess => "other-process",
        RegrantCause::CrashLeftNoReceipt => "crash-left-no-receipt",
        RegrantCause::ReceiptExpired => "receipt-expired",
        RegrantCause::Race => "race",
    }
}
