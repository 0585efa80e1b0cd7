//! Processes: each runs the idempotent worker and, beside it, the naive one,
//! each side with its own memory store, in-progress records and consumer. A
//! process ends in one way (its consumers stop, its records lapse, the queue
//! takes back what it had not acknowledged), whether it crashed, was restarted
//! or was taken away. The switchboard is how callers reach the running ones.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::executor::LocalSpawner;
use futures::future::{AbortHandle, Abortable};
use futures::task::LocalSpawnExt;

use crate::core::{GrantPoints, InProgressRecords, PointStore, PointWorker};

use super::event::{AttemptId, Happening, ProcessNumber};
use super::gate::Gate;
use super::hooks::{Observed, Switched};
use super::settings::{Routing, Slot};
use super::shared::Shared;

/// What a caller needs of a running process.
#[derive(Clone)]
pub(super) struct Running {
    pub number: ProcessNumber,
    pub memory: PointStore,
    /// The in-progress records kept in this process's memory.
    pub claims: InProgressRecords,
    /// Closed when the process ends: a call waiting in it hears so at once.
    pub ended: async_channel::Receiver<()>,
    pub worker: Rc<PointWorker<Observed>>,
    pub naive: Rc<PointWorker<Observed>>,
}

/// The running processes by slot, as callers reach them: a caller calls a
/// process that is running when it makes its call.
#[derive(Default)]
pub(super) struct Switchboard {
    running: RefCell<Vec<Running>>,
    /// Calls routed so far, for the round robin.
    routed: Cell<u64>,
}

impl Switchboard {
    /// The process a call for `key` goes to now.
    pub fn route(&self, key: &str, routing: Routing) -> Running {
        let running = self.running.borrow();
        let turn = self.routed.get();
        // The round robin counts only while there is a choice, so the first call
        // after a second process starts goes to process 1, the next to process 2.
        if running.len() > 1 {
            self.routed.set(turn + 1);
        }
        let slot = routing.slot(key, running.len() as Slot, turn);
        running[usize::from(slot) - 1].clone()
    }

    /// Makes `running` the process callers reach in `slot` (from 1).
    fn put(&self, slot: Slot, running: Running) {
        let mut all = self.running.borrow_mut();
        let index = usize::from(slot) - 1;
        if index < all.len() {
            all[index] = running;
        } else {
            all.push(running);
        }
    }

    /// The process in `slot` (from 1).
    pub fn get(&self, slot: Slot) -> Running {
        self.running.borrow()[usize::from(slot) - 1].clone()
    }

    /// Takes the last slot away.
    pub fn pop(&self) {
        self.running.borrow_mut().pop();
    }

    /// Starts the round robin again from process 1.
    pub fn restart_turns(&self) {
        self.routed.set(0);
    }
}

/// One side of a process: a store and the worker in front of it.
pub(super) struct Side {
    pub store: PointStore,
    pub claims: InProgressRecords,
    worker: Rc<PointWorker<Observed>>,
    consumer: AbortHandle,
    pub gate: Gate,
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
        gate.set_closed(shared.settings().paused);
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
pub(super) struct Process {
    pub number: ProcessNumber,
    pub idempotent: Side,
    pub naive: Side,
    /// Never sent on: closed when the process ends.
    alive: async_channel::Sender<()>,
}

impl Process {
    /// Starts process `number` in `slot` and makes it the one callers reach there.
    pub fn start(
        number: ProcessNumber,
        slot: Slot,
        shared: &Rc<Shared>,
        switchboard: &Switchboard,
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
        switchboard.put(slot, running);
        process
    }

    /// Ends the process: its consumers stop, and the in-progress records its
    /// attempts held lapse, in its memory and in the durable store, waking any
    /// duplicate that waits on one. The queue's ledger says which messages it
    /// delivers again (those the process had not acknowledged), returned here.
    pub fn end(&self, shared: &Shared) -> Vec<(AttemptId, GrantPoints)> {
        self.idempotent.consumer.abort();
        self.naive.consumer.abort();
        self.alive.close();
        self.idempotent.claims.release_process(self.number);
        shared.durable_claims.release_process(self.number);
        let again = shared
            .broker
            .process_ended(self.number, shared.settings().acknowledge);
        shared.report(Happening::ProcessEnded {
            process: self.number,
        });
        again
    }
}
