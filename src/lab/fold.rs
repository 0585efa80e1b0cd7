//! What the page shows, folded from the world's event log: the queue, the
//! producers waiting for room, the delivery in hand, the timeline rows, and the
//! naive side's balances. The world decides; this only keeps count.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::{CrashPoint, GrantError, StoreStep, Table};
use crate::sim::{AttemptId, Event, Happening, ProcessNumber, Slot};

use super::invariants::Invariants;
use super::timeline::{
    Attempt, AttemptRow, DurableWrites, Forbidden, Handling, LookedUp, Marker, MarkerKind,
    MetInProgress, Origin, RegrantCause,
};

/// One process's line: its queue, the producers waiting for room, the delivery
/// in its consumer's hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub process: ProcessNumber,
    pub slot: Slot,
    pub queue: VecDeque<AttemptId>,
    pub waiting: VecDeque<AttemptId>,
    pub in_hand: Option<AttemptId>,
}

impl Line {
    fn new(process: ProcessNumber, slot: Slot) -> Self {
        Line {
            process,
            slot,
            queue: VecDeque::new(),
            waiting: VecDeque::new(),
            in_hand: None,
        }
    }
}

#[derive(Debug)]
pub(super) struct Fold {
    /// Every attempt sent so far, by id - 1 (a batch's later attempts are sent as
    /// room opens up, so a slot stays empty until its attempt is sent).
    attempts: Vec<Option<Tracked>>,
    /// How many attempts each exact request (account, key, points) has had.
    requests: FxHashMap<(String, String, i32), u32>,
    /// Every (account, key) any attempt used, so a fresh key is really fresh.
    pub used_keys: FxHashSet<(String, String)>,
    /// Attempts a person sent (bursts and stress runs aside), oldest first.
    pub by_hand: Vec<AttemptId>,
    /// The running processes' lines, by slot.
    pub lines: Vec<Line>,
    /// The attempt the running process's store handled last: what a balance read
    /// now reflects.
    pub last_handled: Option<AttemptId>,
    /// A row per attempt sent, in sending order, updated as it goes.
    pub timeline: Vec<AttemptRow>,
    /// How many of those rows' callers have heard something.
    pub answered: usize,
    /// (account, balance) on the naive side in the current process, sorted by account.
    pub naive_balances: Vec<(String, i32)>,
    /// Where each operation (account, key) was first applied, to tell a grant
    /// made again after a restart.
    /// The attempt (and its process) that first added each operation's points,
    /// to tell a grant made again (after a restart, on the other process, after
    /// a crash between writes or an expired receipt).
    first_grant: FxHashMap<(String, String), (AttemptId, ProcessNumber)>,
    /// The purchase each (account, key) first paid for: a request sent again
    /// under a used key pays for that purchase too.
    key_purchase: FxHashMap<(String, String), AttemptId>,
    /// Operations whose durable receipt the sweeper deleted since their last grant.
    expired: FxHashSet<(String, String)>,
    /// What happened between the attempts' rows: crashes, restarts, conflicts,
    /// expiries and clock moves.
    pub markers: Vec<Marker>,
    pub invariants: Invariants,
    /// What the last caller that retried by itself waited before each retry:
    /// (retry, ms), in order.
    pub last_waits: Vec<(u32, u64)>,
    /// How many emails reached an inbox for each operation (account, key).
    emails: FxHashMap<(String, String), u32>,
    /// How many operations' customers got more than one email.
    pub emailed_twice: usize,
    /// How much of the log is folded in.
    seen: usize,
}

impl Default for Fold {
    fn default() -> Self {
        Fold {
            attempts: Vec::new(),
            requests: FxHashMap::default(),
            used_keys: FxHashSet::default(),
            by_hand: Vec::new(),
            // The world starts with process 1 running, unannounced.
            lines: vec![Line::new(1, 1)],
            last_handled: None,
            timeline: Vec::new(),
            answered: 0,
            naive_balances: Vec::new(),
            first_grant: FxHashMap::default(),
            key_purchase: FxHashMap::default(),
            expired: FxHashSet::default(),
            markers: Vec::new(),
            invariants: Invariants::default(),
            last_waits: Vec::new(),
            emails: FxHashMap::default(),
            emailed_twice: 0,
            seen: 0,
        }
    }
}

#[derive(Debug)]
pub(super) struct Tracked {
    pub attempt: Attempt,
    pub handled: Option<Handling>,
    /// Its timeline row (every attempt has one from the moment it is sent).
    pub row: usize,
    pub never_handled: bool,
    /// The store's steps for it so far, in order.
    pub steps: Vec<StoreStep>,
    /// Whether those steps were in the durable store.
    pub durable: bool,
    /// It added points that an earlier attempt (of that process) had already
    /// added, and why the store did not know.
    pub regranted: Option<(AttemptId, ProcessNumber, RegrantCause)>,
    pub crashed_at: Option<CrashPoint>,
    pub met_in_progress: Option<MetInProgress>,
    /// Whether its delivery reached a queue.
    pub queued: bool,
    pub forbidden: Option<Forbidden>,
}

impl Tracked {
    /// Whether its handling wrote the balance on its own, apart from the receipt
    /// (a store written balance first): those points stay whatever comes next, a
    /// crash or a receipt that loses a race.
    fn wrote_balance_alone(&self) -> bool {
        self.steps.contains(&StoreStep::Wrote(Table::Balance))
    }
}

impl Fold {
    /// Folds in the events the world has logged since the last call.
    pub fn catch_up(&mut self, log: &[Event]) {
        for event in &log[self.seen..] {
            self.apply(event);
        }
        self.seen = log.len();
    }

    pub fn attempt(&self, id: AttemptId) -> Option<&Tracked> {
        self.attempts.get((id - 1) as usize)?.as_ref()
    }

    fn tracked(&mut self, id: AttemptId) -> &mut Tracked {
        self.attempts[(id - 1) as usize]
            .as_mut()
            .expect("the world reports an attempt only after it was sent")
    }

    fn sent(&mut self, attempt: Attempt) {
        let index = (attempt.id - 1) as usize;
        if self.attempts.len() <= index {
            self.attempts.resize_with(index + 1, || None);
        }
        let row = self.timeline.len();
        self.timeline.push(AttemptRow::sent(attempt.clone()));
        self.attempts[index] = Some(Tracked {
            attempt,
            handled: None,
            row,
            never_handled: false,
            steps: Vec::new(),
            durable: false,
            regranted: None,
            crashed_at: None,
            met_in_progress: None,
            queued: false,
            forbidden: None,
        });
    }

    /// The line of the process `id` was sent to, if that process still runs.
    fn line_of(&mut self, id: AttemptId) -> Option<&mut Line> {
        let process = self.tracked(id).attempt.process;
        self.lines.iter_mut().find(|l| l.process == process)
    }

    /// Expiries in one instant between the same two rows make one marker.
    fn mark_expired(&mut self, at: u64, account_id: &str, key: &str, retention: u64) {
        match self.markers.last_mut() {
            Some(Marker {
                at: last_at,
                kind: MarkerKind::Expired { count, .. },
                before_row,
            }) if *last_at == at && *before_row == self.timeline.len() => *count += 1,
            _ => self.mark(
                at,
                MarkerKind::Expired {
                    count: 1,
                    account_id: account_id.to_owned(),
                    key: key.to_owned(),
                    retention,
                },
            ),
        }
    }

    /// Why the store did not know an operation that `first` had granted.
    fn regrant_cause(
        &self,
        first: (AttemptId, ProcessNumber),
        op: &(String, String),
        durable: bool,
    ) -> RegrantCause {
        let earlier = self.attempt(first.0).expect("the first grant was sent");
        if earlier.crashed_at.is_some() && earlier.wrote_balance_alone() {
            RegrantCause::CrashLeftNoReceipt
        } else if self.expired.contains(op) {
            RegrantCause::ReceiptExpired
        } else if durable {
            RegrantCause::Race
        } else if self.lines.iter().any(|l| l.process == first.1) {
            RegrantCause::OtherProcess
        } else {
            RegrantCause::Restart
        }
    }

    /// The earlier attempt that had paid this attempt's purchase under another
    /// key, when this one paid it again: a fresh key, a new operation to the
    /// store, the same purchase to the customer.
    fn paid_before_under_other_key(&self, attempt: AttemptId) -> Option<AttemptId> {
        let first = self.invariants.paid_before_by(attempt)?;
        let key = |id: AttemptId| self.attempt(id).map(|t| &t.attempt.grant.key);
        (key(first) != key(attempt)).then_some(first)
    }

    fn mark(&mut self, at: u64, kind: MarkerKind) {
        self.markers.push(Marker {
            at,
            before_row: self.timeline.len(),
            kind,
        });
    }

    /// The attempt the retry buttons resend: the newest one a person sent
    /// (bursts aside) that the store has not refused. What the store did is
    /// taken from what happened, not predicted: a request still on its way
    /// counts, since nobody knows yet, and one the store refused would only be
    /// refused again.
    pub fn retry_target(&self) -> Option<AttemptId> {
        self.by_hand.iter().rev().copied().find(|id| {
            self.attempt(*id).is_some_and(|tracked| {
                let refused = tracked.handled.as_ref().is_some_and(|h| h.store.is_err())
                    || tracked.forbidden.is_some();
                !refused
            })
        })
    }

    /// The purchase a newly sent attempt pays for: a person's retry (same key
    /// or fresh) the one its request started, a caller's retry and the queue's
    /// copy their original's, a request under a key already used that key's
    /// first; anything else starts a purchase of its own.
    fn purchase_of_sent(
        &self,
        attempt: AttemptId,
        origin: Origin,
        grant: &crate::core::GrantPoints,
        original: Option<AttemptId>,
    ) -> AttemptId {
        let of = |id: AttemptId| self.invariants.purchase_of(id);
        match origin {
            Origin::RetrySame | Origin::RetryFresh => self.retry_target().map(of),
            Origin::Redelivered | Origin::AutoRetry => original.map(of),
            Origin::Send | Origin::Burst => None,
        }
        .or_else(|| {
            self.key_purchase
                .get(&(grant.account_id.clone(), grant.key.clone()))
                .copied()
        })
        .unwrap_or(attempt)
    }

    fn apply(&mut self, event: &Event) {
        if let Happening::Sent {
            attempt,
            origin,
            grant,
            redelivery_of,
            retry_of,
            ..
        } = &event.what
        {
            let purchase =
                self.purchase_of_sent(*attempt, *origin, grant, redelivery_of.or(*retry_of));
            self.invariants.pays_for(*attempt, purchase);
            self.key_purchase
                .entry((grant.account_id.clone(), grant.key.clone()))
                .or_insert(purchase);
        }
        self.invariants.apply(event);
        match &event.what {
            Happening::Sent {
                attempt,
                process,
                grant,
                acknowledgement_will_be_lost,
                origin,
                redelivery_of,
                retry_of,
                deadline,
                transit,
            } => {
                let origin = *origin;
                let count = self
                    .requests
                    .entry((grant.account_id.clone(), grant.key.clone(), grant.points))
                    .or_insert(0);
                *count += 1;
                let attempt_of_request = *count;
                let new_key = self
                    .used_keys
                    .insert((grant.account_id.clone(), grant.key.clone()));
                let reuses_key = attempt_of_request == 1 && !new_key;
                if !matches!(
                    origin,
                    Origin::Burst | Origin::Redelivered | Origin::AutoRetry
                ) {
                    self.by_hand.push(*attempt);
                }
                let attempt = Attempt {
                    id: *attempt,
                    grant: grant.clone(),
                    origin,
                    attempt_of_request,
                    reuses_key,
                    lose_acknowledgement: *acknowledgement_will_be_lost,
                    process: *process,
                    sent_at: event.at,
                    deadline: *deadline,
                    redelivery_of: *redelivery_of,
                    retry_of: *retry_of,
                    transit: *transit,
                };
                self.sent(attempt);
            }
            Happening::ProcessStarted { process, slot } => {
                // A new process's store has handled nothing yet.
                if *slot == 1 {
                    self.last_handled = None;
                }
                // Lines stay in slot order; a restart's new process takes its slot.
                let line = Line::new(*process, *slot);
                match self.lines.binary_search_by_key(slot, |l| l.slot) {
                    Ok(i) => self.lines[i] = line,
                    Err(i) => self.lines.insert(i, line),
                }
                // An end and a start in one slot at one moment are one restart.
                let kind = match self.markers.last() {
                    Some(Marker {
                        at,
                        kind: MarkerKind::ProcessEnded { process: ended },
                        ..
                    }) if *at == event.at && !self.lines.iter().any(|l| l.process == *ended) => {
                        let ended = *ended;
                        self.markers.pop();
                        MarkerKind::Restart {
                            ended,
                            started: *process,
                            slot: *slot,
                        }
                    }
                    _ => MarkerKind::ProcessStarted {
                        process: *process,
                        slot: *slot,
                    },
                };
                self.mark(event.at, kind);
            }
            Happening::WaitingForRoom { attempt } => {
                if let Some(line) = self.line_of(*attempt) {
                    line.waiting.push_back(*attempt);
                }
            }
            Happening::Queued { attempt } => {
                self.tracked(*attempt).queued = true;
                if let Some(line) = self.line_of(*attempt) {
                    remove(&mut line.waiting, *attempt);
                    line.queue.push_back(*attempt);
                }
            }
            Happening::Taken { attempt } => {
                if let Some(line) = self.line_of(*attempt) {
                    remove(&mut line.queue, *attempt);
                    line.in_hand = Some(*attempt);
                }
            }
            Happening::Store {
                attempt,
                step,
                durable,
            } => {
                if *step == StoreStep::Conflict {
                    let tracked = self.tracked(*attempt);
                    let rolled_back = tracked
                        .steps
                        .iter()
                        .any(|s| matches!(s, StoreStep::Staged(_)));
                    let points_stay = tracked.wrote_balance_alone();
                    let process = tracked.attempt.process;
                    self.mark(
                        event.at,
                        MarkerKind::CommitConflict {
                            attempt: *attempt,
                            process,
                            rolled_back,
                            points_stay,
                        },
                    );
                }
                if matches!(
                    step,
                    StoreStep::WroteBoth | StoreStep::Wrote(Table::Balance) | StoreStep::Committed
                ) {
                    let tracked = self.tracked(*attempt);
                    let grant = &tracked.attempt.grant;
                    let op = (grant.account_id.clone(), grant.key.clone());
                    let this = (*attempt, tracked.attempt.process);
                    let first = *self.first_grant.entry(op.clone()).or_insert(this);
                    let regrant = (first != this).then(|| {
                        let cause = self.regrant_cause(first, &op, *durable);
                        self.expired.remove(&op);
                        (first.0, first.1, cause)
                    });
                    self.tracked(*attempt).regranted = regrant;
                }
                let tracked = self.tracked(*attempt);
                tracked.steps.push(*step);
                tracked.durable = *durable;
            }
            Happening::Crashed {
                attempt,
                process,
                point,
            } => {
                let tracked = self.tracked(*attempt);
                tracked.crashed_at = Some(*point);
                // A transaction's staged writes die with the process.
                let wrote: Vec<StoreStep> = tracked
                    .steps
                    .iter()
                    .filter(|s| !matches!(s, StoreStep::Staged(_)))
                    .copied()
                    .collect();
                let durable = tracked.durable;
                self.sync_row(*attempt);
                self.mark(
                    event.at,
                    MarkerKind::Crash {
                        process: *process,
                        attempt: *attempt,
                        point: *point,
                        wrote,
                        durable,
                    },
                );
            }
            Happening::Expired {
                account_id,
                key,
                retention,
            } => {
                self.expired.insert((account_id.clone(), key.clone()));
                self.mark_expired(event.at, account_id, key, *retention);
            }
            Happening::InProgress {
                attempt,
                holder,
                waits,
            } => {
                let tracked = self.tracked(*attempt);
                tracked.met_in_progress = Some(MetInProgress {
                    holder: *holder,
                    waited: *waits,
                });
                // Told to retry later, it never reaches the queue.
                tracked.never_handled = !*waits;
                self.sync_row(*attempt);
            }
            Happening::Forbidden { attempt, leak } => {
                let tracked = self.tracked(*attempt);
                tracked.forbidden = Some(Forbidden { leak: leak.clone() });
                tracked.never_handled = true;
                self.sync_row(*attempt);
            }
            Happening::LanguageSet {
                account_id,
                language,
                previous,
            } => self.mark(
                event.at,
                MarkerKind::LanguageSet {
                    account_id: account_id.clone(),
                    language: *language,
                    previous: *previous,
                },
            ),
            Happening::Backoff {
                attempt,
                wait,
                retry,
            } => {
                if *retry == 1 {
                    self.last_waits.clear();
                }
                self.last_waits.push((*retry, *wait));
                self.mark(
                    event.at,
                    MarkerKind::Backoff {
                        attempt: *attempt,
                        wait: *wait,
                        retry: *retry,
                    },
                );
            }
            Happening::LookedUp { attempt, receipt } => {
                let looked = LookedUp {
                    receipt: receipt.clone(),
                };
                let row = self.tracked(*attempt).row;
                self.timeline[row].looked_up = Some(looked);
            }
            Happening::Emailed {
                account_id,
                key,
                outbox,
                outcome,
            } => {
                let delivered = *outcome == crate::core::MailOutcome::Delivered;
                if delivered {
                    let op = (account_id.clone(), key.clone());
                    let count = self.emails.entry(op).or_insert(0);
                    *count += 1;
                    if *count == 2 {
                        self.emailed_twice += 1;
                    }
                }
                self.mark(
                    event.at,
                    MarkerKind::Email {
                        account_id: account_id.clone(),
                        key: key.clone(),
                        outbox: *outbox,
                        delivered,
                    },
                )
            }
            Happening::ClockMoved { from } => {
                self.mark(event.at, MarkerKind::Clock { from: *from })
            }
            Happening::AnswerLost { attempt } => {
                // Lost on its way back: however the loss was decided, the row
                // says the store did the work and the caller never heard.
                if let Some(handled) = self.tracked(*attempt).handled.as_mut() {
                    handled.acknowledgement_lost = true;
                }
                self.sync_row(*attempt);
            }
            Happening::Handled {
                attempt,
                store,
                acknowledgement_lost,
                balance,
            } => {
                // (A duplicate that waited for the first is answered from the
                // store without passing through the consumer's hands.)
                if let Some(line) = self.line_of(*attempt) {
                    if line.in_hand == Some(*attempt) {
                        line.in_hand = None;
                    }
                }
                self.last_handled = Some(*attempt);
                let tracked = self.tracked(*attempt);
                let steps = &tracked.steps;
                // Applied, or a balance written on its own that stays when the
                // receipt then loses to another attempt's (a transaction's staged
                // writes are gone with its rollback).
                let points_added = matches!(store, Ok(crate::core::StoreOutcome::Applied(_)))
                    || tracked.wrote_balance_alone();
                let handling = Handling {
                    at: event.at,
                    points_added,
                    store: store.clone(),
                    // An answer that travels is lost where it drops, on its
                    // way back (the world says so then); one that takes no
                    // time is lost as it leaves.
                    acknowledgement_lost: *acknowledgement_lost && tracked.attempt.transit == 0,
                    balance_after: *balance,
                    granted_before_in: tracked.regranted.map(|(_, p, _)| p),
                    granted_before_by: tracked.regranted.map(|(a, _, _)| a),
                    regrant_cause: tracked.regranted.map(|(_, _, c)| c),
                    paid_before_by: None,
                    conflict: steps.contains(&StoreStep::Conflict),
                    by_ledger: steps.contains(&StoreStep::RecognisedByLedger),
                    durable_writes: durable_writes(steps),
                };
                let paid_before_by = self.paid_before_under_other_key(*attempt);
                self.tracked(*attempt).handled = Some(Handling {
                    paid_before_by,
                    ..handling
                });
                self.sync_row(*attempt);
            }
            Happening::Answered {
                attempt,
                answer,
                balance,
            } => self.answer(*attempt, event.at, answer.clone(), *balance),
            Happening::TimedOut { attempt, balance } => {
                // A caller that gives up while waiting for room takes its request
                // back: it never reaches the queue.
                let gave_up = self
                    .line_of(*attempt)
                    .is_some_and(|line| remove(&mut line.waiting, *attempt));
                // So does one that gives up waiting for another attempt's record.
                let tracked = self.tracked(*attempt);
                let gave_up_waiting =
                    !tracked.queued && tracked.met_in_progress.is_some_and(|m| m.waited);
                if gave_up || gave_up_waiting {
                    tracked.never_handled = true;
                }
                self.answer(*attempt, event.at, Err(GrantError::Timeout), *balance);
            }
            Happening::ProcessEnded { process } => {
                let Some(index) = self.lines.iter().position(|l| l.process == *process) else {
                    return;
                };
                let mut line = self.lines.remove(index);
                // The naive side's store lived in process 1 too: its new process
                // starts from nothing, as the idempotent side's does.
                if line.slot == 1 {
                    self.naive_balances.clear();
                }
                let lost: Vec<AttemptId> = line
                    .queue
                    .drain(..)
                    .chain(line.waiting.drain(..))
                    .chain(line.in_hand.take())
                    .collect();
                for id in lost {
                    let tracked = self.tracked(id);
                    // A handling that crashed midway may have written: not "never".
                    if tracked.crashed_at.is_some() {
                        continue;
                    }
                    tracked.never_handled = true;
                    self.sync_row(id);
                }
                self.mark(event.at, MarkerKind::ProcessEnded { process: *process });
            }
            Happening::NaiveHandled { attempt, balance } => {
                // The naive side's balances shown are those of the process in slot 1.
                let process = self.tracked(*attempt).attempt.process;
                if !self
                    .lines
                    .iter()
                    .any(|l| l.slot == 1 && l.process == process)
                {
                    return;
                }
                let index = (*attempt - 1) as usize;
                let account = &self.attempts[index]
                    .as_ref()
                    .expect("sent before handled")
                    .attempt
                    .grant
                    .account_id;
                let balances = &mut self.naive_balances;
                match balances.binary_search_by(|(a, _)| a.as_str().cmp(account)) {
                    Ok(i) => balances[i].1 = *balance,
                    Err(i) => balances.insert(i, (account.clone(), *balance)),
                }
            }
        }
    }

    /// Copies what is known of an attempt into its row: what the store did, and
    /// what became of it. While its caller waits, the row's balance is the one
    /// right after the store's work, once there is one.
    fn sync_row(&mut self, id: AttemptId) {
        let tracked = self
            .attempt(id)
            .expect("the world reports an attempt only after it was sent");
        let index = tracked.row;
        let (handled, never_handled, crashed_at, met, forbidden) = (
            tracked.handled.clone(),
            tracked.never_handled,
            tracked.crashed_at,
            tracked.met_in_progress,
            tracked.forbidden.clone(),
        );
        let row = &mut self.timeline[index];
        // A caller that stopped waiting heard no balance: the row's is the
        // store's, once its work is done (a timeout's work may come later).
        let caller_heard_balance = row.answered() && row.caller != Some(Err(GrantError::Timeout));
        if !caller_heard_balance {
            if let Some(handled) = &handled {
                row.balance_after = handled.balance_after;
            }
        }
        row.handled = handled;
        row.never_handled = never_handled;
        row.crashed_at = crashed_at;
        row.met_in_progress = met;
        row.forbidden = forbidden;
    }

    fn answer(
        &mut self,
        id: AttemptId,
        at: u64,
        caller: Result<crate::core::GrantResult, GrantError>,
        balance: i32,
    ) {
        let tracked = self.tracked(id);
        // Its process was gone before its delivery reached a queue (it was
        // waiting for another attempt's record): the store never saw it.
        if caller == Err(GrantError::WorkerStopped)
            && !tracked.queued
            && tracked.handled.is_none()
            && tracked.crashed_at.is_none()
        {
            tracked.never_handled = true;
        }
        // The balance right after the store's work on it, when the store has
        // worked on it (other deliveries applied in the same instant come after
        // it); otherwise the balance at the answer.
        let balance_after = match &tracked.handled {
            Some(handled) => handled.balance_after,
            None => balance,
        };
        let handled_before_answer = tracked.handled.is_some();
        self.sync_row(id);
        let index = self.tracked(id).row;
        let row = &mut self.timeline[index];
        row.answered_at = Some(at);
        row.caller = Some(caller);
        row.balance_after = balance_after;
        row.handled_before_answer = handled_before_answer;
        self.answered += 1;
    }
}

/// How the durable store wrote a grant, read from its steps.
fn durable_writes(steps: &[StoreStep]) -> Option<DurableWrites> {
    let first = steps.iter().find_map(|s| match s {
        StoreStep::Committed => Some(DurableWrites::OneCommit),
        StoreStep::Wrote(Table::Receipt) => Some(DurableWrites::ReceiptThenBalance),
        StoreStep::Wrote(Table::Balance) => Some(DurableWrites::BalanceThenReceipt),
        _ => None,
    })?;
    // Both writes made: a conflict or a crash between them is told elsewhere.
    let both = match first {
        DurableWrites::OneCommit => true,
        _ => {
            steps
                .iter()
                .filter(|s| matches!(s, StoreStep::Wrote(_)))
                .count()
                == 2
        }
    };
    both.then_some(first)
}

/// Removes `id` from a line, looking from the front where it almost always is.
fn remove(line: &mut VecDeque<AttemptId>, id: AttemptId) -> bool {
    match line.iter().position(|x| *x == id) {
        Some(i) => {
            line.remove(i);
            true
        }
        None => false,
    }
}
