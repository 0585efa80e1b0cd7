//! Shrinking: from a history that breaks a promise to a smallest one that
//! still breaks it. Runs of steps are dropped (halves first, then single
//! steps), then each step is made simpler (no lost acknowledgement, the
//! first account and key, 100 points, shorter waits, smaller bursts), until
//! nothing more can go. A candidate is kept only if its own run breaks the
//! promise, so the result always does.

use super::promise::Promise;
use super::run::run;
use crate::core::GrantPoints;
use crate::lab::{Action, Setting};

use super::generate::ACCOUNTS;

/// The key every shrunk history prefers.
const FIRST_KEY: &str = "order-1";

/// Runs a shrink may make: enough for the histories the explorer makes.
pub const SHRINK_RUNS: usize = 2_000;

/// A smallest history found (within `budget` runs) that, after `setup`,
/// breaks `promise` as `steps` does. `steps` must break it.
pub fn shrink(setup: &[Setting], steps: &[Action], promise: Promise, budget: usize) -> Vec<Action> {
    let mut shrinker = Shrinker::new(setup, steps, promise, budget);
    while !shrinker.step() {}
    shrinker.best
}

/// A shrink in progress, one run at a time, so that a page can draw between
/// runs. Each round drops runs of steps (halves first, down to single
/// steps), renames keys and accounts to the first ones, then simplifies
/// step by step; rounds go on until one changes nothing.
#[derive(Debug, Clone)]
pub struct Shrinker {
    setup: Vec<Setting>,
    promise: Promise,
    best: Vec<Action>,
    /// The history as the round began: a round that ends on it ends the shrink.
    round_start: Vec<Action>,
    runs: usize,
    budget: usize,
    phase: Phase,
}

#[derive(Debug, Clone)]
enum Phase {
    /// Dropping `size` steps from `at`.
    Drop {
        size: usize,
        at: usize,
    },
    /// Trying the renames still to try, first one first.
    Rename(Vec<Rename>),
    /// Trying the `option`th simpler form of the step at `at`.
    Simplify {
        at: usize,
        option: usize,
    },
    Done,
}

#[derive(Debug, Clone)]
enum Rename {
    /// This key, everywhere, to the first key.
    Key(String),
    /// Every account to the first account.
    Accounts,
}

impl Shrinker {
    /// A shrink of `steps`, which break `promise` after `setup`, in at most
    /// `budget` runs.
    pub fn new(setup: &[Setting], steps: &[Action], promise: Promise, budget: usize) -> Self {
        Shrinker {
            setup: setup.to_vec(),
            promise,
            best: steps.to_vec(),
            round_start: steps.to_vec(),
            runs: 0,
            budget,
            phase: Phase::Drop {
                size: steps.len() / 2,
                at: 0,
            },
        }
    }

    /// The smallest history found so far: it breaks the promise.
    pub fn best(&self) -> &[Action] {
        &self.best
    }

    pub fn promise(&self) -> Promise {
        self.promise
    }

    /// Makes at most one run (moving on through the phases on the way); says
    /// whether the shrink is done.
    pub fn step(&mut self) -> bool {
        loop {
            if self.runs >= self.budget {
                self.phase = Phase::Done;
            }
            let candidate = match &mut self.phase {
                Phase::Done => return true,
                Phase::Drop { size, at } => {
                    if *size == 0 {
                        self.phase = Phase::Rename(renames(&self.best));
                        continue;
                    }
                    if *at + *size > self.best.len() {
                        *size /= 2;
                        *at = 0;
                        continue;
                    }
                    let (size, at) = (*size, *at);
                    let candidate: Vec<Action> = self.best[..at]
                        .iter()
                        .chain(&self.best[at + size..])
                        .cloned()
                        .collect();
                    if !self.keep(&candidate) {
                        if let Phase::Drop { at, .. } = &mut self.phase {
                            *at += 1;
                        }
                    }
                    return false;
                }
                Phase::Rename(left) => {
                    if left.is_empty() {
                        self.phase = Phase::Simplify { at: 0, option: 0 };
                        continue;
                    }
                    let rename = left.remove(0);
                    match renamed(&self.best, &rename) {
                        Some(candidate) => candidate,
                        None => continue,
                    }
                }
                Phase::Simplify { at, option } => {
                    if *at >= self.best.len() {
                        if self.best == self.round_start {
                            self.phase = Phase::Done;
                            return true;
                        }
                        self.round_start = self.best.clone();
                        self.phase = Phase::Drop {
                            size: self.best.len() / 2,
                            at: 0,
                        };
                        continue;
                    }
                    let (at, option) = (*at, *option);
                    let Some(simpler) = simpler(&self.best[at]).into_iter().nth(option) else {
                        self.phase = Phase::Simplify {
                            at: at + 1,
                            option: 0,
                        };
                        continue;
                    };
                    let mut candidate = self.best.clone();
                    candidate[at] = simpler;
                    // Kept: look again from the same place (a refused step
                    // shortens the history); not: the next simpler form.
                    let next = if self.keep(&candidate) { 0 } else { option + 1 };
                    self.phase = Phase::Simplify { at, option: next };
                    return false;
                }
            };
            self.keep(&candidate);
            return false;
        }
    }

    /// Runs `candidate`; keeps what the lab accepted of it if the promise
    /// is still broken.
    fn keep(&mut self, candidate: &[Action]) -> bool {
        self.runs += 1;
        let trial = run(&self.setup, candidate);
        let broken = trial.broken.contains(self.promise);
        if broken {
            self.best = trial.steps;
        }
        broken
    }
}

/// The renames worth trying on `steps`: each key but the first to the first
/// (when the first is not used), and every account to the first (when the
/// first is not named).
fn renames(steps: &[Action]) -> Vec<Rename> {
    let mut keys: Vec<String> = steps
        .iter()
        .filter_map(|step| match step {
            Action::Send { grant, .. } => Some(grant.key.clone()),
            _ => None,
        })
        .collect();
    keys.sort();
    keys.dedup();
    let mut out: Vec<Rename> = keys
        .into_iter()
        .filter(|key| key != FIRST_KEY)
        .map(Rename::Key)
        .collect();
    out.push(Rename::Accounts);
    out
}

/// `steps` with the rename made, or `None` when it cannot be made (its
/// target already in use) or changes nothing.
fn renamed(steps: &[Action], rename: &Rename) -> Option<Vec<Action>> {
    let candidate: Vec<Action> = match rename {
        Rename::Key(key) => {
            let first_used = steps
                .iter()
                .any(|step| matches!(step, Action::Send { grant, .. } if grant.key == FIRST_KEY));
            if first_used {
                return None;
            }
            steps
                .iter()
                .map(|step| match step {
                    Action::Send {
                        grant,
                        lose_acknowledgement,
                    } if grant.key == *key => Action::Send {
                        grant: GrantPoints::new(FIRST_KEY, grant.account_id.clone(), grant.points),
                        lose_acknowledgement: *lose_acknowledgement,
                    },
                    other => other.clone(),
                })
                .collect()
        }
        Rename::Accounts => {
            if steps.iter().any(|step| names_account(step, ACCOUNTS[0])) {
                return None;
            }
            steps
                .iter()
                .map(|step| with_account(step, ACCOUNTS[0]))
                .collect()
        }
    };
    (candidate != steps).then_some(candidate)
}

/// Whether `step` names `account`.
fn names_account(step: &Action, account: &str) -> bool {
    account_of(&mut step.clone()).is_some_and(|name| name == account)
}

/// The account a step names, to read or to change: among the steps the
/// generator makes.
fn account_of(step: &mut Action) -> Option<&mut String> {
    match step {
        Action::Send { grant, .. } => Some(&mut grant.account_id),
        Action::Burst { account_id, .. } | Action::CheckBalance { account_id } => Some(account_id),
        Action::SignIn { account_id } => account_id.as_mut(),
        _ => None,
    }
}

/// A step with the account it names changed to `to`.
fn with_account(step: &Action, to: &str) -> Action {
    let mut step = step.clone();
    if let Some(account) = account_of(&mut step) {
        *account = to.to_owned();
    }
    step
}

/// Simpler forms of a step, simplest first; none when it is as simple as it gets.
pub fn simpler(step: &Action) -> Vec<Action> {
    let mut out = Vec::new();
    match step {
        Action::Send {
            grant,
            lose_acknowledgement,
        } => {
            let plain = GrantPoints::new(FIRST_KEY, ACCOUNTS[0], 100);
            let forms = [
                GrantPoints::new(grant.key.clone(), grant.account_id.clone(), 100),
                GrantPoints::new(grant.key.clone(), ACCOUNTS[0], grant.points),
                GrantPoints::new(FIRST_KEY, grant.account_id.clone(), grant.points),
            ];
            if *grant != plain {
                out.push(Action::Send {
                    grant: plain,
                    lose_acknowledgement: *lose_acknowledgement,
                });
            }
            for form in forms {
                if form != *grant {
                    out.push(Action::Send {
                        grant: form,
                        lose_acknowledgement: *lose_acknowledgement,
                    });
                }
            }
            if *lose_acknowledgement {
                out.push(Action::Send {
                    grant: grant.clone(),
                    lose_acknowledgement: false,
                });
            }
        }
        Action::RetrySame {
            lose_acknowledgement: true,
        } => out.push(Action::RetrySame {
            lose_acknowledgement: false,
        }),
        Action::RetryFresh {
            lose_acknowledgement,
        } => {
            out.push(Action::RetrySame {
                lose_acknowledgement: *lose_acknowledgement,
            });
            if *lose_acknowledgement {
                out.push(Action::RetryFresh {
                    lose_acknowledgement: false,
                });
            }
        }
        Action::Burst {
            account_id,
            points,
            count,
        } if *count > 1 => out.push(Action::Burst {
            account_id: account_id.clone(),
            points: *points,
            count: count / 2,
        }),
        Action::Wait { ms } => {
            // A round number (1, 2 or 5 times a power of ten) reads better: 187
            // ms becomes 100 or 200; a round one only ever gives a smaller one,
            // so shrinking ends.
            let (below, above) = round_around(*ms);
            if below == *ms {
                out.extend(round_below(*ms).map(|ms| Action::Wait { ms }));
            } else {
                out.push(Action::Wait { ms: below });
                if above != below {
                    out.push(Action::Wait { ms: above });
                }
            }
        }
        _ => {}
    }
    out
}

/// The round numbers (1, 2 or 5 times a power of ten) nearest below and above
/// `ms`; both `ms` when it is one.
fn round_around(ms: u64) -> (u64, u64) {
    let mut below = 1;
    for round in rounds() {
        if round == ms {
            return (ms, ms);
        }
        if round > ms {
            return (below, round);
        }
        below = round;
    }
    (below, below)
}

/// The round number just below a round `ms`, if there is one.
fn round_below(ms: u64) -> Option<u64> {
    rounds().take_while(|r| *r < ms).last()
}

/// 1, 2, 5, 10, 20, 50, … as far as a `u64` goes.
fn rounds() -> impl Iterator<Item = u64> {
    std::iter::successors(Some(1u64), |power| power.checked_mul(10))
        .flat_map(|power| [1, 2, 5].map(|digit| power.checked_mul(digit)))
        .map_while(|round| round)
}
