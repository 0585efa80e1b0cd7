//! What every part of the world shares: its clock and log, the settings (read
//! when they are needed, so a change applies from then on), the armed faults,
//! the durable store with its in-progress records, the queue's ledger, the
//! outbox and the mail service.

use std::cell::{Cell, RefCell};

use futures::channel::oneshot;
use futures::executor::LocalSpawner;
use futures::task::LocalSpawnExt;

use crate::core::{
    DurableStore, GrantPoints, GrantResult, InProgressRecords, MailService, PointStore, Profiles,
};

use super::broker::Broker;
use super::clock::Clock;
use super::event::{AttemptId, Event, Happening, ProcessNumber};
use super::outbox::Outbox;
use super::settings::{Faults, Settings};

pub(super) struct Shared {
    /// The world's executor: where a task runs on its own.
    spawner: LocalSpawner,
    pub clock: Clock,
    pub log: RefCell<Vec<Event>>,
    pub settings: Cell<Settings>,
    pub faults: Cell<Faults>,
    /// The one durable store, shared by every process; it outlives them all.
    pub durable: DurableStore,
    /// Processes that crashed and wait for the world to restart them.
    pub crashed: RefCell<Vec<ProcessNumber>>,
    /// The durable store's in-progress records, shared by every process.
    pub durable_claims: InProgressRecords,
    /// Accounts' preferences, kept durably beside the balances.
    pub profiles: Profiles,
    /// What the queue owes each message not acknowledged yet.
    pub broker: Broker,
    /// The highest attempt number in use: the queue numbers the copies it
    /// delivers again after it.
    pub last_attempt: Cell<AttemptId>,
    /// Whose account calls act on: whoever is signed in, or (nobody) the
    /// account each request names.
    pub signed_in: RefCell<Option<String>>,
    pub outbox: Outbox,
    pub mail: RefCell<MailService>,
    /// The answers on their way back now, each with the switch that loses it.
    pub answers_on_way: RefCell<Vec<(AttemptId, oneshot::Sender<()>)>>,
}

impl Shared {
    pub fn new(outbox: Outbox, spawner: LocalSpawner) -> Self {
        Shared {
            spawner,
            clock: Clock::default(),
            log: RefCell::new(Vec::new()),
            settings: Cell::default(),
            faults: Cell::default(),
            durable: DurableStore::new(),
            crashed: RefCell::default(),
            durable_claims: InProgressRecords::new(),
            profiles: Profiles::new(),
            broker: Broker::default(),
            last_attempt: 0.into(),
            signed_in: RefCell::default(),
            outbox,
            mail: RefCell::default(),
            answers_on_way: RefCell::default(),
        }
    }

    /// Runs `task` in the world, on its own: what goes on after whoever
    /// started it stops waiting (a request on the network, its caller gone).
    pub fn spawn(&self, task: impl std::future::Future<Output = ()> + 'static) {
        self.spawner
            .spawn_local(task)
            .expect("the world's executor takes tasks");
    }

    /// The settings in force now.
    pub fn settings(&self) -> Settings {
        self.settings.get()
    }

    /// Notes an attempt number the lab gave out.
    pub fn note_attempt(&self, attempt: AttemptId) {
        self.last_attempt.set(self.last_attempt.get().max(attempt));
    }

    /// A number for an attempt the world makes itself (a redelivered copy).
    pub fn fresh_attempt(&self) -> AttemptId {
        let next = self.last_attempt.get() + 1;
        self.last_attempt.set(next);
        next
    }

    /// Whether the store in use now is the durable one.
    fn durable_in_use(&self) -> bool {
        self.settings().store.is_durable()
    }

    /// An account's balance as the store behind `memory`'s process sees it now:
    /// the durable store's when it is in use, else that process's memory (0 after
    /// a restart forgot it).
    pub fn balance_in(&self, memory: &PointStore, account: &str) -> i32 {
        if self.durable_in_use() {
            self.durable.balance(account)
        } else {
            memory.balance(account)
        }
    }

    /// The table of in-progress records the store in use keeps for a process
    /// whose memory holds `memory_claims`.
    pub fn claims_in_use(&self, memory_claims: &InProgressRecords) -> InProgressRecords {
        if self.durable_in_use() {
            self.durable_claims.clone()
        } else {
            memory_claims.clone()
        }
    }

    /// Releases the record `attempt` holds on `grant`'s operation, in whichever
    /// table it is now (a change of store moves records between them).
    pub fn release_claim(
        &self,
        memory_claims: &InProgressRecords,
        grant: &GrantPoints,
        attempt: AttemptId,
        only_unqueued: bool,
    ) {
        self.durable_claims.release(grant, attempt, only_unqueued);
        memory_claims.release(grant, attempt, only_unqueued);
    }

    /// The stored receipt for `grant`'s operation in the store `memory`'s process
    /// uses now, if it holds one for the same points (other points are for the
    /// store to refuse).
    pub fn receipt_in(&self, memory: &PointStore, grant: &GrantPoints) -> Option<GrantResult> {
        self.stored_receipt(memory, grant)
            .filter(|r| r.points == grant.points)
    }

    /// The receipt stored for `grant`'s operation in the store in use, whatever
    /// its points.
    pub fn stored_receipt(&self, memory: &PointStore, grant: &GrantPoints) -> Option<GrantResult> {
        let (account, key) = (&grant.account_id, &grant.key);
        if self.durable_in_use() {
            self.durable.receipt(account, key)
        } else {
            memory.receipt(account, key)
        }
    }

    pub fn report(&self, what: Happening) {
        self.log.borrow_mut().push(Event {
            at: self.clock.now(),
            what,
        });
    }
}
