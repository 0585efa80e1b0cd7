//! The simulated world: the article's `PointWorker` and `PointStore` running as
//! tasks on a single-threaded executor, with time owned by a virtual clock.
//!
//! Deterministic by construction: one thread, tasks polled in the order they were
//! woken, timers fired one at a time in (deadline, creation) order, and nothing
//! read from outside but the calls made on the world. The same calls therefore
//! give the same event log, natively and in the browser.

use std::cell::{Cell, Ref, RefCell};
use std::future::{pending, Future};
use std::pin::pin;
use std::rc::Rc;

use futures::executor::{LocalPool, LocalSpawner};
use futures::future::{select, AbortHandle, Abortable, Either};
use futures::stream::{FuturesUnordered, StreamExt};
use futures::task::LocalSpawnExt;

use crate::core::{
    answer, authorize, Claimed, CrashPoint, Delivered, DurableStore, Email, EmailVia, GrantError,
    GrantPoints, GrantResult, GrantStore, Holder, InFlightPolicy, InProgressRecord,
    InProgressRecords, Language, MailService, Pace, PointStore, PointWorker, Profiles, RetryPolicy,
    StoreOutcome, StoreStep, WorkerHooks,
};

use super::broker::Broker;
use super::clock::{Clock, Millis};
use super::event::{AttemptId, Event, Happening, ProcessNumber};
use super::gate::Gate;
use super::outbox::{relay, Outbox, WithOutbox, RELAY_DELAY_MS};
use super::settings::{Acknowledge, Routing, Slot, StoreKind, DEFAULT_RETENTION_HOURS};

/// How long a caller waits for its answer, and how long applying takes, unless set.
/// Chosen so a burst of 20 finishes within every caller's deadline, and a lost
/// acknowledgement is a short wait in class.
pub const DEFAULT_CALLER_TIMEOUT_MS: Millis = 3_000;
pub const DEFAULT_PROCESSING_MS: Millis = 100;
/// An hour of virtual time.
pub const HOUR_MS: Millis = 3_600_000;

/// What every part of the world shares: its clock, its log, the pause switch and
/// the settings, read when they are needed so a change applies from then on.
struct Shared {
    clock: Clock,
    log: RefCell<Vec<Event>>,
    /// Whether the consumers are held. Each consumer has a gate of its own, so
    /// a step lets each take one delivery and none take another's.
    paused: Cell<bool>,
    caller_timeout_ms: Cell<Millis>,
    processing_ms: Cell<Millis>,
    /// The running processes by slot, as callers reach them: a caller calls a
    /// process that is running when it makes its call.
    running: RefCell<Vec<Running>>,
    /// Whether calls made from now on also go to the naive worker beside.
    naive_on: Cell<bool>,
    /// The store every process's worker uses from its next delivery on.
    store_kind: Cell<StoreKind>,
    /// The one durable store, shared by every process; it outlives them all.
    durable: DurableStore,
    /// Whether the durable store also looks for the operation's ledger row.
    ledger_check: Cell<bool>,
    /// Receipts older than this are swept from the durable store.
    retention_ms: Cell<Millis>,
    routing: Cell<Routing>,
    /// Calls routed so far, for the round robin.
    routed: Cell<u64>,
    /// The armed crash point: the first handling to reach it crashes there.
    crash_point: Cell<Option<CrashPoint>>,
    /// Processes that crashed and wait for the world to restart them.
    crashed: RefCell<Vec<ProcessNumber>>,
    /// What a duplicate that finds its operation in progress is given, and
    /// whether records are kept at all.
    in_flight: Cell<InFlightPolicy>,
    /// The durable store's in-progress records, shared by every process.
    durable_claims: InProgressRecords,
    /// Accounts' preferences, kept durably beside the balances.
    profiles: Profiles,
    /// What the queue owes each message not acknowledged yet.
    broker: Broker,
    /// When consumers acknowledge, from the next delivery taken on.
    ack: Cell<Acknowledge>,
    /// Whether the queue delivers the next message twice (armed for one).
    redeliver_next: Cell<bool>,
    /// The highest attempt number in use: the queue numbers the copies it
    /// delivers again after it.
    last_attempt: Cell<AttemptId>,
    /// Whose account calls act on: whoever is signed in, or (nobody) the
    /// account each request names.
    signed_in: RefCell<Option<String>>,
    /// A person's callers retry by themselves under this policy, if set.
    auto_retry: Cell<Option<RetryPolicy>>,
    /// Whether each grant also sends a confirmation email, and how (kept
    /// while emails are off).
    email_on: Cell<bool>,
    email_via: Cell<EmailVia>,
    outbox: Outbox,
    mail: RefCell<MailService>,
}

/// What a caller needs of a running process.
#[derive(Clone)]
struct Running {
    number: ProcessNumber,
    memory: PointStore,
    /// The in-progress records kept in this process's memory.
    claims: InProgressRecords,
    /// Closed when the process ends: a call waiting in it hears so at once.
    ended: async_channel::Receiver<()>,
    worker: Rc<PointWorker<Observed>>,
    naive: Rc<PointWorker<Observed>>,
}

impl Shared {
    /// Notes an attempt number the lab gave out.
    fn note_attempt(&self, attempt: AttemptId) {
        self.last_attempt.set(self.last_attempt.get().max(attempt));
    }

    /// A number for an attempt the world makes itself (a redelivered copy).
    fn fresh_attempt(&self) -> AttemptId {
        let next = self.last_attempt.get() + 1;
        self.last_attempt.set(next);
        next
    }

    /// The process a call for `key` goes to now.
    fn route(&self, key: &str) -> Running {
        let running = self.running.borrow();
        let turn = self.routed.get();
        // The round robin counts only while there is a choice, so the first call
        // after a second process starts goes to process 1, the next to process 2.
        if running.len() > 1 {
            self.routed.set(turn + 1);
        }
        let slot = self.routing.get().slot(key, running.len() as Slot, turn);
        running[usize::from(slot) - 1].clone()
    }

    /// An account's balance as the store behind `memory`'s process sees it now:
    /// the durable store's when it is in use, else that process's memory (0 after
    /// a restart forgot it).
    fn balance_in(&self, memory: &PointStore, account: &str) -> i32 {
        if self.store_kind.get().is_durable() {
            self.durable.balance(account)
        } else {
            memory.balance(account)
        }
    }

    /// Whether calls made now claim an in-progress record.
    fn keeps_records(&self) -> bool {
        self.in_flight.get() != InFlightPolicy::NoRecord
    }

    /// The table of in-progress records the store in use keeps for `running`.
    fn claims_in_use(&self, running: &Running) -> InProgressRecords {
        if self.store_kind.get().is_durable() {
            self.durable_claims.clone()
        } else {
            running.claims.clone()
        }
    }

    /// Releases the record `attempt` holds on `grant`'s operation, in whichever
    /// table it is now (a change of store moves records between them).
    fn release_claim(
        &self,
        running: &Running,
        grant: &GrantPoints,
        attempt: AttemptId,
        only_unqueued: bool,
    ) {
        self.durable_claims.release(grant, attempt, only_unqueued);
        running.claims.release(grant, attempt, only_unqueued);
    }

    /// The stored receipt for `grant`'s operation in the store `memory`'s process
    /// uses now, if it holds one for the same points (other points are for the
    /// store to refuse).
    fn receipt_in(&self, memory: &PointStore, grant: &GrantPoints) -> Option<GrantResult> {
        self.stored_receipt(memory, grant)
            .filter(|r| r.points == grant.points)
    }

    /// The receipt stored for `grant`'s operation in the store in use, whatever
    /// its points.
    fn stored_receipt(&self, memory: &PointStore, grant: &GrantPoints) -> Option<GrantResult> {
        let (account, key) = (&grant.account_id, &grant.key);
        if self.store_kind.get().is_durable() {
            self.durable.receipt(account, key)
        } else {
            memory.receipt(account, key)
        }
    }

    /// How a grant handled now sends its confirmation email, if it sends one.
    fn email_through(&self) -> Option<EmailVia> {
        self.email_on.get().then(|| self.email_via.get())
    }

    fn report(&self, what: Happening) {
        self.log.borrow_mut().push(Event {
            at: self.clock.now(),
            what,
        });
    }
}

/// The world's view into one worker: every stage reported, the consumer held while
/// paused, and applying taking the processing time.
struct Observed {
    shared: Rc<Shared>,
    /// The process's own memory store.
    store: PointStore,
    /// The process's own in-progress records.
    claims: InProgressRecords,
    process: ProcessNumber,
    /// The naive side reports only what it did to its balance.
    naive: bool,
    /// This consumer's pause switch.
    gate: Gate,
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
            self.shared.broker.taken(*attempt, self.shared.ack.get());
            self.shared.report(Happening::Taken { attempt: *attempt });
        }
    }

    fn work(&self, _attempt: &AttemptId) -> impl Future<Output = ()> {
        self.shared.clock.sleep(self.shared.processing_ms.get())
    }

    fn reach(&self, attempt: &AttemptId, point: CrashPoint) -> impl Future<Output = ()> {
        let crash = !self.naive && self.shared.crash_point.get() == Some(point);
        if crash {
            // Armed for one crash: the retry that follows goes through.
            self.shared.crash_point.set(None);
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
            && self.shared.email_through() == Some(EmailVia::Inline)
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

/// One side of a process: a store and the worker in front of it.
struct Side {
    store: PointStore,
    claims: InProgressRecords,
    worker: Rc<PointWorker<Observed>>,
    consumer: AbortHandle,
    gate: Gate,
}

/// The idempotent worker's store: the process's memory, or the shared durable
/// store in its write order, as the world is set when a delivery is handled.
struct Switched {
    shared: Rc<Shared>,
    memory: PointStore,
    /// The naive worker's store is always its memory. (One store type for both
    /// workers keeps one copy of the worker's code in the page.)
    naive: bool,
}

impl GrantStore for Switched {
    async fn apply_paced<P: Pace>(
        &self,
        grant: &GrantPoints,
        pace: &P,
    ) -> Result<StoreOutcome, GrantError> {
        let order = self.shared.store_kind.get().write_order();
        // With emails through the outbox, the grant's step writes the row too.
        let outbox = (!self.naive && self.shared.email_through() == Some(EmailVia::Outbox))
            .then_some(&self.shared.outbox);
        let pace = &WithOutbox {
            inner: pace,
            grant,
            outbox,
        };
        match order.filter(|_| !self.naive) {
            None => self.memory.apply_paced(grant, pace).await,
            Some(order) => {
                let ledger = self.shared.ledger_check.get();
                self.shared
                    .durable
                    .apply_paced(order, ledger, grant, pace)
                    .await
            }
        }
    }
}

impl Side {
    fn start(
        shared: &Rc<Shared>,
        spawner: &LocalSpawner,
        process: ProcessNumber,
        naive: bool,
    ) -> Self {
        let store = PointStore::new();
        let claims = InProgressRecords::new();
        // A process started while paused starts held.
        let gate = Gate::default();
        gate.set_closed(shared.paused.get());
        let hooks = Observed {
            shared: Rc::clone(shared),
            store: store.clone(),
            claims: claims.clone(),
            process,
            naive,
            gate: gate.clone(),
        };
        let switched = Switched {
            shared: Rc::clone(shared),
            memory: store.clone(),
            naive,
        };
        let (worker, consumer) = spawn_worker(switched, hooks, spawner);
        Side {
            store,
            claims,
            worker: Rc::new(worker),
            consumer,
            gate,
        }
    }
}

/// Makes a worker in front of `store` and spawns its consumer, which can be aborted.
fn spawn_worker(
    store: Switched,
    hooks: Observed,
    spawner: &LocalSpawner,
) -> (PointWorker<Observed>, AbortHandle) {
    let (worker, consumer) = PointWorker::with_hooks(store, hooks);
    let (handle, registration) = AbortHandle::new_pair();
    spawner
        .spawn_local(async move {
            let _ = Abortable::new(consumer, registration).await;
        })
        .expect("the world's executor takes tasks");
    (worker, handle)
}

/// A running process: the idempotent worker and, beside it, the naive one.
struct Process {
    number: ProcessNumber,
    idempotent: Side,
    naive: Side,
    /// Never sent on: closed when the process ends.
    alive: async_channel::Sender<()>,
}

impl Process {
    /// Starts process `number` in `slot` and makes it the one callers reach there.
    fn start(
        number: ProcessNumber,
        slot: Slot,
        shared: &Rc<Shared>,
        spawner: &LocalSpawner,
    ) -> Self {
        let (alive, ended) = async_channel::bounded(1);
        let process = Process {
            number,
            idempotent: Side::start(shared, spawner, number, false),
            naive: Side::start(shared, spawner, number, true),
            alive,
        };
        let running = Running {
            number,
            memory: process.idempotent.store.clone(),
            claims: process.idempotent.claims.clone(),
            ended,
            worker: Rc::clone(&process.idempotent.worker),
            naive: Rc::clone(&process.naive.worker),
        };
        let mut all = shared.running.borrow_mut();
        let index = usize::from(slot) - 1;
        if index < all.len() {
            all[index] = running;
        } else {
            all.push(running);
        }
        process
    }

    /// Ends the process: its consumers stop, and the in-progress records its
    /// attempts held lapse, in its memory and in the durable store, waking any
    /// duplicate that waits on one.
    fn stop(&self, shared: &Shared) {
        self.idempotent.consumer.abort();
        self.naive.consumer.abort();
        self.alive.close();
        self.idempotent.claims.release_process(self.number);
        shared.durable_claims.release_process(self.number);
    }
}

/// The store a reader looks at: a process's memory, or the durable store.
#[derive(Debug, Clone, Copy)]
pub enum StoreRef<'a> {
    Memory(&'a PointStore),
    Durable(&'a DurableStore),
}

impl StoreRef<'_> {
    pub fn balance(&self, account_id: &str) -> i32 {
        match self {
            StoreRef::Memory(s) => s.balance(account_id),
            StoreRef::Durable(s) => s.balance(account_id),
        }
    }

    pub fn balances(&self) -> Vec<(String, i32)> {
        match self {
            StoreRef::Memory(s) => s.balances(),
            StoreRef::Durable(s) => s.balances(),
        }
    }

    pub fn receipt(&self, account_id: &str, key: &str) -> Option<GrantResult> {
        match self {
            StoreRef::Memory(s) => s.receipt(account_id, key),
            StoreRef::Durable(s) => s.receipt(account_id, key),
        }
    }

    pub fn receipts(&self) -> Vec<GrantResult> {
        self.receipts_page(usize::MAX).0
    }

    pub fn receipts_page(&self, limit: usize) -> (Vec<GrantResult>, usize) {
        match self {
            StoreRef::Memory(s) => s.receipts_page(limit),
            StoreRef::Durable(s) => s.receipts_page(limit),
        }
    }
}

pub struct World {
    pool: LocalPool,
    spawner: LocalSpawner,
    shared: Rc<Shared>,
    /// The running processes, by slot from 1.
    processes: Vec<Process>,
    /// The last process number given out.
    last_number: ProcessNumber,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    pub fn new() -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let (outbox, wake_relay) = Outbox::new();
        let shared = Rc::new(Shared {
            clock: Clock::default(),
            log: RefCell::new(Vec::new()),
            paused: false.into(),
            caller_timeout_ms: DEFAULT_CALLER_TIMEOUT_MS.into(),
            processing_ms: DEFAULT_PROCESSING_MS.into(),
            running: RefCell::default(),
            naive_on: false.into(),
            store_kind: StoreKind::default().into(),
            durable: DurableStore::new(),
            ledger_check: false.into(),
            retention_ms: (Millis::from(DEFAULT_RETENTION_HOURS) * HOUR_MS).into(),
            routing: Routing::default().into(),
            routed: 0.into(),
            crash_point: None.into(),
            crashed: RefCell::default(),
            in_flight: InFlightPolicy::default().into(),
            durable_claims: InProgressRecords::new(),
            profiles: Profiles::new(),
            broker: Broker::default(),
            ack: Acknowledge::default().into(),
            redeliver_next: false.into(),
            last_attempt: 0.into(),
            signed_in: RefCell::default(),
            auto_retry: None.into(),
            email_on: false.into(),
            email_via: EmailVia::default().into(),
            outbox,
            mail: RefCell::default(),
        });
        let process = Process::start(1, 1, &shared, &spawner);
        let mut world = World {
            pool,
            spawner,
            shared,
            processes: vec![process],
            last_number: 1,
        };
        world.spawn(run_relay(Rc::clone(&world.shared), wake_relay));
        world.settle();
        world
    }

    /// A caller sends `grant` to a running process (as routed) and waits for the
    /// answer at most the caller timeout, or as long as it takes when `patient`.
    pub fn send(
        &mut self,
        attempt: AttemptId,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
    ) {
        self.send_with(attempt, grant, lose_acknowledgement, patient, false);
    }

    /// [`send`](Self::send) for a person's caller, which retries by itself when
    /// automatic retries are on.
    pub fn send_retrying(
        &mut self,
        attempt: AttemptId,
        grant: GrantPoints,
        lose_acknowledgement: bool,
    ) {
        self.send_with(attempt, grant, lose_acknowledgement, false, true);
    }

    fn send_with(
        &mut self,
        attempt: AttemptId,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
        retrying: bool,
    ) {
        self.shared.note_attempt(attempt);
        let running = self.shared.route(&grant.key);
        // The queue's fault: this message is delivered twice, the copy right
        // behind it in the same queue, with nobody waiting for its answer. A
        // request refused at the door never reaches the queue, so it has no copy.
        let admitted = authorize(self.shared.signed_in.borrow().as_deref(), &grant).is_ok();
        let copy = (admitted && self.shared.redeliver_next.replace(false))
            .then(|| Call::redelivery(self.shared.fresh_attempt(), attempt, grant.clone()));
        let first = Call {
            attempt,
            grant,
            lose_acknowledgement,
            patient,
            redelivery_of: None,
            retry_of: None,
        };
        // The first attempt goes where the copy (if any) goes: routed now.
        match self.shared.auto_retry.get().filter(|_| retrying) {
            Some(policy) => {
                let shared = Rc::clone(&self.shared);
                let running = running.clone();
                self.spawn(retrying_call(shared, first, running, policy));
            }
            None => self.spawn_call(first, running.clone()),
        }
        if let Some(copy) = copy {
            self.spawn_call(copy, running);
        }
        self.settle();
    }

    /// A batch job: sends each of `grants` as attempts `first`, `first + 1`, ...,
    /// keeping at most `concurrency` calls open at once, each waiting as long as it
    /// takes. The calls are made as room opens up, so a big batch costs little now.
    pub fn send_batch(
        &mut self,
        first: AttemptId,
        grants: impl Iterator<Item = GrantPoints> + 'static,
        concurrency: usize,
    ) {
        let shared = Rc::clone(&self.shared);
        let (low, _) = grants.size_hint();
        // The batch's numbers are taken now, though its calls are made later.
        shared.note_attempt(first.saturating_add(low as AttemptId).saturating_sub(1));
        self.spawn(async move {
            let mut open = FuturesUnordered::new();
            for (attempt, grant) in (first..).zip(grants) {
                if open.len() >= concurrency.max(1) {
                    open.next().await;
                }
                shared.note_attempt(attempt);
                let running = shared.route(&grant.key);
                let call = Call {
                    attempt,
                    grant,
                    lose_acknowledgement: false,
                    patient: true,
                    redelivery_of: None,
                    retry_of: None,
                };
                open.push(self::call(Rc::clone(&shared), call, running));
            }
            while open.next().await.is_some() {}
        });
        self.settle();
    }

    /// Ends every process: their memory, queues, waiting producers and the
    /// deliveries in hand are gone, and every caller still waiting hears
    /// `WorkerStopped`. New, empty processes take over at once. The durable
    /// store keeps what was committed.
    pub fn restart(&mut self) {
        for slot in 1..=self.processes.len() as Slot {
            self.replace(slot);
        }
        self.settle();
    }

    /// Ends the process in `slot` and starts a new one there.
    fn replace(&mut self, slot: Slot) {
        let index = usize::from(slot) - 1;
        let ended = self.processes[index].number;
        self.processes[index].stop(&self.shared);
        let again = self
            .shared
            .broker
            .process_ended(ended, self.shared.ack.get());
        self.shared
            .report(Happening::ProcessEnded { process: ended });
        // The new process is up before the old one's callers hear of its end, so
        // a caller that calls again (a batch job) reaches the new one.
        self.last_number += 1;
        let number = self.last_number;
        self.processes[index] = Process::start(number, slot, &self.shared, &self.spawner);
        self.shared.report(Happening::ProcessStarted {
            process: number,
            slot,
        });
        let running = self.shared.running.borrow()[index].clone();
        self.redeliver(again, &running);
    }

    /// The queue delivers again, to `running`, the messages a process that
    /// ended had not acknowledged.
    fn redeliver(&self, messages: Vec<(AttemptId, GrantPoints)>, running: &Running) {
        for (original, grant) in messages {
            let copy = self.shared.fresh_attempt();
            self.spawn_call(Call::redelivery(copy, original, grant), running.clone());
        }
    }

    /// Runs one process, or two side by side. A second process starts empty; the
    /// one taken away ends as a restart ends one.
    pub fn set_processes(&mut self, count: Slot) {
        let count = usize::from(count.max(1));
        if count == self.processes.len() {
            return;
        }
        self.shared.routed.set(0);
        while self.processes.len() < count {
            self.last_number += 1;
            let number = self.last_number;
            let slot = self.processes.len() as Slot + 1;
            self.processes
                .push(Process::start(number, slot, &self.shared, &self.spawner));
            self.shared.report(Happening::ProcessStarted {
                process: number,
                slot,
            });
        }
        while self.processes.len() > count {
            let gone = self.processes.pop().expect("more than one process");
            gone.stop(&self.shared);
            self.shared.running.borrow_mut().pop();
            let again = self
                .shared
                .broker
                .process_ended(gone.number, self.shared.ack.get());
            self.shared.report(Happening::ProcessEnded {
                process: gone.number,
            });
            // What it had not finished goes to the process that stays.
            let stays = self.shared.running.borrow()[0].clone();
            self.redeliver(again, &stays);
        }
        self.settle();
    }

    pub fn processes(&self) -> Slot {
        self.processes.len() as Slot
    }

    /// The running processes' numbers, by slot.
    pub fn process_numbers(&self) -> Vec<ProcessNumber> {
        self.processes.iter().map(|p| p.number).collect()
    }

    /// Lets `ms` of virtual time pass, firing every timer due on the way in
    /// order, and sweeping each receipt the moment it expires.
    pub fn advance(&mut self, ms: Millis) {
        let until = self.now().saturating_add(ms);
        loop {
            let timer = self.shared.clock.next_deadline().filter(|at| *at <= until);
            let expiry = self.next_expiry().filter(|at| *at <= until);
            match (timer, expiry) {
                (_, Some(at)) if timer.is_none_or(|t| at <= t) => {
                    self.shared.clock.move_to(at);
                    self.sweep();
                }
                (Some(_), _) => {
                    self.shared.clock.fire_next(until);
                    self.settle();
                }
                _ => break,
            }
        }
        self.shared.clock.move_to(until);
    }

    /// Moves the clock forward by `ms` at once, as a person does to see what a
    /// day does to the receipts; everything due on the way happens in order.
    pub fn move_clock(&mut self, ms: Millis) {
        let from = self.now();
        self.advance(ms);
        self.shared.report(Happening::ClockMoved { from });
    }

    /// When the oldest durable receipt expires, if one is stored.
    fn next_expiry(&self) -> Option<Millis> {
        let oldest = self.shared.durable.oldest_receipt()?;
        Some(oldest.saturating_add(self.shared.retention_ms.get()))
    }

    /// Deletes every receipt whose time is up now, and reports each.
    fn sweep(&mut self) {
        let now = self.now();
        let Some(cutoff) = now.checked_sub(self.shared.retention_ms.get()) else {
            return;
        };
        for (account_id, key) in self.shared.durable.sweep(cutoff) {
            self.shared.report(Happening::Expired {
                account_id,
                key,
                retention: self.shared.retention_ms.get(),
            });
        }
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

    pub fn set_paused(&mut self, paused: bool) {
        self.shared.paused.set(paused);
        for gate in self.gates() {
            gate.set_closed(paused);
        }
        self.settle();
    }

    /// While paused: each consumer takes the delivery at the head of its queue now,
    /// if it has one and its hands are free, and then is held again. It applies
    /// what it took as time passes.
    pub fn step(&mut self) {
        let gates = self.gates();
        gates.iter().for_each(|g| g.allow(1));
        self.settle();
        // A permit is for now only: one left unused must not let a later delivery by.
        gates.iter().for_each(|g| g.revoke());
    }

    /// Every consumer's pause switch, the naive ones' included.
    fn gates(&self) -> Vec<Gate> {
        self.processes
            .iter()
            .flat_map(|p| [p.idempotent.gate.clone(), p.naive.gate.clone()])
            .collect()
    }

    pub fn paused(&self) -> bool {
        self.shared.paused.get()
    }

    /// From the next send on.
    pub fn set_caller_timeout(&mut self, ms: Millis) {
        self.shared.caller_timeout_ms.set(ms);
    }

    pub fn caller_timeout(&self) -> Millis {
        self.shared.caller_timeout_ms.get()
    }

    /// From the next delivery the consumer takes on.
    pub fn set_processing_time(&mut self, ms: Millis) {
        self.shared.processing_ms.set(ms);
    }

    pub fn processing_time(&self) -> Millis {
        self.shared.processing_ms.get()
    }

    /// Whether calls also go to the naive worker beside, from now on.
    pub fn set_naive(&mut self, on: bool) {
        self.shared.naive_on.set(on);
    }

    pub fn naive(&self) -> bool {
        self.shared.naive_on.get()
    }

    /// The store every worker hands its next delivery to. The in-progress
    /// records move with the store: into the durable store's table, or back
    /// into the memory of the process that holds each, so an attempt still in
    /// flight keeps its record where duplicates look for it.
    pub fn set_store_kind(&mut self, kind: StoreKind) {
        let was = self.shared.store_kind.replace(kind).is_durable();
        match (was, kind.is_durable()) {
            (false, true) => {
                for p in &self.processes {
                    p.idempotent
                        .claims
                        .move_into(&self.shared.durable_claims, |_| true);
                }
            }
            (true, false) => {
                for p in &self.processes {
                    let number = p.number;
                    self.shared
                        .durable_claims
                        .move_into(&p.idempotent.claims, |h| h.process == number);
                }
            }
            _ => {}
        }
    }

    pub fn store_kind(&self) -> StoreKind {
        self.shared.store_kind.get()
    }

    /// Arms a crash at `point` (or disarms with `None`): the first handling to
    /// reach it crashes its process, which a new one replaces.
    pub fn set_crash_point(&mut self, point: Option<CrashPoint>) {
        self.shared.crash_point.set(point);
    }

    pub fn crash_point(&self) -> Option<CrashPoint> {
        self.shared.crash_point.get()
    }

    /// What a duplicate that finds its operation in progress is given, from the
    /// next call on (records already held stay until released).
    pub fn set_in_flight(&mut self, policy: InFlightPolicy) {
        self.shared.in_flight.set(policy);
    }

    pub fn in_flight(&self) -> InFlightPolicy {
        self.shared.in_flight.get()
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

    /// Sets an account's preferred language, at once: no key, no queue, and a
    /// repeat changes nothing.
    pub fn set_language(&mut self, account_id: &str, language: Language) {
        let set = self.shared.profiles.set_language(account_id, language);
        self.shared.report(Happening::LanguageSet {
            account_id: account_id.to_owned(),
            language,
            previous: set.previous,
        });
    }

    /// An account's preferred language, if it was ever set.
    pub fn language(&self, account_id: &str) -> Option<Language> {
        self.shared.profiles.language(account_id)
    }

    /// Arms (or disarms) the queue's fault: the next message sent is delivered twice.
    pub fn set_redeliver(&mut self, on: bool) {
        self.shared.redeliver_next.set(on);
    }

    /// Whether the next message will be delivered twice.
    pub fn redeliver_armed(&self) -> bool {
        self.shared.redeliver_next.get()
    }

    /// When consumers acknowledge, from the next delivery they take on.
    pub fn set_acknowledge(&mut self, ack: Acknowledge) {
        self.shared.ack.set(ack);
    }

    pub fn acknowledge(&self) -> Acknowledge {
        self.shared.ack.get()
    }

    /// Whether each grant handled from now on also sends a confirmation email.
    pub fn set_email(&mut self, on: bool) {
        self.shared.email_on.set(on);
    }

    /// How confirmation emails go, from the next grant handled on.
    pub fn set_email_via(&mut self, via: EmailVia) {
        self.shared.email_via.set(via);
    }

    /// Whether emails are on, and how they go.
    pub fn email(&self) -> (bool, EmailVia) {
        (self.shared.email_on.get(), self.shared.email_via.get())
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

    /// Signs a caller in (its account is the one calls act on), or out.
    pub fn sign_in(&mut self, account_id: Option<String>) {
        *self.shared.signed_in.borrow_mut() = account_id;
    }

    pub fn signed_in(&self) -> Option<String> {
        self.shared.signed_in.borrow().clone()
    }

    /// Whether a person's callers retry by themselves, and how.
    pub fn set_auto_retry(&mut self, policy: Option<RetryPolicy>) {
        self.shared.auto_retry.set(policy);
    }

    pub fn auto_retry(&self) -> Option<RetryPolicy> {
        self.shared.auto_retry.get()
    }

    /// The highest attempt number in use, the queue's copies included.
    pub fn last_attempt(&self) -> AttemptId {
        self.shared.last_attempt.get()
    }

    pub fn set_routing(&mut self, routing: Routing) {
        self.shared.routing.set(routing);
    }

    pub fn routing(&self) -> Routing {
        self.shared.routing.get()
    }

    /// How long the durable store keeps a receipt; one already older goes now.
    pub fn set_retention(&mut self, ms: Millis) {
        self.shared.retention_ms.set(ms);
        self.sweep();
    }

    pub fn retention(&self) -> Millis {
        self.shared.retention_ms.get()
    }

    /// Whether the durable store also recognises an operation by its ledger row.
    pub fn set_ledger_check(&mut self, on: bool) {
        self.shared.ledger_check.set(on);
    }

    pub fn ledger_check(&self) -> bool {
        self.shared.ledger_check.get()
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
        if self.store_kind().is_durable() {
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

    /// Spawns one call; nobody but the world's log hears its answer.
    fn spawn_call(&self, call: Call, running: Running) {
        let shared = Rc::clone(&self.shared);
        self.spawn(async move {
            let _ = self::call(shared, call, running).await;
        });
    }

    fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        self.spawner
            .spawn_local(task)
            .expect("the world's executor takes tasks");
    }

    /// Runs every task that can move until none can: the world at rest at `now`.
    /// A process that crashed on the way is ended and replaced, and the world
    /// runs on from there.
    fn settle(&mut self) {
        loop {
            self.pool.run_until_stalled();
            let crashed = self.shared.crashed.take();
            if crashed.is_empty() {
                break;
            }
            for number in crashed {
                if let Some(index) = self.processes.iter().position(|p| p.number == number) {
                    self.replace(index as Slot + 1);
                }
            }
        }
    }
}

/// One caller's call: it reaches a running process as routed (and, with the
/// naive worker on, sends a copy there too), then waits for the answer until its
/// deadline, and reports what it heard.
async fn call(shared: Rc<Shared>, call: Call, running: Running) -> Result<GrantResult, GrantError> {
    let Call {
        attempt,
        grant,
        lose_acknowledgement,
        patient,
        redelivery_of,
        retry_of,
    } = call;
    shared
        .broker
        .sent(attempt, &grant, running.number, redelivery_of.is_some());
    let deadline = (!patient).then(|| {
        shared
            .clock
            .now()
            .saturating_add(shared.caller_timeout_ms.get())
    });
    shared.report(Happening::Sent {
        attempt,
        process: running.number,
        deadline,
        grant: grant.clone(),
        acknowledgement_will_be_lost: lose_acknowledgement,
        redelivery_of,
        retry_of,
    });
    // A key is not a credential: a request for another account than the
    // signed-in caller's is refused before any store is asked. (A copy the
    // queue delivers again was let in when it was first sent.)
    let signed_in = shared.signed_in.borrow().clone();
    let checked = match redelivery_of {
        None => authorize(signed_in.as_deref(), &grant),
        Some(_) => Ok(()),
    };
    if let Err(refused) = checked {
        shared.broker.withdrawn(attempt);
        let leak = shared.stored_receipt(&running.memory, &grant);
        shared.report(Happening::Forbidden { attempt, leak });
        shared.report(Happening::Answered {
            attempt,
            answer: Err(refused.clone()),
            balance: shared.balance_in(&running.memory, &grant.account_id),
        });
        return Err(refused);
    }
    // The naive worker treats every delivery as new: it forgets the caller's key
    // and files each copy under a key of its own, so nothing is recognised. The
    // copy goes as far as the caller's own request does: a caller that gives up
    // while waiting for room takes both back.
    let naive_copy = (shared.naive_on.get()).then(|| {
        let copy = grant.with_key(format!("delivery-{attempt}"));
        let naive = Rc::clone(&running.naive);
        async move {
            let _ = naive
                .process_tagged(attempt, copy, lose_acknowledgement)
                .await;
        }
    });
    let account = grant.account_id.clone();
    let keeps_records = shared.keeps_records();
    let claimed = grant.clone();
    let answer = async {
        let mut direct = None;
        if keeps_records {
            let waited = wait_for_claim(&shared, &claimed, attempt, &running).await?;
            // The first attempt is done: its receipt is the answer, read from the
            // store with no second pass through the queue and the work.
            let stored = waited
                .then(|| shared.receipt_in(&running.memory, &claimed))
                .flatten();
            if let Some(receipt) = stored {
                shared.release_claim(&running, &claimed, attempt, false);
                let delivered = answer(Ok(StoreOutcome::Replayed(receipt)), lose_acknowledgement);
                shared.report(Happening::Handled {
                    attempt,
                    store: delivered.store.clone(),
                    acknowledgement_lost: delivered.caller.is_err(),
                    balance: shared.balance_in(&running.memory, &claimed.account_id),
                });
                direct = Some(delivered.caller);
            }
        }
        let result = match direct {
            Some(result) => result,
            None => {
                running
                    .worker
                    .process_tagged(attempt, grant, lose_acknowledgement)
                    .await
            }
        };
        match result {
            // The article's worker turns a lost acknowledgement into a timeout at
            // once. Over a real connection a caller with a deadline hears nothing
            // at all, and finds out only when its deadline passes.
            Err(GrantError::Timeout) if deadline.is_some() => pending().await,
            answer => answer,
        }
    };
    // A patient caller's deadline never comes.
    let deadline = async {
        match deadline {
            Some(at) => shared.clock.sleep_until(at).await,
            None => pending().await,
        }
    };
    let heard = async {
        let heard = match select(pin!(answer), pin!(deadline)).await {
            Either::Left((answer, _)) => Some(answer),
            Either::Right(_) => None,
        };
        // A call that ends before its delivery was queued (its caller gave up)
        // takes its claim back with it; once queued, only the store's answer or
        // the end of the process releases it. A call that hears its process
        // ended lets go too: it may have claimed after the process's records
        // were released, on its way to a queue that was being torn down.
        if keeps_records {
            let ended = matches!(heard, Some(Err(GrantError::WorkerStopped)));
            shared.release_claim(&running, &claimed, attempt, !ended);
        }
        shared.broker.withdrawn(attempt);
        match heard {
            Some(answer) => Happening::Answered {
                attempt,
                answer,
                balance: shared.balance_in(&running.memory, &account),
            },
            None => Happening::TimedOut {
                attempt,
                balance: shared.balance_in(&running.memory, &account),
            },
        }
    };
    // The naive copy runs beside the call, for as long as the call lasts.
    let beside = async {
        if let Some(copy) = naive_copy {
            copy.await;
        }
        pending::<std::convert::Infallible>().await
    };
    let what = match select(pin!(heard), pin!(beside)).await {
        Either::Left((what, _)) => what,
        Either::Right((never, _)) => match never {},
    };
    let heard = match &what {
        Happening::Answered { answer, .. } => answer.clone(),
        _ => Err(GrantError::Timeout),
    };
    shared.report(what);
    heard
}

/// A person's caller with an automatic retry policy: it calls, and while the
/// answer is one that may go away (a timeout, "in progress") it waits its
/// backoff and calls again with the same request, up to the policy's attempts.
/// If they run out with the outcome unknown, it looks the operation up in the
/// store instead of retrying forever.
async fn retrying_call(shared: Rc<Shared>, first: Call, routed: Running, policy: RetryPolicy) {
    let first_id = first.attempt;
    let grant = first.grant.clone();
    let mut call_now = first;
    let mut routed = Some(routed);
    let mut n = 1;
    loop {
        let attempt = call_now.attempt;
        // The first attempt was routed when it was made; each retry is routed anew.
        let running = routed.take().unwrap_or_else(|| shared.route(&grant.key));
        let heard = call(Rc::clone(&shared), call_now, running.clone()).await;
        let error = match heard {
            Ok(_) => return,
            Err(error) => error,
        };
        if !RetryPolicy::retries(&error) {
            return;
        }
        if n >= policy.max_attempts {
            // Out of attempts, outcome unknown: ask instead of guessing.
            let receipt = shared.stored_receipt(&running.memory, &grant);
            shared.report(Happening::LookedUp { attempt, receipt });
            return;
        }
        let wait = policy.backoff(first_id, n);
        shared.report(Happening::Backoff {
            attempt,
            wait,
            retry: n,
        });
        shared.clock.sleep(wait).await;
        n += 1;
        call_now = Call {
            attempt: shared.fresh_attempt(),
            grant: grant.clone(),
            lose_acknowledgement: false,
            patient: false,
            redelivery_of: None,
            retry_of: Some(attempt),
        };
    }
}

/// Claims the operation's in-progress record for `attempt`. A duplicate that
/// finds it held says so, then either waits for the release and claims it in
/// turn, or is told at once to retry later. `Ok(true)` when it waited.
async fn wait_for_claim(
    shared: &Shared,
    grant: &GrantPoints,
    attempt: AttemptId,
    running: &Running,
) -> Result<bool, GrantError> {
    // The policy in force when the call was made holds for it: a duplicate
    // already waiting keeps waiting if the setting changes meanwhile.
    let waits = shared.in_flight.get() == InFlightPolicy::Wait;
    let mut told = false;
    loop {
        // A call whose process has ended is answered as the process's end answers it.
        if running.ended.is_closed() {
            return Err(GrantError::WorkerStopped);
        }
        let holder = Holder {
            attempt,
            process: running.number,
            since: shared.clock.now(),
        };
        // Looked up afresh each time: the store (and its records) may have changed.
        let claims = shared.claims_in_use(running);
        let (holder, released) = match claims.claim(grant, holder) {
            Claimed::Mine => return Ok(told),
            Claimed::Held { holder, released } => (holder, released),
        };
        if !told {
            shared.report(Happening::InProgress {
                attempt,
                holder: holder.attempt,
                waits,
            });
            told = true;
        }
        if !waits {
            return Err(GrantError::InProgress);
        }
        // Sent or dropped, the holder has let go: look again. If this call's own
        // process ends first, it looks again too, and finds that out.
        let _ = select(released, pin!(running.ended.recv())).await;
    }
}

/// One call as made: who sends what, and how long they wait.
struct Call {
    attempt: AttemptId,
    grant: GrantPoints,
    lose_acknowledgement: bool,
    /// Waits as long as it takes (a batch job, or the queue itself).
    patient: bool,
    /// The queue delivers this message again: the attempt it copies.
    redelivery_of: Option<AttemptId>,
    /// The caller's automatic retry of this attempt.
    retry_of: Option<AttemptId>,
}

impl Call {
    /// A copy the queue delivers again: nobody waits for its answer but the
    /// queue, which takes it as the acknowledgement.
    fn redelivery(attempt: AttemptId, original: AttemptId, grant: GrantPoints) -> Self {
        Call {
            attempt,
            grant,
            lose_acknowledgement: false,
            patient: true,
            redelivery_of: Some(original),
            retry_of: None,
        }
    }
}

/// The outbox's relay: woken by each row written, it waits a moment, then
/// hands every row to the mail service (at least once) and reports each
/// delivery. It never ends; it sleeps only while there is something to send.
async fn run_relay(shared: Rc<Shared>, wake: async_channel::Receiver<()>) {
    while wake.recv().await.is_ok() {
        shared.clock.sleep(RELAY_DELAY_MS).await;
        while wake.try_recv().is_ok() {}
        let rows = shared.outbox.take();
        let delivered = relay(rows, &mut shared.mail.borrow_mut());
        for (email, outcome) in delivered {
            shared.report(Happening::Emailed {
                account_id: email.account_id,
                key: email.key,
                outbox: true,
                outcome,
            });
        }
    }
}
