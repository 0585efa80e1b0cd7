//! The world's view into the article's worker: the hooks that report every
//! stage it reaches, hold its consumer while paused, make applying take the
//! processing time, crash it at an armed point and send an inline email; and
//! the store it hands each delivery to, switched as the world is set.

use std::future::{pending, Future};
use std::rc::Rc;

use crate::core::{
    CrashPoint, Delivered, Email, EmailVia, GrantError, GrantPoints, GrantStore, InProgressRecords,
    Pace, PointStore, StoreOutcome, StoreStep, WorkerHooks,
};

use super::event::{AttemptId, Happening, ProcessNumber};
use super::gate::Gate;
use super::outbox::WithOutbox;
use super::shared::Shared;

/// The world's view into one worker: every stage reported, the consumer held while
/// paused, and applying taking the processing time.
pub(super) struct Observed {
    pub shared: Rc<Shared>,
    /// The process's own memory store.
    pub store: PointStore,
    /// The process's own in-progress records.
    pub claims: InProgressRecords,
    pub process: ProcessNumber,
    /// The naive side reports only what it did to its balance.
    pub naive: bool,
    /// This consumer's pause switch.
    pub gate: Gate,
}

impl WorkerHooks for Observed {
    type Tag = AttemptId;

    fn waiting_for_room(&self, attempt: &AttemptId) {
        if !self.naive {
            self.shared
                .report(Happening::WaitingForRoom { attempt: *attempt });
        }
    }

    fn queued(&self, attempt: &AttemptId) {
        if !self.naive {
            self.shared.broker.queued(*attempt);
            self.claims.mark_queued(*attempt);
            self.shared.durable_claims.mark_queued(*attempt);
            self.shared.report(Happening::Queued { attempt: *attempt });
        }
    }

    fn take<F: Future>(&self, next: F) -> impl Future<Output = F::Output> {
        self.gate.hold(next)
    }

    fn taken(&self, attempt: &AttemptId) {
        if !self.naive {
            self.shared
                .broker
                .taken(*attempt, self.shared.settings().acknowledge);
            self.shared.report(Happening::Taken { attempt: *attempt });
        }
    }

    fn work(&self, _attempt: &AttemptId) -> impl Future<Output = ()> {
        self.shared
            .clock
            .sleep(self.shared.settings().processing_ms)
    }

    fn reach(&self, attempt: &AttemptId, point: CrashPoint) -> impl Future<Output = ()> {
        let mut faults = self.shared.faults.get();
        let crash = !self.naive && faults.crash_point == Some(point);
        if crash {
            // Armed for one crash: the retry that follows goes through.
            faults.crash_point = None;
            self.shared.faults.set(faults);
            self.shared.report(Happening::Crashed {
                attempt: *attempt,
                process: self.process,
                point,
            });
            self.shared.crashed.borrow_mut().push(self.process);
        }
        async move {
            if crash {
                // The process is gone: nothing after this point runs. The world
                // ends the process once every task has stalled.
                pending::<()>().await;
            }
        }
    }

    fn note(&self, attempt: &AttemptId, step: StoreStep, durable: bool) {
        if !self.naive {
            self.shared.report(Happening::Store {
                attempt: *attempt,
                durable,
                step,
            });
        }
    }

    fn now(&self) -> u64 {
        self.shared.clock.now()
    }

    fn handled(&self, attempt: &AttemptId, grant: &GrantPoints, delivered: &Delivered) {
        if self.naive && delivered.store.is_err() {
            // The naive side refuses what any store refuses (bad input, overflow):
            // nothing changed there, so there is nothing to report.
            return;
        }
        if !self.naive
            && delivered.store.is_ok()
            && self.shared.settings().email_through() == Some(EmailVia::Inline)
        {
            // Sent inline, after the store answered: a replay sends it again,
            // and the mail service, given no operation id, cannot tell.
            let email = Email {
                account_id: grant.account_id.clone(),
                key: grant.key.clone(),
                points: grant.points,
            };
            let outcome = self.shared.mail.borrow_mut().deliver(email, false);
            self.shared.report(Happening::Emailed {
                account_id: grant.account_id.clone(),
                key: grant.key.clone(),
                outbox: false,
                outcome,
            });
        }
        if !self.naive {
            // The store has dealt with it: the queue has its acknowledgement,
            // and a duplicate may now ask the store.
            self.shared.broker.done(*attempt);
            self.claims.release(grant, *attempt, false);
            self.shared.durable_claims.release(grant, *attempt, false);
        }
        let balance = if self.naive {
            self.store.balance(&grant.account_id)
        } else {
            self.shared.balance_in(&self.store, &grant.account_id)
        };
        let what = if self.naive {
            Happening::NaiveHandled {
                attempt: *attempt,
                balance,
            }
        } else {
            Happening::Handled {
                attempt: *attempt,
                store: delivered.store.clone(),
                acknowledgement_lost: delivered.store.is_ok() && delivered.caller.is_err(),
                balance,
            }
        };
        self.shared.report(what);
    }
}

/// The idempotent worker's store: the process's memory, or the shared durable
/// store in its write order, as the world is set when a delivery is handled.
pub(super) struct Switched {
    pub shared: Rc<Shared>,
    pub memory: PointStore,
    /// The naive worker's store is always its memory. (One store type for both
    /// workers keeps one copy of the worker's code in the page.)
    pub naive: bool,
}

impl GrantStore for Switched {
    async fn apply_paced<P: Pace>(
        &self,
        grant: &GrantPoints,
        pace: &P,
    ) -> Result<StoreOutcome, GrantError> {
        let settings = self.shared.settings();
        let order = settings.store.write_order();
        // With emails through the outbox, the grant's step writes the row too.
        let outbox = (!self.naive && settings.email_through() == Some(EmailVia::Outbox))
            .then_some(&self.shared.outbox);
        let pace = &WithOutbox {
            inner: pace,
            grant,
            outbox,
        };
        match order.filter(|_| !self.naive) {
            None => self.memory.apply_paced(grant, pace).await,
            Some(order) => {
                let ledger = settings.ledger_check;
                self.shared
                    .durable
                    .apply_paced(order, ledger, grant, pace)
                    .await
            }
        }
    }
}
