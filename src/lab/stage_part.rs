//! The parts of the picture a lesson can point at, and whether the picture
//! draws one now: a step's proof is marked where the room sees it.

use crate::sim::AttemptId;

use super::invariants::Invariant;
use super::stage::{ProcessState, Stage, StoreTables};

/// One part of the stage (or of the panels beside it in the walkthrough).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StagePart {
    /// An attempt wherever it is drawn: its caller, its slot or the consumer
    /// holding it, its tokens, and its timeline row.
    Attempt(AttemptId),
    /// The callers, with their deadlines.
    Callers,
    /// An account's balance in the store in use.
    Balance(String),
    /// An account's balance at the naive worker beside.
    NaiveBalance(String),
    /// Each running process's queue.
    Queue,
    /// The producers waiting for room in a full queue.
    Waiting,
    /// Each running process's consumer.
    Consumer,
    /// The store in use: each process's memory, or the durable store.
    Store,
    /// The confirmation emails' way to the inbox.
    Mail,
    /// A promise, in the promises panel.
    Promise(Invariant),
    /// The last separate balance read, beside the callers.
    Read,
    /// The count of the timeline's rows, in its heading.
    Timeline,
}

impl Stage {
    /// Whether the picture draws `part` now (a promise is always drawn, in the
    /// panel beside the stage).
    pub fn draws(&self, part: &StagePart) -> bool {
        let running = || self.running().next().is_some();
        match part {
            StagePart::Attempt(id) => {
                self.caller(*id).is_some()
                    || self
                        .running()
                        .any(|p| p.queue.contains(id) || p.in_hand == Some(*id))
                    || self.tokens.iter().any(|t| t.attempt == Some(*id))
            }
            // The column is always drawn: it states the callers' deadline.
            StagePart::Callers => true,
            StagePart::Balance(account) => {
                let shown = |t: &StoreTables| {
                    t.balances.iter().any(|(a, _)| a == account) || t.unheld.contains(account)
                };
                self.running()
                    .filter_map(|p| p.memory.as_ref())
                    .chain(self.durable.as_ref().map(|d| &d.tables))
                    .any(shown)
            }
            StagePart::NaiveBalance(account) => self
                .naive
                .as_ref()
                .is_some_and(|b| b.iter().any(|(a, _)| a == account)),
            StagePart::Queue | StagePart::Consumer | StagePart::Store => running(),
            StagePart::Waiting => self
                .processes
                .iter()
                .any(|p| p.state == ProcessState::Running && p.waiting > 0),
            StagePart::Mail => self.mail.is_some(),
            StagePart::Promise(_) => true,
            StagePart::Read => self.read.is_some(),
            StagePart::Timeline => true,
        }
    }
}
