//! What the page reads of the world, through the lab: the processes running,
//! a process's memory, the in-progress records and the customers' inboxes.
//! Views ask the lab, never the world itself.

use crate::core::{Email, InProgressRecord, PointStore};
use crate::sim::{ProcessNumber, Slot};

use super::state::LabState;

impl LabState {
    /// The running processes' numbers, by slot.
    pub fn process_numbers(&self) -> Vec<ProcessNumber> {
        self.world().process_numbers()
    }

    /// The memory store of the process in `slot` (from 1), if one runs there.
    pub fn memory_store(&self, slot: Slot) -> Option<&PointStore> {
        self.world().memory_store(slot)
    }

    /// Every in-progress record now, each with the process whose memory keeps
    /// it (`None`: the durable store's, shared by every process).
    pub fn in_progress_records(&self) -> Vec<(InProgressRecord, Option<ProcessNumber>)> {
        self.world()
            .in_progress_records()
            .into_iter()
            .map(|(record, durable)| {
                // A memory record lives in the process that accepted its attempt.
                let process = (!durable).then_some(record.holder.process);
                (record, process)
            })
            .collect()
    }

    /// The newest `limit` emails delivered (oldest of them first), how many were
    /// delivered in all, and how many copies the mail service dropped.
    pub fn inbox_newest(&self, limit: usize) -> (Vec<Email>, usize, usize) {
        let world = self.world();
        let (newest, dropped) = world.inbox_newest(limit);
        (newest, world.inbox_len(), dropped)
    }
}
