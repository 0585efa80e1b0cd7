//! The safety table: the explorer run over every combination of the settings
//! that matter (store and write order, one or two processes, what a duplicate
//! in flight is given, acknowledge before or after the work, recognising an
//! operation by its ledger row once its receipt expired, email inline or
//! through the outbox), each row from the same seed, so that rows differ only
//! by their settings. A row goes on until every promise is broken or its
//! histories are all tried; each broken promise keeps its shrunk history.

use super::generate::{history, rng_for};
use super::promise::Promise;
use super::run::run;
use super::shrink::{Shrinker, SHRINK_RUNS};
use crate::core::{EmailVia, InFlightPolicy};
use crate::lab::{Acknowledge, Action, Setting, Settings, Slot, StoreKind};

/// One combination of the settings the table varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combination {
    pub store: StoreKind,
    pub processes: Slot,
    pub in_flight: InFlightPolicy,
    pub acknowledge: Acknowledge,
    pub ledger_check: bool,
    pub email_via: EmailVia,
}

impl Combination {
    /// Every combination, the store varying slowest, the email fastest.
    pub fn all() -> Vec<Combination> {
        let mut all = Vec::new();
        for store in StoreKind::ALL {
            for processes in [1, 2] {
                for in_flight in InFlightPolicy::ALL {
                    for acknowledge in Acknowledge::ALL {
                        for ledger_check in [false, true] {
                            for email_via in EmailVia::ALL {
                                all.push(Combination {
                                    store,
                                    processes,
                                    in_flight,
                                    acknowledge,
                                    ledger_check,
                                    email_via,
                                });
                            }
                        }
                    }
                }
            }
        }
        all
    }

    /// The article's recommendations, on one process.
    pub fn recommended() -> Combination {
        Combination {
            store: StoreKind::OneTransaction,
            processes: 1,
            in_flight: InFlightPolicy::Wait,
            acknowledge: Acknowledge::AfterWork,
            ledger_check: true,
            email_via: EmailVia::Outbox,
        }
    }

    /// `base` with this combination's settings, confirmation emails on.
    pub fn settings(&self, base: &Settings) -> Settings {
        [
            Setting::Store(self.store),
            Setting::Processes(self.processes),
            Setting::InFlight(self.in_flight),
            Setting::Acknowledge(self.acknowledge),
            Setting::LedgerCheck(self.ledger_check),
            Setting::Email(true),
            Setting::EmailVia(self.email_via),
        ]
        .into_iter()
        .fold(*base, Settings::with)
    }
}

/// What the table says of one promise under one combination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Not judged yet.
    Waiting,
    /// No history broke it; this many were tried (so far, while the row runs).
    Held { histories: u64 },
    /// History number `histories` broke it; `steps` is that history shrunk
    /// (empty while the shrink runs).
    Broken { histories: u64, steps: Vec<Action> },
}

/// One row: a combination and its search.
#[derive(Debug, Clone)]
pub struct Row {
    pub combination: Combination,
    settings: Settings,
    setup: Vec<Setting>,
    tried: u64,
    /// For each promise, the history that first broke it, shrunk (or being shrunk).
    breaks: [Option<(u64, Vec<Action>)>; 5],
    /// Broken promises still to shrink, with their shrinks.
    shrinks: Vec<(u64, Shrinker)>,
    done: bool,
}

impl Row {
    fn new(combination: Combination, base: &Settings) -> Self {
        let settings = combination.settings(base);
        Row {
            combination,
            settings,
            setup: settings.changes(),
            tried: 0,
            breaks: Default::default(),
            shrinks: Vec::new(),
            done: false,
        }
    }

    /// The settings every history of this row starts with.
    pub fn setup(&self) -> &[Setting] {
        &self.setup
    }

    /// How many histories the row has tried.
    pub fn tried(&self) -> u64 {
        self.tried
    }

    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether the row keeps every promise (so far).
    pub fn keeps_every_promise(&self) -> bool {
        self.breaks.iter().all(Option::is_none)
    }

    pub fn cell(&self, promise: Promise) -> Cell {
        match &self.breaks[promise.index()] {
            Some((histories, steps)) => Cell::Broken {
                histories: *histories,
                steps: steps.clone(),
            },
            None if self.tried == 0 => Cell::Waiting,
            None => Cell::Held {
                histories: self.tried,
            },
        }
    }

    /// One unit of work (a history, or one run of a shrink); false when
    /// the row is done.
    fn step(&mut self, seed: u64, limit: u64, max_steps: usize) -> bool {
        if self.done {
            return false;
        }
        if let Some((_, shrinker)) = self.shrinks.first_mut() {
            if shrinker.step() {
                let (_, shrinker) = self.shrinks.remove(0);
                let at = shrinker.promise().index();
                if let Some((_, steps)) = &mut self.breaks[at] {
                    *steps = shrinker.best().to_vec();
                }
            }
            return true;
        }
        if self.tried >= limit || self.breaks.iter().all(Option::is_some) {
            self.done = true;
            return false;
        }
        let steps = history(&mut rng_for(seed, self.tried), &self.settings, max_steps);
        self.tried += 1;
        let trial = run(&self.setup, &steps);
        for promise in trial.broken.iter() {
            let slot = &mut self.breaks[promise.index()];
            if slot.is_none() {
                *slot = Some((self.tried, Vec::new()));
                let shrinker = Shrinker::new(&self.setup, &trial.steps, promise, SHRINK_RUNS);
                self.shrinks.push((self.tried, shrinker));
            }
        }
        true
    }
}

/// The whole table, filled a unit at a time.
#[derive(Debug, Clone)]
pub struct SafetyTable {
    seed: u64,
    /// Histories each row tries at most.
    limit: u64,
    max_steps: usize,
    rows: Vec<Row>,
    /// The first row not done.
    at: usize,
}

impl SafetyTable {
    /// A table of every combination over `base` (the settings it does not
    /// vary), each row from `seed`, at most `limit` histories of up to
    /// `max_steps` steps.
    pub fn new(base: &Settings, seed: u64, limit: u64, max_steps: usize) -> Self {
        Self::of(Combination::all(), base, seed, limit, max_steps)
    }

    /// A table of the given combinations only.
    pub fn of(
        combinations: Vec<Combination>,
        base: &Settings,
        seed: u64,
        limit: u64,
        max_steps: usize,
    ) -> Self {
        SafetyTable {
            seed,
            limit,
            max_steps: max_steps.max(1),
            rows: combinations
                .into_iter()
                .map(|c| Row::new(c, base))
                .collect(),
            at: 0,
        }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn is_done(&self) -> bool {
        self.at >= self.rows.len()
    }

    /// Histories tried so far, over every row.
    pub fn histories(&self) -> u64 {
        self.rows.iter().map(Row::tried).sum()
    }

    /// Does up to `units` more (a unit is a history, or one run of a
    /// shrink); says whether the table is complete.
    pub fn advance(&mut self, units: u64) -> bool {
        let mut left = units;
        while left > 0 && !self.is_done() {
            if self.rows[self.at].step(self.seed, self.limit, self.max_steps) {
                left -= 1;
            } else {
                self.at += 1;
            }
        }
        self.is_done()
    }
}
