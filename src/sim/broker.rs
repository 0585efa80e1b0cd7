//! What the queue in front of the workers owes each message: whether it has
//! been acknowledged. With acknowledgement before the work (the article's
//! in-process channel: taking a message is acknowledging it) a process that ends
//! loses what it held; with acknowledgement after the work, the queue keeps each
//! message until the consumer is done with it and delivers again whatever a
//! process that ended had not finished.

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::core::GrantPoints;

use super::event::{AttemptId, ProcessNumber};
use super::settings::Acknowledge;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// On its way: waiting for room or for another attempt's record.
    Sent,
    Queued,
    /// In the consumer's hands, not yet acknowledged.
    Taken,
}

#[derive(Debug)]
struct Message {
    grant: GrantPoints,
    process: ProcessNumber,
    state: State,
    /// A copy the queue itself delivers: no caller will send it again.
    copy: bool,
}

/// The messages of the idempotent workers that are not acknowledged yet.
#[derive(Debug, Default)]
pub(super) struct Broker {
    messages: RefCell<BTreeMap<AttemptId, Message>>,
}

impl Broker {
    pub fn sent(
        &self,
        attempt: AttemptId,
        grant: &GrantPoints,
        process: ProcessNumber,
        copy: bool,
    ) {
        self.messages.borrow_mut().insert(
            attempt,
            Message {
                grant: grant.clone(),
                process,
                state: State::Sent,
                copy,
            },
        );
    }

    pub fn queued(&self, attempt: AttemptId) {
        if let Some(m) = self.messages.borrow_mut().get_mut(&attempt) {
            m.state = State::Queued;
        }
    }

    /// The consumer took it: acknowledged now, before the work, or held until
    /// [`done`](Self::done).
    pub fn taken(&self, attempt: AttemptId, ack: Acknowledge) {
        let mut messages = self.messages.borrow_mut();
        match ack {
            Acknowledge::BeforeWork => {
                messages.remove(&attempt);
            }
            Acknowledge::AfterWork => {
                if let Some(m) = messages.get_mut(&attempt) {
                    m.state = State::Taken;
                }
            }
        }
    }

    /// The work is done (the store answered): acknowledged.
    pub fn done(&self, attempt: AttemptId) {
        self.messages.borrow_mut().remove(&attempt);
    }

    /// The call ended with the message never queued (its caller gave up, or its
    /// process was gone): the queue never had it.
    pub fn withdrawn(&self, attempt: AttemptId) {
        let mut messages = self.messages.borrow_mut();
        if messages
            .get(&attempt)
            .is_some_and(|m| m.state == State::Sent)
        {
            messages.remove(&attempt);
        }
    }

    /// `process` ended. Forgets its messages, and returns those the queue must
    /// deliver again, oldest first: every one in hand (taken under
    /// acknowledgement after the work, so never acknowledged, whatever the
    /// setting is now); and with acknowledgement after the work, every one
    /// queued, and every copy of its own still on its way (nobody else would
    /// send it again). A caller's message still on its way is its caller's: the
    /// caller hears the process ended.
    pub fn process_ended(
        &self,
        process: ProcessNumber,
        ack: Acknowledge,
    ) -> Vec<(AttemptId, GrantPoints)> {
        let mut messages = self.messages.borrow_mut();
        let mut again = Vec::new();
        messages.retain(|attempt, m| {
            if m.process != process {
                return true;
            }
            let again_now = match m.state {
                State::Taken => true,
                State::Queued => ack == Acknowledge::AfterWork,
                State::Sent => ack == Acknowledge::AfterWork && m.copy,
            };
            if again_now {
                again.push((*attempt, m.grant.clone()));
            }
            false
        });
        again
    }
}
