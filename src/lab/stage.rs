//! The stage: the world as one picture at one moment. Everything here is read
//! from the lab's folds of the event log, the recent log itself and the world's
//! stores; nothing decides what the world does. Places are fractions of a lane
//! (0 at the caller's end, 1 at the process's), so the view only positions them
//! and a right-to-left page mirrors them for free.

use crate::core::{CrashPoint, GrantError, StoreStep, Table};
use crate::sim::{AttemptId, Millis, ProcessNumber, Slot};

use super::state::{BalanceRead, LabState};
use super::timeline::{AttemptRow, MarkerKind};
pub use super::tokens::{
    tokens, Hop, Lane, LaneCount, Token, TokenKind, DROP_MARK_MS, MAX_TOKENS_PER_LANE, TRAVEL_MS,
};

/// How long a process that ended stays drawn, dark, beside the one that took over.
pub const GHOST_MS: Millis = 5_000;
/// How long a mark on a store (a conflict, a torn write, an expiry) stays drawn.
pub const STORE_MARK_MS: Millis = 5_000;
/// Callers drawn at most: the newest.
pub const MAX_CALLERS: usize = 4;
/// Rows drawn at most in a store's tables; the rest are counted.
pub const MAX_STORE_ROWS: usize = 4;
/// The newest attempts read for callers at most.
const SCAN_LIMIT: usize = 4_000;

/// Where a caller stands with its call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallerState {
    Waiting,
    Answered,
    TimedOut,
    /// Its retry policy ran out with the outcome unknown: it looked the
    /// operation up instead.
    GaveUp,
}

impl CallerState {
    /// The stable name used in `data-state`.
    pub fn code(self) -> &'static str {
        match self {
            CallerState::Waiting => "waiting",
            CallerState::Answered => "answered",
            CallerState::TimedOut => "timed-out",
            CallerState::GaveUp => "gave-up",
        }
    }
}

/// What went wrong for a caller, drawn beside it (at most one: the most telling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallerMark {
    /// The store did the work, and the answer was lost on its way back.
    LostAck,
    /// Another attempt of the operation held its record: this one waited for it.
    WaitedInProgress,
    /// Another attempt held the record: this one was told "in progress".
    ToldInProgress,
    /// Refused at the door: it named another account than its caller's.
    Refused,
    /// The store refused it (a changed payload, bad input).
    Rejected,
    /// Its process ended (or crashed) before answering.
    ProcessEnded,
    /// It was answered "applied", and its points went in a second time (an
    /// operation granted before, or a purchase paid under another key): the
    /// caller's success is the lesson's failure.
    GrantedAgain,
}

impl CallerMark {
    /// The stable name used in `data-mark`, and the legend's entry.
    pub fn code(self) -> &'static str {
        match self {
            CallerMark::LostAck => "lost-ack",
            CallerMark::WaitedInProgress => "waited-in-progress",
            CallerMark::ToldInProgress => "told-in-progress",
            CallerMark::Refused => "refused",
            CallerMark::Rejected => "rejected",
            CallerMark::ProcessEnded => "process-ended",
            CallerMark::GrantedAgain => "granted-again",
        }
    }
}

/// One caller: a person's call, or a burst's, with its retries drawn as the same
/// caller (its newest attempt).
#[derive(Debug, Clone, PartialEq)]
pub struct StageCaller {
    /// Its newest attempt.
    pub attempt: AttemptId,
    pub process: ProcessNumber,
    pub account_id: String,
    pub key: String,
    pub points: i32,
    pub state: CallerState,
    pub mark: Option<CallerMark>,
    /// While it waits: the part of its wait still left, 1 when sent, 0 at the deadline.
    pub time_left: Option<f64>,
    /// How many attempts its retry policy made, this one included.
    pub tries: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessState {
    Running,
    /// Crashed at an armed point: a new process took its slot.
    Crashed,
    /// Stopped by a restart, or taken away.
    Ended,
}

impl ProcessState {
    /// The stable name used in `data-state`.
    pub fn code(self) -> &'static str {
        match self {
            ProcessState::Running => "running",
            ProcessState::Crashed => "crashed",
            ProcessState::Ended => "ended",
        }
    }
}

/// One process: its queue, its consumer and its memory. A process that ended is
/// drawn empty and dark, for a while, beside the one that took its place.
#[derive(Debug, Clone, PartialEq)]
pub struct StageProcess {
    pub process: ProcessNumber,
    /// Where it runs (a process taken away keeps none).
    pub slot: Option<Slot>,
    pub state: ProcessState,
    pub queue: Vec<AttemptId>,
    /// Producers waiting for room.
    pub waiting: usize,
    pub in_hand: Option<AttemptId>,
    /// The memory store, when the worker uses it: the first balances by
    /// account, and how many accounts and receipts it holds.
    pub memory: Option<StoreTables>,
    /// Attempts holding an in-progress record in its memory.
    pub in_progress: Vec<AttemptId>,
    /// Attempts in its queue or in hand whose caller's deadline ran out while
    /// they waited: work nobody waits for any more, still to be done.
    pub timed_out: Vec<AttemptId>,
    /// Where it crashed, if it did.
    pub crash_point: Option<CrashPoint>,
}

/// What a store holds, as far as the picture draws it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoreTables {
    /// The first balances, by account.
    pub balances: Vec<(String, i32)>,
    pub accounts: usize,
    /// The newest receipts: (account, key, points).
    pub receipts: Vec<(String, String, i32)>,
    pub receipt_count: usize,
    /// Accounts a drawn caller (or the last read) asks about that the store
    /// holds nothing for: drawn at 0, which is what reading them returns.
    pub unheld: Vec<String>,
}

/// Something that happened to the durable store lately, marked on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreMark {
    /// A crash between two writes: `wrote` stands, the other table was not written.
    TornWrite { attempt: AttemptId, wrote: Table },
    /// The unique constraint refused a second receipt for one operation.
    Conflict { attempt: AttemptId },
    /// The sweeper deleted expired receipts.
    Expired { count: u32 },
}

impl StoreMark {
    /// The stable name used in `data-mark`.
    pub fn code(&self) -> &'static str {
        match self {
            StoreMark::TornWrite { .. } => "torn-write",
            StoreMark::Conflict { .. } => "conflict",
            StoreMark::Expired { .. } => "expired",
        }
    }
}

/// The durable store, when one is in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageDurable {
    pub tables: StoreTables,
    /// How long it keeps a receipt.
    pub retention_hours: u32,
    /// Attempts holding an in-progress record in it.
    pub in_progress: Vec<AttemptId>,
    pub marks: Vec<StoreMark>,
}

/// The confirmation emails: the outbox's rows not yet relayed, and the inboxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageMail {
    pub outbox: bool,
    pub pending: usize,
    pub delivered: usize,
    /// Operations whose customer got a second email.
    pub emailed_twice: usize,
}

/// The world at one moment, as the stage draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    pub now: Millis,
    /// The newest callers, oldest of them first.
    pub callers: Vec<StageCaller>,
    /// Callers still waiting that are not drawn.
    pub more_waiting: usize,
    /// The running processes by slot, then those that ended lately.
    pub processes: Vec<StageProcess>,
    pub tokens: Vec<Token>,
    pub lane_counts: Vec<LaneCount>,
    pub durable: Option<StageDurable>,
    /// The naive worker beside, when it is on: its balances.
    pub naive: Option<Vec<(String, i32)>>,
    pub mail: Option<StageMail>,
    /// How long a caller waits for its answer, and a grant takes the consumer.
    pub caller_timeout: Millis,
    pub processing: Millis,
    /// The last separate balance read.
    pub read: Option<BalanceRead>,
    /// The consumers are paused: they take nothing from their queues.
    pub paused: bool,
}

impl Stage {
    pub fn caller(&self, attempt: AttemptId) -> Option<&StageCaller> {
        self.callers.iter().find(|c| c.attempt == attempt)
    }

    pub fn running(&self) -> impl Iterator<Item = &StageProcess> {
        self.processes
            .iter()
            .filter(|p| p.state == ProcessState::Running)
    }

    /// How many drawn callers are in `state`.
    pub fn callers_in(&self, state: CallerState) -> usize {
        self.callers.iter().filter(|c| c.state == state).count()
    }
}

impl LabState {
    /// The picture of the world now.
    pub fn stage(&self) -> Stage {
        let now = self.now();
        let settings = self.settings();
        let (callers, more_waiting) = callers(self.timeline(), now);
        let read = self.last_read().cloned();
        // The accounts asked about: the drawn callers' and the read's. Every
        // store is asked, as a caller's next attempt may reach any of them.
        let mut asked: Vec<&str> = callers
            .iter()
            .map(|c| c.account_id.as_str())
            .chain(read.as_ref().map(|r| r.account_id.as_str()))
            .collect();
        asked.sort_unstable();
        asked.dedup();
        let mut processes: Vec<StageProcess> = self
            .lines()
            .iter()
            .map(|line| {
                let memory = (!settings.store.is_durable())
                    .then(|| self.memory_store(line.slot))
                    .flatten()
                    .map(|store| {
                        let (receipts, receipt_count) = store.receipts_page(MAX_STORE_ROWS);
                        tables(store.balances(), receipts, receipt_count, &asked)
                    });
                let timed_out = line
                    .queue
                    .iter()
                    .copied()
                    .chain(line.in_hand)
                    .filter(|&id| self.row_of(id).is_some_and(AttemptRow::answered))
                    .collect();
                StageProcess {
                    process: line.process,
                    slot: Some(line.slot),
                    state: ProcessState::Running,
                    timed_out,
                    queue: line.queue.iter().copied().collect(),
                    waiting: line.waiting.len(),
                    in_hand: line.in_hand,
                    memory,
                    in_progress: Vec::new(),
                    crash_point: None,
                }
            })
            .collect();
        processes.extend(ghosts(self.markers(), now));
        let mut durable_records = Vec::new();
        for (record, process) in self.in_progress_records() {
            let holder = record.holder.attempt;
            match process.and_then(|n| processes.iter_mut().find(|p| p.process == n)) {
                Some(p) => p.in_progress.push(holder),
                None => durable_records.push(holder),
            }
        }
        let durable = settings.store.is_durable().then(|| {
            let store = self.world().durable_store();
            let (receipts, receipt_count) = store.receipts_page(MAX_STORE_ROWS);
            StageDurable {
                tables: tables(store.balances(), receipts, receipt_count, &asked),
                retention_hours: settings.retention_hours,
                in_progress: durable_records,
                marks: store_marks(self.markers(), now),
            }
        });
        let (_, delivered, _) = self.inbox_newest(0);
        let pending = self.world().outbox_pending();
        let mail = (settings.email || delivered > 0 || pending > 0).then(|| StageMail {
            outbox: settings.email_via == crate::core::EmailVia::Outbox,
            pending,
            delivered,
            emailed_twice: self.emailed_twice(),
        });
        let (tokens, lane_counts) = tokens(&self.world().events(), now, |id| {
            self.attempt_by_id(id).map(|a| (a.process, a.transit))
        });
        Stage {
            now,
            callers,
            more_waiting,
            processes,
            tokens,
            lane_counts,
            durable,
            naive: settings.naive.then(|| self.naive_balances().to_vec()),
            mail,
            caller_timeout: settings.caller_timeout_ms,
            processing: settings.processing_ms,
            read,
            paused: settings.paused,
        }
    }
}

/// The first balances and the newest receipts of a store, and which of the
/// `asked` accounts it holds nothing for.
fn tables(
    balances: Vec<(String, i32)>,
    receipts: Vec<crate::core::GrantResult>,
    receipt_count: usize,
    asked: &[&str],
) -> StoreTables {
    let accounts = balances.len();
    let unheld = asked
        .iter()
        .filter(|a| !balances.iter().any(|(held, _)| held == *a))
        .map(|a| a.to_string())
        .collect();
    StoreTables {
        unheld,
        balances: balances.into_iter().take(MAX_STORE_ROWS).collect(),
        accounts,
        receipts: receipts
            .into_iter()
            .map(|r| (r.account_id, r.key, r.points))
            .collect(),
        receipt_count,
    }
}

/// The newest callers (a retry drawn as its caller's newest attempt; a copy
/// the queue delivered again has no caller), and how many more still wait.
pub fn callers(rows: &[AttemptRow], now: Millis) -> (Vec<StageCaller>, usize) {
    let mut drawn: Vec<StageCaller> = Vec::new();
    // Earlier attempts of callers met already (newer first), with the drawn
    // caller each belongs to, if it is drawn.
    let mut earlier: Vec<(AttemptId, Option<usize>)> = Vec::new();
    let mut more_waiting = 0;
    for row in rows.iter().rev().take(SCAN_LIMIT) {
        let attempt = &row.attempt;
        if attempt.redelivery_of.is_some() {
            continue;
        }
        let caller_of = earlier
            .iter()
            .position(|(id, _)| *id == attempt.id)
            .map(|i| earlier.swap_remove(i).1);
        let index = match caller_of {
            // An earlier try of a caller met already.
            Some(index) => {
                if let Some(caller) = index.and_then(|i| drawn.get_mut(i)) {
                    caller.tries += 1;
                }
                index
            }
            None if drawn.len() < MAX_CALLERS => {
                drawn.push(caller(row, now));
                Some(drawn.len() - 1)
            }
            None => {
                more_waiting += usize::from(!row.answered());
                None
            }
        };
        if let Some(retried) = attempt.retry_of {
            earlier.push((retried, index));
        }
    }
    drawn.reverse();
    (drawn, more_waiting)
}

fn caller(row: &AttemptRow, now: Millis) -> StageCaller {
    let attempt = &row.attempt;
    let state = if row.looked_up.is_some() {
        CallerState::GaveUp
    } else {
        match &row.caller {
            None => CallerState::Waiting,
            Some(Err(GrantError::Timeout)) => CallerState::TimedOut,
            Some(_) => CallerState::Answered,
        }
    };
    let time_left = match (state, attempt.deadline) {
        (CallerState::Waiting, Some(deadline)) => {
            let whole = deadline.saturating_sub(attempt.sent_at).max(1) as f64;
            Some((deadline.saturating_sub(now) as f64 / whole).clamp(0.0, 1.0))
        }
        _ => None,
    };
    StageCaller {
        attempt: attempt.id,
        process: attempt.process,
        account_id: attempt.grant.account_id.clone(),
        key: attempt.grant.key.clone(),
        points: attempt.grant.points,
        state,
        mark: caller_mark(row),
        time_left,
        tries: 1,
    }
}

/// The most telling thing that went wrong for a caller, if anything did.
fn caller_mark(row: &AttemptRow) -> Option<CallerMark> {
    if row.forbidden.is_some() {
        return Some(CallerMark::Refused);
    }
    if row.applied_again() {
        return Some(CallerMark::GrantedAgain);
    }
    if let Some(met) = row.met_in_progress {
        return Some(if met.waited {
            CallerMark::WaitedInProgress
        } else {
            CallerMark::ToldInProgress
        });
    }
    if row.handled.as_ref().is_some_and(|h| h.acknowledgement_lost) {
        return Some(CallerMark::LostAck);
    }
    match row.caller_error()? {
        GrantError::WorkerStopped => Some(CallerMark::ProcessEnded),
        GrantError::Timeout | GrantError::InProgress | GrantError::Forbidden { .. } => None,
        _ => Some(CallerMark::Rejected),
    }
}

/// Processes that ended lately, newest first, one a slot: crashed, or stopped.
fn ghosts(markers: &[super::timeline::Marker], now: Millis) -> Vec<StageProcess> {
    let mut ghosts = Vec::new();
    let recent = markers.iter().rev().take_while(|m| m.at + GHOST_MS > now);
    let mut crashes: Vec<(ProcessNumber, CrashPoint)> = Vec::new();
    let mut ended: Vec<(ProcessNumber, Option<Slot>)> = Vec::new();
    for marker in recent {
        match &marker.kind {
            MarkerKind::Crash { process, point, .. } => crashes.push((*process, *point)),
            MarkerKind::Restart { ended: e, slot, .. } => ended.push((*e, Some(*slot))),
            MarkerKind::ProcessEnded { process } => ended.push((*process, None)),
            _ => {}
        }
    }
    // One ghost a slot, the newest: a step that crashes thrice shows the last.
    let mut seen: Vec<Option<Slot>> = Vec::new();
    ended.retain(|(_, slot)| {
        let first = !seen.contains(slot);
        seen.push(*slot);
        first
    });
    for (process, slot) in ended {
        let crash_point = crashes
            .iter()
            .find(|(p, _)| *p == process)
            .map(|(_, point)| *point);
        ghosts.push(StageProcess {
            process,
            slot,
            state: if crash_point.is_some() {
                ProcessState::Crashed
            } else {
                ProcessState::Ended
            },
            queue: Vec::new(),
            waiting: 0,
            in_hand: None,
            memory: None,
            in_progress: Vec::new(),
            timed_out: Vec::new(),
            crash_point,
        });
    }
    ghosts
}

/// What happened to the durable store lately, oldest first.
fn store_marks(markers: &[super::timeline::Marker], now: Millis) -> Vec<StoreMark> {
    // One truth at a time: a newer crash tells what the store holds now, so
    // an older crash's torn write is no longer drawn beside it.
    let mut crash_seen = false;
    let mut marks: Vec<StoreMark> = markers
        .iter()
        .rev()
        .take_while(|m| m.at + STORE_MARK_MS > now)
        .filter(|m| {
            let superseded = crash_seen && matches!(m.kind, MarkerKind::Crash { .. });
            crash_seen |= matches!(m.kind, MarkerKind::Crash { .. });
            !superseded
        })
        .filter_map(|m| match &m.kind {
            MarkerKind::Crash {
                attempt,
                wrote,
                durable: true,
                ..
            } => {
                let written: Vec<Table> = wrote
                    .iter()
                    .filter_map(|s| match s {
                        StoreStep::Wrote(table) => Some(*table),
                        _ => None,
                    })
                    .collect();
                (written.len() == 1).then(|| StoreMark::TornWrite {
                    attempt: *attempt,
                    wrote: written[0],
                })
            }
            MarkerKind::CommitConflict { attempt, .. } => {
                Some(StoreMark::Conflict { attempt: *attempt })
            }
            MarkerKind::Expired { count, .. } => Some(StoreMark::Expired { count: *count }),
            _ => None,
        })
        .collect();
    marks.reverse();
    marks
}
