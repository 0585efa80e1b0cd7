//! A search for a history that breaks a promise, run a few histories at a
//! time so that a page can keep drawing between slices: histories from one
//! seed, tried in order, until one breaks a promise (then shrunk) or the
//! limit is reached. The same seed and settings always give the same result.

use super::generate::{history, rng_for};
use super::promise::Promise;
use super::run::{recorded, run};
use super::shrink::{Shrinker, SHRINK_RUNS};
use crate::lab::{Action, History, Setting, Settings};

/// Histories a search tries unless asked for more.
pub const DEFAULT_HISTORIES: u64 = 10_000;
/// The longest history a search makes, in steps.
pub const DEFAULT_MAX_STEPS: usize = 12;

/// A history that broke a promise, shrunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub promise: Promise,
    /// The shrunk steps, after the settings.
    pub steps: Vec<Action>,
    /// Which history of the search broke it, from 1: how many were tried.
    pub tried: u64,
}

/// Where a search stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Still trying; this many histories so far, none broke a promise.
    Running {
        tried: u64,
    },
    /// History number `tried` broke `promise`: it is being shrunk.
    Shrinking {
        tried: u64,
        promise: Promise,
    },
    Broken(Found),
    /// No promise broken in this many histories.
    Held {
        tried: u64,
    },
}

/// A search from one seed under one set of settings.
#[derive(Debug, Clone)]
pub struct Search {
    settings: Settings,
    setup: Vec<Setting>,
    seed: u64,
    limit: u64,
    max_steps: usize,
    verdict: Verdict,
    /// The shrink under way while the verdict is `Shrinking`.
    shrinker: Option<Shrinker>,
}

impl Search {
    /// A search under `settings`, from `seed`, of at most `limit` histories of up
    /// to `max_steps` steps.
    pub fn new(settings: &Settings, seed: u64, limit: u64, max_steps: usize) -> Self {
        Search {
            settings: *settings,
            setup: settings.changes(),
            seed,
            limit,
            max_steps: max_steps.max(1),
            verdict: if limit == 0 {
                Verdict::Held { tried: 0 }
            } else {
                Verdict::Running { tried: 0 }
            },
            shrinker: None,
        }
    }

    /// The settings' changes every history starts with.
    pub fn setup(&self) -> &[Setting] {
        &self.setup
    }

    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// Does up to `units` more of the search (a unit is a history tried, or
    /// one run of a shrink), so that a page can draw between slices.
    pub fn advance(&mut self, units: u64) -> &Verdict {
        for _ in 0..units {
            if !self.step() {
                break;
            }
        }
        &self.verdict
    }

    /// One unit of work; false once the search is over.
    fn step(&mut self) -> bool {
        match self.verdict {
            Verdict::Running { tried } if tried < self.limit => {
                let mut rng = rng_for(self.seed, tried);
                let steps = history(&mut rng, &self.settings, self.max_steps);
                let tried = tried + 1;
                let trial = run(&self.setup, &steps);
                self.verdict = match trial.broken.first() {
                    Some(promise) => {
                        self.shrinker = Some(Shrinker::new(
                            &self.setup,
                            &trial.steps,
                            promise,
                            SHRINK_RUNS,
                        ));
                        Verdict::Shrinking { tried, promise }
                    }
                    None if tried >= self.limit => Verdict::Held { tried },
                    None => Verdict::Running { tried },
                };
                true
            }
            Verdict::Running { tried } => {
                self.verdict = Verdict::Held { tried };
                false
            }
            Verdict::Shrinking { tried, promise } => {
                let shrinker = self.shrinker.as_mut().expect("a shrink while shrinking");
                if shrinker.step() {
                    let steps = shrinker.best().to_vec();
                    self.shrinker = None;
                    self.verdict = Verdict::Broken(Found {
                        promise,
                        steps,
                        tried,
                    });
                }
                true
            }
            Verdict::Broken(_) | Verdict::Held { .. } => false,
        }
    }

    /// Stops a search being shrunk: it is broken by the smallest history found
    /// so far (which breaks the promise, as every step of a shrink does). Any
    /// other search is left as it stands.
    pub fn stop_shrinking(&mut self) -> &Verdict {
        if let (Verdict::Shrinking { tried, promise }, Some(shrinker)) =
            (&self.verdict, self.shrinker.take())
        {
            self.verdict = Verdict::Broken(Found {
                promise: *promise,
                steps: shrinker.best().to_vec(),
                tried: *tried,
            });
        }
        &self.verdict
    }

    /// Runs the whole search at once (tests and the benchmark).
    pub fn finish(&mut self) -> &Verdict {
        self.advance(u64::MAX)
    }

    /// What a found history replays as: the settings, its steps and the waits
    /// to the end, as the lab records them.
    pub fn replay(&self, found: &Found) -> History {
        recorded(&self.setup, &found.steps)
    }
}
