//! The outbox and its relay. A grant writes its confirmation email as an
//! outbox row in the same step as its points (so a crash after the commit still
//! leaves the email to send); a relay, on the virtual clock, hands each row to
//! the mail service with the operation's id, and marks it sent only once the
//! service has answered. The lab's relay always loses the first answer, so
//! every row reaches the mail service twice: at-least-once, made visible.

use std::cell::RefCell;

use crate::core::{Email, GrantPoints, MailOutcome, MailService, Pace, StoreStep, Table};

use super::clock::Millis;

/// How long the relay waits after a row is written before it sends.
pub const RELAY_DELAY_MS: Millis = 200;

/// The outbox table: rows not yet marked sent, oldest first.
#[derive(Debug)]
pub(super) struct Outbox {
    rows: RefCell<Vec<Email>>,
    /// Wakes the relay: one message per row written.
    signal: async_channel::Sender<()>,
}

impl Outbox {
    /// The outbox and the receiver its relay waits on.
    pub fn new() -> (Self, async_channel::Receiver<()>) {
        let (signal, wake) = async_channel::unbounded();
        let outbox = Outbox {
            rows: RefCell::default(),
            signal,
        };
        (outbox, wake)
    }

    pub fn write(&self, grant: &GrantPoints) {
        self.rows.borrow_mut().push(Email {
            account_id: grant.account_id.clone(),
            key: grant.key.clone(),
            points: grant.points,
        });
        let _ = self.signal.try_send(());
    }

    /// Every row written and not yet relayed.
    pub fn take(&self) -> Vec<Email> {
        std::mem::take(&mut *self.rows.borrow_mut())
    }

    pub fn pending(&self) -> usize {
        self.rows.borrow().len()
    }
}

/// One relay pass: each row to the mail service twice (the first answer lost),
/// with its operation id. Returns what the service did with each delivery.
pub(super) fn relay(rows: Vec<Email>, mail: &mut MailService) -> Vec<(Email, MailOutcome)> {
    let mut done = Vec::with_capacity(rows.len() * 2);
    for email in rows {
        for _ in 0..2 {
            let outcome = mail.deliver(email.clone(), true);
            done.push((email.clone(), outcome));
        }
    }
    done
}

/// Whether a store step is the one that adds a grant's points: the outbox row
/// is written with it.
pub(super) fn writes_grant(step: StoreStep) -> bool {
    matches!(
        step,
        StoreStep::WroteBoth | StoreStep::Wrote(Table::Balance) | StoreStep::Committed
    )
}

/// A store's pacing, with an outbox row written in the step that grants.
pub(super) struct WithOutbox<'a, P: Pace> {
    pub inner: &'a P,
    pub grant: &'a GrantPoints,
    /// The outbox, when emails go through it.
    pub outbox: Option<&'a Outbox>,
}

impl<P: Pace> Pace for WithOutbox<'_, P> {
    fn work(&self) -> impl std::future::Future<Output = ()> {
        self.inner.work()
    }
    fn reach(&self, point: crate::core::CrashPoint) -> impl std::future::Future<Output = ()> {
        self.inner.reach(point)
    }
    fn note(&self, step: StoreStep, durable: bool) {
        self.inner.note(step, durable);
        if let Some(outbox) = self.outbox.filter(|_| writes_grant(step)) {
            outbox.write(self.grant);
        }
    }
    fn now(&self) -> u64 {
        self.inner.now()
    }
}
