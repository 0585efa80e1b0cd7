//! What the lab and its views read of the world: its time, its processes, its
//! stores, the in-progress records, the inboxes and the log. Nothing here
//! changes the world.

use std::cell::Ref;

use crate::core::{DurableStore, Email, InProgressRecord, Language, PointStore};

use super::super::clock::Millis;
use super::super::event::{AttemptId, Event, ProcessNumber};
use super::super::settings::Slot;
use super::super::store_ref::StoreRef;
use super::World;

impl World {
    /// The running processes' numbers, by slot.
    pub fn process_numbers(&self) -> Vec<ProcessNumber> {
        self.processes.iter().map(|p| p.number).collect()
    }

    /// How long until the next thing happens by itself; `None` when nothing will
    /// (the world is idle until someone acts). A receipt's expiry does not count:
    /// it is a day away, and the world waits for nobody meanwhile.
    pub fn until_next(&self) -> Option<Millis> {
        let now = self.now();
        self.shared
            .clock
            .next_deadline()
            .map(|at| at.saturating_sub(now))
    }

    /// Every in-progress record now: the durable store's (`true`), then each
    /// running process's memory's, by slot.
    pub fn in_progress_records(&self) -> Vec<(InProgressRecord, bool)> {
        let durable = self.shared.durable_claims.records().into_iter();
        let memory = self
            .processes
            .iter()
            .flat_map(|p| p.idempotent.claims.records());
        durable
            .map(|r| (r, true))
            .chain(memory.map(|r| (r, false)))
            .collect()
    }

    /// An account's preferred language, if it was ever set.
    pub fn language(&self, account_id: &str) -> Option<Language> {
        self.shared.profiles.language(account_id)
    }

    /// The customers' inboxes: every email delivered, oldest first, and how
    /// many copies the mail service dropped.
    pub fn inbox(&self) -> (Vec<Email>, usize) {
        self.inbox_newest(usize::MAX)
    }

    /// The newest `limit` emails (oldest of them first), how many were
    /// delivered in all, and how many copies were dropped: for a page that
    /// shows a few of thousands without copying them all.
    pub fn inbox_newest(&self, limit: usize) -> (Vec<Email>, usize) {
        let mail = self.shared.mail.borrow();
        let all = mail.inbox();
        (
            all[all.len().saturating_sub(limit)..].to_vec(),
            mail.duplicates(),
        )
    }

    /// How many emails were delivered in all.
    pub fn inbox_len(&self) -> usize {
        self.shared.mail.borrow().inbox().len()
    }

    /// Outbox rows the relay has not sent yet.
    pub fn outbox_pending(&self) -> usize {
        self.shared.outbox.pending()
    }

    pub fn signed_in(&self) -> Option<String> {
        self.shared.signed_in.borrow().clone()
    }

    /// The highest attempt number in use, the queue's copies included.
    pub fn last_attempt(&self) -> AttemptId {
        self.shared.last_attempt.get()
    }

    pub fn now(&self) -> Millis {
        self.shared.clock.now()
    }

    /// The number of the process in slot 1.
    pub fn process_number(&self) -> ProcessNumber {
        self.processes[0].number
    }

    /// The store a balance read sees: the durable one when it is in use, else
    /// process 1's memory.
    pub fn store(&self) -> StoreRef<'_> {
        if self.settings().store.is_durable() {
            StoreRef::Durable(&self.shared.durable)
        } else {
            StoreRef::Memory(&self.processes[0].idempotent.store)
        }
    }

    /// The memory store of the process in `slot` (from 1), if one runs there.
    pub fn memory_store(&self, slot: Slot) -> Option<&PointStore> {
        let index = usize::from(slot).checked_sub(1)?;
        self.processes.get(index).map(|p| &p.idempotent.store)
    }

    /// The durable store, whether or not it is in use now.
    pub fn durable_store(&self) -> &DurableStore {
        &self.shared.durable
    }

    /// The naive worker's store, in process 1.
    pub fn naive_store(&self) -> &PointStore {
        &self.processes[0].naive.store
    }

    /// Everything that happened so far, in order.
    pub fn events(&self) -> Ref<'_, [Event]> {
        Ref::map(self.shared.log.borrow(), Vec::as_slice)
    }
}
