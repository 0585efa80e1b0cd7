//! In-progress records: an operation (account, key) is claimed when its first
//! attempt is accepted and released once the store has dealt with it, so a
//! duplicate that arrives meanwhile is recognised before it reaches the store.
//! AWS Powertools' idempotency utility writes such a record (status
//! `INPROGRESS`) before the handler runs; the IETF Idempotency-Key draft answers
//! a duplicate that finds one with 409 Conflict.
//!
//! A real record carries a lease, so that one whose holder died lapses by
//! itself; the lab's world releases a dead process's records when it ends, as if
//! the lease ran out at once.

use std::sync::{Arc, Mutex, MutexGuard};

use futures::channel::oneshot;
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

use super::grant::GrantPoints;

/// What a duplicate that finds an operation in progress is given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InFlightPolicy {
    /// No record is kept: the duplicate goes on to the store, which decides.
    #[default]
    NoRecord,
    /// It waits until the first attempt is dealt with, then asks the store,
    /// which returns that attempt's receipt.
    Wait,
    /// It is told at once that the operation is in progress, to retry later
    /// (409 Conflict in the IETF draft).
    RetryLater,
}

impl InFlightPolicy {
    pub const ALL: [InFlightPolicy; 3] = [
        InFlightPolicy::NoRecord,
        InFlightPolicy::Wait,
        InFlightPolicy::RetryLater,
    ];

    /// A short stable name, for `data-` attributes and option values.
    pub fn code(self) -> &'static str {
        match self {
            InFlightPolicy::NoRecord => "no-record",
            InFlightPolicy::Wait => "wait",
            InFlightPolicy::RetryLater => "retry-later",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.code() == code)
    }
}

/// Who holds an operation's record, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Holder {
    /// The attempt that claimed it (the lab's attempt number).
    pub attempt: u64,
    /// The process that accepted that attempt.
    pub process: u32,
    pub since: u64,
}

/// One in-progress record as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InProgressRecord {
    pub account_id: String,
    pub key: String,
    pub holder: Holder,
}

#[derive(Debug)]
struct Claim {
    holder: Holder,
    /// Whether the holder's delivery reached the queue: until it does, a caller
    /// that gives up takes its claim back with it.
    queued: bool,
    /// Duplicates waiting for the release. Dropping a sender wakes its waiter
    /// just as sending does.
    waiters: Vec<oneshot::Sender<()>>,
}

type Operation = (String, String);

/// A table of in-progress records. `Clone` gives another handle to the same table.
#[derive(Debug, Clone, Default)]
pub struct InProgressRecords {
    claims: Arc<Mutex<HashMap<Operation, Claim>>>,
}

/// What claiming an operation found.
#[derive(Debug)]
pub enum Claimed {
    /// The record is now this attempt's.
    Mine,
    /// Another attempt holds it; `released` resolves once it lets go.
    Held {
        holder: Holder,
        released: oneshot::Receiver<()>,
    },
}

impl InProgressRecords {
    pub fn new() -> Self {
        Self::default()
    }

    /// Claims `grant`'s operation for `holder`, unless another attempt holds it.
    pub fn claim(&self, grant: &GrantPoints, holder: Holder) -> Claimed {
        let op = (grant.account_id.clone(), grant.key.clone());
        let mut claims = self.lock();
        if let Some(claim) = claims.get_mut(&op) {
            let (sender, released) = oneshot::channel();
            claim.waiters.push(sender);
            return Claimed::Held {
                holder: claim.holder,
                released,
            };
        }
        claims.insert(
            op,
            Claim {
                holder,
                queued: false,
                waiters: Vec::new(),
            },
        );
        Claimed::Mine
    }

    /// The holder's delivery is in the queue: from now on only the store's
    /// answer (or the end of its process) releases the record.
    /// (Found by attempt: the queue knows no more of a delivery. The table holds
    /// only the operations in flight, so the search is short.)
    pub fn mark_queued(&self, attempt: u64) {
        if let Some(claim) = self
            .lock()
            .values_mut()
            .find(|c| c.holder.attempt == attempt)
        {
            claim.queued = true;
        }
    }

    /// Releases the record `attempt` holds on `grant`'s operation, if it holds
    /// one; with `only_unqueued`, only if its delivery never reached the queue.
    /// Returns whether a record was released.
    pub fn release(&self, grant: &GrantPoints, attempt: u64, only_unqueued: bool) -> bool {
        let op = (grant.account_id.clone(), grant.key.clone());
        let mut claims = self.lock();
        let mine = claims
            .get(&op)
            .is_some_and(|c| c.holder.attempt == attempt && !(only_unqueued && c.queued));
        if mine {
            // Dropping the claim drops its senders, which wakes every waiter.
            claims.remove(&op);
        }
        mine
    }

    /// Releases every record held by attempts that `process` accepted: it ended,
    /// and its records lapse. Returns how many.
    pub fn release_process(&self, process: u32) -> usize {
        let released = self.take_where(|h| h.process == process);
        let count = released.len();
        // Dropped oldest first, so their waiters wake in an order that depends
        // on the history alone, not on how the table hashes its keys.
        drop(released);
        count
    }

    /// Moves every record whose holder matches `which` into `target`, waiters
    /// and all (the store behind the workers changed: its records go with it).
    /// Where `target` already has the operation, the waiters join that record.
    pub fn move_into(&self, target: &InProgressRecords, which: impl Fn(&Holder) -> bool) {
        if Arc::ptr_eq(&self.claims, &target.claims) {
            return;
        }
        let moved = self.take_where(which);
        let mut claims = target.lock();
        for (op, mut claim) in moved {
            match claims.get_mut(&op) {
                Some(there) => there.waiters.append(&mut claim.waiters),
                None => {
                    claims.insert(op, claim);
                }
            }
        }
    }

    /// Takes out the records whose holder matches, oldest first.
    fn take_where(&self, which: impl Fn(&Holder) -> bool) -> Vec<(Operation, Claim)> {
        let mut claims = self.lock();
        let ops: Vec<Operation> = claims
            .iter()
            .filter(|(_, c)| which(&c.holder))
            .map(|(op, _)| op.clone())
            .collect();
        let mut taken: Vec<(Operation, Claim)> = ops
            .into_iter()
            .filter_map(|op| claims.remove(&op).map(|c| (op, c)))
            .collect();
        taken.sort_unstable_by_key(|(_, c)| (c.holder.since, c.holder.attempt));
        taken
    }

    /// Every record, by (account, key).
    pub fn records(&self) -> Vec<InProgressRecord> {
        let mut all: Vec<InProgressRecord> = self
            .lock()
            .iter()
            .map(|((account_id, key), c)| InProgressRecord {
                account_id: account_id.clone(),
                key: key.clone(),
                holder: c.holder,
            })
            .collect();
        all.sort_unstable_by(|a, b| {
            super::operation_order((&a.account_id, &a.key), (&b.account_id, &b.key))
        });
        all
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Operation, Claim>> {
        // Every change is one map operation: a poisoned lock still guards whole data.
        self.claims
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
