//! The simulated world: the article's `PointWorker` and `PointStore` running as
//! tasks on a single-threaded executor, with time owned by a virtual clock.
//!
//! Deterministic by construction: one thread, tasks polled in the order they were
//! woken, timers fired one at a time in (deadline, creation) order, and nothing
//! read from outside but the calls made on the world. The same calls therefore
//! give the same event log, natively and in the browser.

use std::cell::{Ref, RefCell};
use std::future::{pending, Future};
use std::pin::pin;
use std::rc::Rc;

use futures::executor::{LocalPool, LocalSpawner};
use futures::future::{select, AbortHandle, Abortable, Either};
use futures::stream::{FuturesUnordered, StreamExt};
use futures::task::LocalSpawnExt;

use crate::core::{Delivered, GrantError, GrantPoints, PointStore, PointWorker, WorkerHooks};

use super::clock::{Clock, Millis};
use super::event::{AttemptId, Event, Happening, ProcessNumber};
use super::gate::Gate;

/// How long a caller waits for its answer, and how long applying takes, unless set.
/// Chosen so a burst of 20 finishes within every caller's deadline, and a lost
/// acknowledgement is a short wait in class.
pub const DEFAULT_CALLER_TIMEOUT_MS: Millis = 3_000;
pub const DEFAULT_PROCESSING_MS: Millis = 100;

/// What every part of the world shares: its clock, its log, the pause switch and
/// the settings, read when they are needed so a change applies from then on.
struct Shared {
    clock: Clock,
    log: RefCell<Vec<Event>>,
    gate: Gate,
    /// The naive worker's consumer pauses with the real one, but is let through
    /// for a step on its own, so the two cannot take each other's step.
    naive_gate: Gate,
    caller_timeout_ms: std::cell::Cell<Millis>,
    processing_ms: std::cell::Cell<Millis>,
    /// The running process, as callers reach it: a caller calls whichever process
    /// is running when it makes its call.
    running: RefCell<Option<Running>>,
    /// Whether calls made from now on also go to the naive worker beside.
    naive_on: std::cell::Cell<bool>,
}

/// What a caller needs of the running process.
#[derive(Clone)]
struct Running {
    number: ProcessNumber,
    store: PointStore,
    worker: Rc<PointWorker<Observed>>,
    naive: Rc<PointWorker<Observed>>,
}

impl Shared {
    fn running(&self) -> Running {
        self.running
            .borrow()
            .clone()
            .expect("a process is always running")
    }

    /// An account's balance in the running process (0 after a restart forgot it).
    fn balance(&self, account: &str) -> i32 {
        self.running
            .borrow()
            .as_ref()
            .map_or(0, |p| p.store.balance(account))
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
    store: PointStore,
    /// The naive side reports only what it did to its balance.
    naive: bool,
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
            self.shared.report(Happening::Queued { attempt: *attempt });
        }
    }

    fn take<F: Future>(&self, next: F) -> impl Future<Output = F::Output> {
        if self.naive {
            self.shared.naive_gate.hold(next)
        } else {
            self.shared.gate.hold(next)
        }
    }

    fn taken(&self, attempt: &AttemptId) {
        if !self.naive {
            self.shared.report(Happening::Taken { attempt: *attempt });
        }
    }

    fn work(&self, _attempt: &AttemptId) -> impl Future<Output = ()> {
        self.shared.clock.sleep(self.shared.processing_ms.get())
    }

    fn handled(&self, attempt: &AttemptId, grant: &GrantPoints, delivered: &Delivered) {
        if self.naive && delivered.store.is_err() {
            // The naive side refuses what any store refuses (bad input, overflow):
            // nothing changed there, so there is nothing to report.
            return;
        }
        let balance = self.store.balance(&grant.account_id);
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
    worker: Rc<PointWorker<Observed>>,
    consumer: AbortHandle,
}

impl Side {
    fn start(shared: &Rc<Shared>, spawner: &LocalSpawner, naive: bool) -> Self {
        let store = PointStore::new();
        let hooks = Observed {
            shared: Rc::clone(shared),
            store: store.clone(),
            naive,
        };
        let (worker, consumer) = PointWorker::with_hooks(store.clone(), hooks);
        let (consumer_handle, registration) = AbortHandle::new_pair();
        spawner
            .spawn_local(async move {
                let _ = Abortable::new(consumer, registration).await;
            })
            .expect("the world's executor takes tasks");
        Side {
            store,
            worker: Rc::new(worker),
            consumer: consumer_handle,
        }
    }
}

/// A running process: the idempotent worker and, beside it, the naive one.
struct Process {
    idempotent: Side,
    naive: Side,
}

impl Process {
    /// Starts process `number` and makes it the one callers reach.
    fn start(number: ProcessNumber, shared: &Rc<Shared>, spawner: &LocalSpawner) -> Self {
        let process = Process {
            idempotent: Side::start(shared, spawner, false),
            naive: Side::start(shared, spawner, true),
        };
        shared.running.replace(Some(Running {
            number,
            store: process.idempotent.store.clone(),
            worker: Rc::clone(&process.idempotent.worker),
            naive: Rc::clone(&process.naive.worker),
        }));
        process
    }

    fn stop(&self) {
        self.idempotent.consumer.abort();
        self.naive.consumer.abort();
    }
}

pub struct World {
    pool: LocalPool,
    spawner: LocalSpawner,
    shared: Rc<Shared>,
    process: Process,
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
        let shared = Rc::new(Shared {
            clock: Clock::default(),
            log: RefCell::new(Vec::new()),
            gate: Gate::default(),
            naive_gate: Gate::default(),
            caller_timeout_ms: DEFAULT_CALLER_TIMEOUT_MS.into(),
            processing_ms: DEFAULT_PROCESSING_MS.into(),
            running: RefCell::default(),
            naive_on: false.into(),
        });
        let process = Process::start(1, &shared, &spawner);
        let mut world = World {
            pool,
            spawner,
            shared,
            process,
        };
        world.settle();
        world
    }

    /// A caller sends `grant` to the running process and waits for the answer at
    /// most the caller timeout, or as long as it takes when `patient`.
    pub fn send(
        &mut self,
        attempt: AttemptId,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
    ) {
        let call = call(
            Rc::clone(&self.shared),
            attempt,
            grant,
            lose_acknowledgement,
            patient,
        );
        self.spawn(call);
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
        self.spawn(async move {
            let mut open = FuturesUnordered::new();
            for (attempt, grant) in (first..).zip(grants) {
                if open.len() >= concurrency.max(1) {
                    open.next().await;
                }
                open.push(call(Rc::clone(&shared), attempt, grant, false, true));
            }
            while open.next().await.is_some() {}
        });
        self.settle();
    }

    /// Ends the process: its stores, queues, waiting producers and the delivery in
    /// hand are gone, and every caller still waiting hears `WorkerStopped`. A new,
    /// empty process takes over at once.
    pub fn restart(&mut self) {
        let ended = self.process_number();
        self.process.stop();
        self.shared
            .report(Happening::ProcessEnded { process: ended });
        // The new process is up before the old one's callers hear of its end, so
        // a caller that calls again (a batch job) reaches the new one.
        self.process = Process::start(ended + 1, &self.shared, &self.spawner);
        self.shared
            .report(Happening::ProcessStarted { process: ended + 1 });
        self.settle();
    }

    /// Lets `ms` of virtual time pass, firing every timer due on the way in order.
    pub fn advance(&mut self, ms: Millis) {
        let until = self.now().saturating_add(ms);
        while self.shared.clock.fire_next(until) {
            self.settle();
        }
        self.shared.clock.move_to(until);
    }

    /// How long until the next thing happens by itself; `None` when nothing will
    /// (the world is idle until someone acts).
    pub fn until_next(&self) -> Option<Millis> {
        let now = self.now();
        self.shared
            .clock
            .next_deadline()
            .map(|at| at.saturating_sub(now))
    }

    pub fn set_paused(&mut self, paused: bool) {
        self.shared.gate.set_closed(paused);
        self.shared.naive_gate.set_closed(paused);
        self.settle();
    }

    /// While paused: each consumer takes the delivery at the head of its queue now,
    /// if it has one and its hands are free, and then is held again. It applies
    /// what it took as time passes.
    pub fn step(&mut self) {
        let gates = [&self.shared.gate, &self.shared.naive_gate];
        gates.iter().for_each(|g| g.allow_one());
        self.pool.run_until_stalled();
        // A permit is for now only: one left unused must not let a later delivery by.
        gates.iter().for_each(|g| g.revoke());
    }

    pub fn paused(&self) -> bool {
        self.shared.gate.is_closed()
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

    pub fn now(&self) -> Millis {
        self.shared.clock.now()
    }

    pub fn process_number(&self) -> ProcessNumber {
        self.shared.running().number
    }

    /// The current process's store.
    pub fn store(&self) -> &PointStore {
        &self.process.idempotent.store
    }

    /// The naive worker's store, in the current process.
    pub fn naive_store(&self) -> &PointStore {
        &self.process.naive.store
    }

    /// Everything that happened so far, in order.
    pub fn events(&self) -> Ref<'_, [Event]> {
        Ref::map(self.shared.log.borrow(), Vec::as_slice)
    }

    fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        self.spawner
            .spawn_local(task)
            .expect("the world's executor takes tasks");
    }

    /// Runs every task that can move until none can: the world at rest at `now`.
    fn settle(&mut self) {
        self.pool.run_until_stalled();
    }
}

/// One caller's call: it reaches the running process (and, with the naive worker
/// on, sends a copy there too), then waits for the answer until its deadline, and
/// reports what it heard.
async fn call(
    shared: Rc<Shared>,
    attempt: AttemptId,
    grant: GrantPoints,
    lose_acknowledgement: bool,
    patient: bool,
) {
    let running = shared.running();
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
    });
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
    let answer = async {
        match running
            .worker
            .process_tagged(attempt, grant, lose_acknowledgement)
            .await
        {
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
        match select(pin!(answer), pin!(deadline)).await {
            Either::Left((answer, _)) => Happening::Answered {
                attempt,
                answer,
                balance: shared.balance(&account),
            },
            Either::Right(_) => Happening::TimedOut {
                attempt,
                balance: shared.balance(&account),
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
    shared.report(what);
}
