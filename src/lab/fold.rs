//! What the page shows, folded from the world's event log: the queue, the
//! producers waiting for room, the delivery in hand, the timeline rows, and the
//! naive side's balances. The world decides; this only keeps count.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::{GrantError, StoreOutcome};
use crate::sim::{AttemptId, Event, Happening, ProcessNumber};

use super::timeline::{Attempt, AttemptRow, Handling, Origin};

#[derive(Debug, Default)]
pub(super) struct Fold {
    /// Every attempt sent so far, by id - 1 (a batch's later attempts are sent as
    /// room opens up, so a slot stays empty until its attempt is sent).
    attempts: Vec<Option<Tracked>>,
    /// How the attempts from each id on came to be: (first id, origin), in order.
    origins: Vec<(AttemptId, Origin)>,
    /// How many attempts each exact request (account, key, points) has had.
    requests: FxHashMap<(String, String, i32), u32>,
    /// Every (account, key) any attempt used, so a fresh key is really fresh.
    pub used_keys: FxHashSet<(String, String)>,
    /// Attempts a person sent (bursts and stress runs aside), oldest first.
    pub by_hand: Vec<AttemptId>,
    pub queue: VecDeque<AttemptId>,
    pub waiting: VecDeque<AttemptId>,
    pub in_hand: Option<AttemptId>,
    /// The attempt the running process's store handled last: what a balance read
    /// now reflects.
    pub last_handled: Option<AttemptId>,
    pub timeline: Vec<AttemptRow>,
    /// (account, balance) on the naive side in the current process, sorted by account.
    pub naive_balances: Vec<(String, i32)>,
    /// Where each operation (account, key) was first applied, to tell a grant
    /// made again after a restart.
    applied_in: FxHashMap<(String, String), ProcessNumber>,
    /// How much of the log is folded in.
    seen: usize,
}

#[derive(Debug)]
pub(super) struct Tracked {
    pub attempt: Attempt,
    pub handled: Option<Handling>,
    /// Its timeline row, once the caller has heard something.
    pub row: Option<usize>,
    pub never_handled: bool,
}

impl Fold {
    /// Folds in the events the world has logged since the last call.
    pub fn catch_up(&mut self, log: &[Event]) {
        for event in &log[self.seen..] {
            self.apply(event);
        }
        self.seen = log.len();
    }

    /// Says how the attempts from `first` on come to be, before they are sent.
    /// Each run starts after the last: an attempt's origin never changes.
    pub fn expect(&mut self, first: AttemptId, origin: Origin) {
        assert!(
            self.origins.last().is_none_or(|(last, _)| *last < first),
            "attempt {first} was already expected"
        );
        self.origins.push((first, origin));
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
        self.attempts[index] = Some(Tracked {
            attempt,
            handled: None,
            row: None,
            never_handled: false,
        });
    }

    fn apply(&mut self, event: &Event) {
        match &event.what {
            Happening::Sent {
                attempt,
                process,
                grant,
                acknowledgement_will_be_lost,
                ..
            } => {
                let at = self.origins.partition_point(|(first, _)| first <= attempt);
                let origin = self.origins[at - 1].1;
                let count = self
                    .requests
                    .entry((grant.account_id.clone(), grant.key.clone(), grant.points))
                    .or_insert(0);
                *count += 1;
                let attempt_of_request = *count;
                self.used_keys
                    .insert((grant.account_id.clone(), grant.key.clone()));
                if origin != Origin::Burst {
                    self.by_hand.push(*attempt);
                }
                let attempt = Attempt {
                    id: *attempt,
                    grant: grant.clone(),
                    origin,
                    attempt_of_request,
                    lose_acknowledgement: *acknowledgement_will_be_lost,
                    process: *process,
                    sent_at: event.at,
                };
                self.sent(attempt);
            }
            // A new process's store has handled nothing yet.
            Happening::ProcessStarted { .. } => self.last_handled = None,
            Happening::WaitingForRoom { attempt } => self.waiting.push_back(*attempt),
            Happening::Queued { attempt } => {
                remove(&mut self.waiting, *attempt);
                self.queue.push_back(*attempt);
            }
            Happening::Taken { attempt } => {
                remove(&mut self.queue, *attempt);
                self.in_hand = Some(*attempt);
            }
            Happening::Handled {
                attempt,
                store,
                acknowledgement_lost,
                balance,
            } => {
                self.in_hand = None;
                self.last_handled = Some(*attempt);
                let granted_before_in = match store {
                    Ok(StoreOutcome::Applied(receipt)) => {
                        let process = self.tracked(*attempt).attempt.process;
                        let operation = (receipt.account_id.clone(), receipt.key.clone());
                        let first = *self.applied_in.entry(operation).or_insert(process);
                        (first != process).then_some(first)
                    }
                    _ => None,
                };
                let handling = Handling {
                    at: event.at,
                    store: store.clone(),
                    acknowledgement_lost: *acknowledgement_lost,
                    balance_after: *balance,
                    granted_before_in,
                };
                let tracked = self.tracked(*attempt);
                tracked.handled = Some(handling.clone());
                if let Some(row) = tracked.row {
                    self.timeline[row].handled = Some(handling);
                }
            }
            Happening::Answered {
                attempt,
                answer,
                balance,
            } => self.answer(*attempt, event.at, answer.clone(), *balance),
            Happening::TimedOut { attempt, balance } => {
                // A caller that gives up while waiting for room takes its request
                // back: it never reaches the queue.
                if remove(&mut self.waiting, *attempt) {
                    self.tracked(*attempt).never_handled = true;
                }
                self.answer(*attempt, event.at, Err(GrantError::Timeout), *balance);
            }
            Happening::ProcessEnded { .. } => {
                // The naive side's store lived in the ended process too: the new
                // one starts from nothing, as the idempotent side's does.
                self.naive_balances.clear();
                let lost: Vec<AttemptId> = self
                    .queue
                    .drain(..)
                    .chain(self.waiting.drain(..))
                    .chain(self.in_hand.take())
                    .collect();
                for id in lost {
                    let tracked = self.tracked(id);
                    tracked.never_handled = true;
                    if let Some(row) = tracked.row {
                        self.timeline[row].never_handled = true;
                    }
                }
            }
            Happening::NaiveHandled { attempt, balance } => {
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

    fn answer(
        &mut self,
        id: AttemptId,
        at: u64,
        caller: Result<crate::core::GrantResult, GrantError>,
        balance: i32,
    ) {
        let row = self.timeline.len();
        let tracked = self.tracked(id);
        tracked.row = Some(row);
        // An answer straight from the store carries the balance right after its
        // work: other deliveries applied in the same instant come after it.
        let balance_after = match &tracked.handled {
            Some(handled) if caller != Err(GrantError::Timeout) => handled.balance_after,
            _ => balance,
        };
        let row = AttemptRow {
            attempt: tracked.attempt.clone(),
            answered_at: at,
            caller,
            balance_after,
            handled: tracked.handled.clone(),
            handled_before_answer: tracked.handled.is_some(),
            never_handled: tracked.never_handled,
        };
        self.timeline.push(row);
    }
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
