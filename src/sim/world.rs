//! The simulated world: the article's `PointWorker` and `PointStore` running as
//! tasks on a single-threaded executor, with time owned by a virtual clock.
//!
//! Deterministic by construction: one thread, tasks polled in the order they were
//! woken, timers fired one at a time in (deadline, creation) order, and nothing
//! read from outside but the calls made on the world. The same calls therefore
//! give the same event log, natively and in the browser.
//!
//! This file holds the world's own moves: sending, time, processes starting and
//! ending, and the settings. The parts it runs have rooms of their own: the
//! caller protocol (`caller.rs`), the processes (`process.rs`), the hooks into
//! the worker (`hooks.rs`), the relay (`outbox_relay.rs`).

use std::future::Future;
use std::rc::Rc;

use futures::executor::{LocalPool, LocalSpawner};
use futures::stream::{FuturesUnordered, StreamExt};

use crate::core::{GrantPoints, Language};

use super::caller::{call, retrying_call, Call};
use super::clock::Millis;
use super::event::{AttemptId, Happening, Origin, ProcessNumber};
use super::outbox::Outbox;
use super::outbox_relay::run_relay;
use super::process::{Process, Running, Switchboard};
use super::settings::{Faults, Setting, SettingError, Settings, Slot};
use super::shared::Shared;

mod read;

pub struct World {
    pool: LocalPool,
    spawner: LocalSpawner,
    shared: Rc<Shared>,
    switchboard: Rc<Switchboard>,
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
        let shared = Rc::new(Shared::new(outbox, spawner.clone()));
        let switchboard = Rc::new(Switchboard::default());
        let process = Process::start(1, 1, &shared, &switchboard, &spawner);
        let mut world = World {
            pool,
            spawner,
            shared,
            switchboard,
            processes: vec![process],
            last_number: 1,
        };
        world.spawn(run_relay(Rc::clone(&world.shared), wake_relay));
        world.settle();
        world
    }

    /// The settings in force now.
    pub fn settings(&self) -> Settings {
        self.shared.settings()
    }

    /// Puts `settings` in force, or refuses them (and changes nothing) when one
    /// is outside what the lab allows. Each setting applies from now on; the
    /// ones that move something do it here, in this one place: a pause holds or
    /// frees the consumers, a change of store moves the in-progress records, a
    /// change of process count starts or ends processes, and a shorter
    /// retention sweeps what it no longer keeps.
    pub fn configure(&mut self, settings: Settings) -> Result<(), SettingError> {
        settings.validate()?;
        let was = self.shared.settings.replace(settings);
        if was.store.is_durable() != settings.store.is_durable() {
            self.move_claims(settings.store.is_durable());
        }
        if was.paused != settings.paused {
            for gate in self.gates() {
                gate.set_closed(settings.paused);
            }
            self.settle();
        }
        if was.processes != settings.processes {
            self.run_processes(settings.processes);
        }
        if was.retention_hours != settings.retention_hours {
            self.sweep();
        }
        Ok(())
    }

    /// Changes one setting: [`configure`](Self::configure) with the rest as they are.
    pub fn set(&mut self, change: Setting) -> Result<(), SettingError> {
        self.configure(self.settings().with(change))
    }

    /// The faults armed now.
    pub fn faults(&self) -> Faults {
        self.shared.faults.get()
    }

    /// Arms (or disarms) faults: each strikes once, then disarms itself.
    pub fn arm(&mut self, faults: Faults) {
        self.shared.faults.set(faults);
    }

    /// A caller sends `grant` to a running process (as routed) and waits for the
    /// answer at most the caller timeout, or as long as it takes when `patient`.
    /// The world numbers the attempt, and says who sent it in its log.
    pub fn send(
        &mut self,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
        origin: Origin,
    ) -> AttemptId {
        self.send_with(grant, lose_acknowledgement, patient, origin, false)
    }

    /// [`send`](Self::send) for a person's caller, which retries by itself when
    /// automatic retries are on.
    pub fn send_retrying(
        &mut self,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        origin: Origin,
    ) -> AttemptId {
        self.send_with(grant, lose_acknowledgement, false, origin, true)
    }

    fn send_with(
        &mut self,
        grant: GrantPoints,
        lose_acknowledgement: bool,
        patient: bool,
        origin: Origin,
        retrying: bool,
    ) -> AttemptId {
        let settings = self.settings();
        let running = self.switchboard.route(&grant.key, settings.routing);
        let first = Call::new(&self.shared, grant, lose_acknowledgement, patient, origin);
        let attempt = first.attempt;
        // The queue's fault: this message is delivered twice, the copy right
        // behind it in the same queue, with nobody waiting for its answer. A
        // request refused at the door never reaches the queue, so it has no copy.
        let mut faults = self.faults();
        let copies = first.door.is_ok() && faults.redeliver_next;
        faults.redeliver_next &= !copies;
        self.arm(faults);
        // Across a network, the queue copies the message as it queues it: the
        // copy is made when the original's request arrives, not before.
        let mut first = first;
        let copy = match copies {
            true if settings.transit_ms > 0 => {
                first.copied_on_arrival = true;
                None
            }
            true => Some(Call::redelivery(
                self.shared.fresh_attempt(),
                attempt,
                first.grant.clone(),
            )),
            false => None,
        };
        // The first attempt goes where the copy (if any) goes: routed now.
        match settings.auto_retry.filter(|_| retrying) {
            Some(policy) => {
                let shared = Rc::clone(&self.shared);
                let switchboard = Rc::clone(&self.switchboard);
                let running = running.clone();
                self.spawn(retrying_call(shared, switchboard, first, running, policy));
            }
            None => self.spawn_call(first, running.clone()),
        }
        if let Some(copy) = copy {
            self.spawn_call(copy, running);
        }
        self.settle();
        attempt
    }

    /// A batch job: sends each of `grants` in turn, keeping at most
    /// `concurrency` calls open at once, each waiting as long as it takes. The
    /// batch's attempt numbers are taken now, in a run from the one returned;
    /// its calls are made as room opens up, so a big batch costs little now.
    pub fn send_batch(
        &mut self,
        grants: impl ExactSizeIterator<Item = GrantPoints> + 'static,
        concurrency: usize,
        origin: Origin,
    ) -> AttemptId {
        let shared = Rc::clone(&self.shared);
        let switchboard = Rc::clone(&self.switchboard);
        let first = shared.last_attempt.get() + 1;
        shared.note_attempt(
            first
                .saturating_add(grants.len() as AttemptId)
                .saturating_sub(1),
        );
        self.spawn(async move {
            let mut open = FuturesUnordered::new();
            for (attempt, grant) in (first..).zip(grants) {
                if open.len() >= concurrency.max(1) {
                    open.next().await;
                }
                let running = switchboard.route(&grant.key, shared.settings().routing);
                let call = Call::numbered(&shared, attempt, grant, false, true, origin);
                open.push(self::call(Rc::clone(&shared), call, running));
            }
            while open.next().await.is_some() {}
        });
        self.settle();
        first
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

    /// Crashes the running process numbered `process` now, as a person does
    /// from the picture: it ends as a restart ends it (memory, queue and work
    /// in hand gone), and a new process takes its slot. False (and nothing
    /// changes) when no running process has that number.
    pub fn crash(&mut self, process: ProcessNumber) -> bool {
        let Some(index) = self.processes.iter().position(|p| p.number == process) else {
            return false;
        };
        self.replace(index as Slot + 1);
        self.settle();
        true
    }

    /// Ends the process in `slot` and starts a new one there.
    fn replace(&mut self, slot: Slot) {
        let index = usize::from(slot) - 1;
        let again = self.processes[index].end(&self.shared);
        // The new process is up before the old one's callers hear of its end, so
        // a caller that calls again (a batch job) reaches the new one.
        self.processes[index] = self.start_process(slot);
        self.redeliver(again, &self.switchboard.get(slot));
    }

    /// Starts a new process in `slot`, and says so.
    fn start_process(&mut self, slot: Slot) -> Process {
        self.last_number += 1;
        let number = self.last_number;
        let process = Process::start(number, slot, &self.shared, &self.switchboard, &self.spawner);
        self.shared.report(Happening::ProcessStarted {
            process: number,
            slot,
        });
        process
    }

    /// The queue delivers again, to `running`, the messages a process that
    /// ended had not acknowledged.
    fn redeliver(&self, messages: Vec<(AttemptId, GrantPoints)>, running: &Running) {
        for (original, grant) in messages {
            let copy = self.shared.fresh_attempt();
            self.spawn_call(Call::redelivery(copy, original, grant), running.clone());
        }
    }

    /// Runs `count` processes side by side. A second process starts empty; the
    /// one taken away ends as a restart ends one.
    fn run_processes(&mut self, count: Slot) {
        let count = usize::from(count.max(1));
        self.switchboard.restart_turns();
        while self.processes.len() < count {
            let process = self.start_process(self.processes.len() as Slot + 1);
            self.processes.push(process);
        }
        while self.processes.len() > count {
            let gone = self.processes.pop().expect("more than one process");
            self.switchboard.pop();
            let again = gone.end(&self.shared);
            // What it had not finished goes to the process that stays.
            self.redeliver(again, &self.switchboard.get(1));
        }
        self.settle();
    }

    /// Moves the in-progress records with the store: into the durable store's
    /// table, or back into the memory of the process that holds each, so an
    /// attempt still in flight keeps its record where duplicates look for it.
    fn move_claims(&self, into_durable: bool) {
        for p in &self.processes {
            let memory = &p.idempotent.claims;
            if into_durable {
                memory.move_into(&self.shared.durable_claims, |_| true);
            } else {
                let number = p.number;
                self.shared
                    .durable_claims
                    .move_into(memory, |h| h.process == number);
            }
        }
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
        Some(oldest.saturating_add(self.settings().retention_ms()))
    }

    /// Deletes every receipt whose time is up now, and reports each.
    fn sweep(&mut self) {
        let now = self.now();
        let retention = self.settings().retention_ms();
        let Some(cutoff) = now.checked_sub(retention) else {
            return;
        };
        for (account_id, key) in self.shared.durable.sweep(cutoff) {
            self.shared.report(Happening::Expired {
                account_id,
                key,
                retention,
            });
        }
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
    fn gates(&self) -> Vec<super::gate::Gate> {
        self.processes
            .iter()
            .flat_map(|p| [p.idempotent.gate.clone(), p.naive.gate.clone()])
            .collect()
    }

    /// Loses the answer to `attempt` where it is now, on its way back to its
    /// caller: the store's work stands, and the caller hears nothing. False
    /// (and nothing changes) when no answer to it is on its way.
    pub fn lose_answer(&mut self, attempt: AttemptId) -> bool {
        let lose = {
            let mut on_way = self.shared.answers_on_way.borrow_mut();
            on_way.retain(|(_, lose)| !lose.is_canceled());
            match on_way.iter().position(|(a, _)| *a == attempt) {
                Some(i) => on_way.swap_remove(i).1,
                None => return false,
            }
        };
        self.shared.report(Happening::AnswerLost { attempt });
        let _ = lose.send(());
        self.settle();
        true
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

    /// Signs a caller in (its account is the one calls act on), or out.
    pub fn sign_in(&mut self, account_id: Option<String>) {
        *self.shared.signed_in.borrow_mut() = account_id;
    }

    /// Spawns one call; nobody but the world's log hears its answer.
    fn spawn_call(&self, call: Call, running: Running) {
        let shared = Rc::clone(&self.shared);
        self.spawn(async move {
            let _ = self::call(shared, call, running).await;
        });
    }

    fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        self.shared.spawn(task);
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
