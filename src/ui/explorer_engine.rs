//! The explorer's engine as the page drives it: searches, the safety table,
//! replays and narrations, behind one object whose code arrives in a chunk
//! of its own the first time it is asked for (see `deferred`), and the loop
//! that runs their work in slices of a few milliseconds, the page drawing
//! between them.

use std::rc::Rc;

use leptos::prelude::*;

use crate::lab::explore::{
    narrate, Cell, Combination, Found, Promise, SafetyTable, Said, Search, Verdict,
    DEFAULT_MAX_STEPS,
};
use crate::lab::{Action, Lab, Setting, Settings};

use super::deferred::{arrive, part, with_retries, ChunkError};
use super::page_env::now_ms;
use super::startup::next_task;

/// How long one slice of work runs before the page gets its turn.
const SLICE_MS: f64 = 8.0;

/// Histories each row of the safety table tries at most.
pub const TABLE_HISTORIES: u64 = 1_000;

/// What the explorer can do, once its chunk is here.
pub trait Engine {
    fn search(&self, settings: Settings, seed: u64, limit: u64) -> Box<dyn Searching>;
    fn table(&self, base: Settings, seed: u64) -> Box<dyn Tabling>;
    /// The lab `steps` make after `setup`, run to their end.
    fn replay(&self, setup: &[Setting], steps: &[Action]) -> Lab;
    /// What each step did, then the end.
    fn narrate(&self, setup: &[Setting], steps: &[Action]) -> Vec<Vec<Said>>;
}

/// A search under way.
pub trait Searching {
    /// One unit more (a history, or a run of the shrink); where it stands.
    fn advance_one(&mut self) -> Verdict;
    /// The settings' changes its histories start with.
    fn setup(&self) -> Vec<Setting>;
    /// Ends a shrink under way with the smallest history so far.
    fn stop_shrinking(&mut self) -> Verdict;
}

/// The safety table under way.
pub trait Tabling {
    /// One unit more; false once the table is complete.
    fn advance_one(&mut self) -> bool;
    fn histories(&self) -> u64;
    /// Rows complete, in order.
    fn rows_done(&self) -> usize;
    fn rows(&self) -> usize;
    fn row(&self, index: usize) -> TableRow;
}

/// One complete row of the table, as the page draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    pub combination: Combination,
    pub setup: Vec<Setting>,
    /// One per promise, in `Promise::ALL`'s order.
    pub cells: Vec<(Promise, Cell)>,
}

struct Explorer;

impl Engine for Explorer {
    fn search(&self, settings: Settings, seed: u64, limit: u64) -> Box<dyn Searching> {
        Box::new(Search::new(&settings, seed, limit, DEFAULT_MAX_STEPS))
    }

    fn table(&self, base: Settings, seed: u64) -> Box<dyn Tabling> {
        Box::new(SafetyTable::new(
            &base,
            seed,
            TABLE_HISTORIES,
            DEFAULT_MAX_STEPS,
        ))
    }

    fn replay(&self, setup: &[Setting], steps: &[Action]) -> Lab {
        crate::lab::explore::run(setup, steps).lab
    }

    fn narrate(&self, setup: &[Setting], steps: &[Action]) -> Vec<Vec<Said>> {
        narrate(setup, steps)
    }
}

impl Searching for Search {
    fn advance_one(&mut self) -> Verdict {
        self.advance(1).clone()
    }

    fn setup(&self) -> Vec<Setting> {
        Search::setup(self).to_vec()
    }

    fn stop_shrinking(&mut self) -> Verdict {
        Search::stop_shrinking(self).clone()
    }
}

impl Tabling for SafetyTable {
    fn advance_one(&mut self) -> bool {
        !self.advance(1)
    }

    fn histories(&self) -> u64 {
        SafetyTable::histories(self)
    }

    fn rows_done(&self) -> usize {
        self.rows().iter().take_while(|row| row.is_done()).count()
    }

    fn rows(&self) -> usize {
        SafetyTable::rows(self).len()
    }

    fn row(&self, index: usize) -> TableRow {
        let row = &SafetyTable::rows(self)[index];
        TableRow {
            combination: row.combination,
            setup: row.setup().to_vec(),
            cells: Promise::ALL.iter().map(|p| (*p, row.cell(*p))).collect(),
        }
    }
}

part! {
    /// The explorer: in its own chunk of a split build.
    explorer: fn engine() -> Box<dyn Engine> {
        Box::new(Explorer)
    }
}

/// The engine, fetched the first time it is asked for and kept.
#[derive(Clone, Copy)]
pub struct EngineSlot(StoredValue<Option<Rc<dyn Engine>>, LocalStorage>);

impl EngineSlot {
    pub fn new() -> Self {
        EngineSlot(StoredValue::new_local(None))
    }

    /// The engine, once here; `None` when its chunk could not arrive.
    pub async fn get(self) -> Option<Rc<dyn Engine>> {
        if let Some(engine) = self.0.try_get_value().flatten() {
            return Some(engine);
        }
        let arrived: Result<Box<dyn Engine>, ChunkError> =
            with_retries(|| arrive!(engine()), None).await;
        let engine: Rc<dyn Engine> = Rc::from(arrived.ok()?);
        self.0.try_set_value(Some(engine.clone()));
        Some(engine)
    }
}

/// Which run of a piece of work is the newest: starting one, or cancelling,
/// ends the last at its next slice.
#[derive(Clone, Copy)]
pub struct Runs(StoredValue<u64>);

impl Runs {
    pub fn new() -> Self {
        Runs(StoredValue::new(0))
    }

    /// Starts a run: whether it is still the newest, for `in_slices`.
    pub fn start(self) -> impl Fn() -> bool + Copy + 'static {
        let mine = self.0.get_value() + 1;
        self.0.set_value(mine);
        move || self.0.try_get_value() == Some(mine)
    }

    /// Ends the run under way.
    pub fn cancel(self) {
        self.0.update_value(|n| *n += 1);
    }
}

/// Runs `work` a unit at a time (it says whether more is left) in slices of
/// [`SLICE_MS`], calling `drawn` after each and letting the page draw, while
/// `current` holds. Says whether the work was done (not stopped).
pub async fn in_slices(
    current: impl Fn() -> bool,
    mut work: impl FnMut() -> bool,
    mut drawn: impl FnMut(),
) -> bool {
    loop {
        if !current() {
            return false;
        }
        let slice = now_ms();
        let mut more = true;
        while more && now_ms() - slice < SLICE_MS {
            more = work();
        }
        drawn();
        if !more {
            return true;
        }
        next_task().await;
    }
}

/// A found history as the page shows it: the settings it starts from, its
/// steps, and what each did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub setup: Vec<Setting>,
    pub found: Found,
    pub said: Vec<Vec<Said>>,
}

/// What the explorer's panel and the safety table share: the engine, the
/// history on show, and the seed both start from.
#[derive(Clone, Copy)]
pub struct ExplorerShared {
    pub engine: EngineSlot,
    pub shown: RwSignal<Option<Shown>>,
    pub seed: RwSignal<String>,
}

impl ExplorerShared {
    pub fn new() -> Self {
        ExplorerShared {
            engine: EngineSlot::new(),
            shown: RwSignal::new(None),
            seed: RwSignal::new("1".to_string()),
        }
    }
}
