//! The lab as its history: the list of accepted actions and the state they make.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::limits::{MAX_ACTIONS, MAX_SENDS, MAX_WAIT_MS};
use super::state::{LabError, LabState};
use crate::sim::Millis;

/// A recorded session: the list of actions, in the form exported and shared.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    pub actions: Vec<Action>,
}

/// Why a recorded history could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// Position of the refused action in the list, from 0.
    pub index: usize,
    pub error: LabError,
}

/// State plus the history that made it. Every change goes through [`Lab::dispatch`],
/// so replaying `history()` on a new lab always gives the same state.
#[derive(Debug, Default)]
pub struct Lab {
    state: LabState,
    history: History,
    /// Grants queued by the whole history, against [`MAX_SENDS`].
    sends: u64,
    /// What undo took off the end of the history, newest undo last.
    undone: Vec<Vec<Action>>,
    /// How far in time the history reached before an undo or a travel back:
    /// the time slider's far end while something is undone.
    horizon: Option<Millis>,
}

impl Lab {
    pub fn new() -> Self {
        Self::default()
    }

    /// Carries out an action and records it; a refused action is not recorded.
    /// Anything new makes what was undone unreachable.
    pub fn dispatch(&mut self, action: Action) -> Result<(), LabError> {
        self.record(action)?;
        self.undone.clear();
        self.horizon = None;
        Ok(())
    }

    fn record(&mut self, action: Action) -> Result<(), LabError> {
        self.check_room(&action)?;
        self.state.apply(&action)?;
        self.sends += action.sends();
        // Time passes in many small waits (the page's clock ticks): keep a run of
        // them as one entry, which replays to the same world, as long as that entry
        // is itself a wait the lab accepts.
        if let (Action::Wait { ms }, Some(Action::Wait { ms: total })) =
            (&action, self.history.actions.last_mut())
        {
            if *total + *ms <= MAX_WAIT_MS {
                *total += *ms;
                return Ok(());
            }
        }
        self.history.actions.push(action);
        Ok(())
    }

    /// A session must stay within what a file or link may carry, or it could not be
    /// restored after a reload nor imported again. The last place is kept for
    /// time to pass, so work already queued can always finish.
    fn check_room(&self, action: &Action) -> Result<(), LabError> {
        let actions = self.history.actions.len();
        let full = match action {
            Action::Wait { .. } => {
                actions >= MAX_ACTIONS
                    && !matches!(self.history.actions.last(), Some(Action::Wait { .. }))
            }
            _ => actions + 1 >= MAX_ACTIONS || self.sends + action.sends() > MAX_SENDS,
        };
        if full {
            Err(LabError::SessionFull)
        } else {
            Ok(())
        }
    }

    /// Lets virtual time run to the next thing due to happen, recorded as a wait.
    /// Says whether anything was due (false: the world is idle).
    pub fn skip_to_next(&mut self) -> Result<bool, LabError> {
        let Some(next) = self.state.until_next() else {
            return Ok(false);
        };
        // A wait of 0 ms is not an action: something due now fires after 1 ms.
        self.dispatch(Action::Wait {
            ms: next.clamp(1, MAX_WAIT_MS),
        })?;
        Ok(true)
    }

    /// Lets virtual time run until nothing more will happen by itself (everything
    /// sent has been answered and worked off, or waits on a paused consumer).
    /// Every timer in the world is a deadline or a piece of work, so this ends.
    /// Says how much virtual time passed.
    pub fn skip_to_idle(&mut self) -> Result<u64, LabError> {
        let start = self.state.now();
        while self.skip_to_next()? {}
        Ok(self.state.now() - start)
    }

    /// Goes back to just before the last thing the person did (with the time that
    /// passed after it): the history's prefix, replayed.
    pub fn undo(&mut self) -> Result<(), LabError> {
        let cut = self
            .history
            .actions
            .iter()
            .rposition(|a| !matches!(a, Action::Wait { .. }))
            .ok_or(LabError::NothingToUndo)?;
        let undone = self.history.actions[cut..].to_vec();
        let mut earlier = self.rewound(cut);
        earlier.undone = std::mem::take(&mut self.undone);
        earlier.undone.push(undone);
        earlier.horizon = Some(self.horizon());
        *self = earlier;
        Ok(())
    }

    /// The time the whole history reaches, what is undone included: the far end
    /// of the time slider.
    pub fn horizon(&self) -> Millis {
        self.horizon.unwrap_or(0).max(self.state.now())
    }

    /// Takes the lab to the moment `at` of its history (what is undone included;
    /// a later moment is the horizon): the history replayed up to it, a wait cut
    /// where it crosses `at`, and the rest kept to go forward again, as undo
    /// keeps it. A moment inside a move of the clock is the moment it started.
    pub fn travel_to(&mut self, at: Millis) {
        let horizon = self.horizon();
        let at = at.min(horizon);
        let whole: Vec<Action> = self
            .history
            .actions
            .iter()
            .chain(self.undone.iter().rev().flatten())
            .cloned()
            .collect();
        let mut lab = Lab::new();
        let mut rest = Vec::new();
        for (i, action) in whole.iter().enumerate() {
            let now = lab.state.now();
            let passes = match action {
                Action::Wait { ms } | Action::MoveClock { ms } => now + ms > at,
                _ => now > at,
            };
            if passes {
                match action {
                    Action::Wait { ms } if at > now => {
                        lab.record(Action::Wait { ms: at - now })
                            .expect("a shorter wait is accepted where the whole was");
                        rest.push(Action::Wait { ms: now + ms - at });
                    }
                    _ => rest.push(action.clone()),
                }
                rest.extend_from_slice(&whole[i + 1..]);
                break;
            }
            lab.record(action.clone())
                .expect("an accepted history replays");
        }
        if !rest.is_empty() {
            lab.undone.push(rest);
            lab.horizon = Some(horizon);
        }
        *self = lab;
    }

    /// Does again what the last undo took back, exactly as it was.
    pub fn redo(&mut self) -> Result<(), LabError> {
        let actions = self.undone.pop().ok_or(LabError::NothingToRedo)?;
        for action in actions {
            self.record(action)
                .expect("an undone action replays where it was first accepted");
        }
        Ok(())
    }

    pub fn can_undo(&self) -> bool {
        self.history
            .actions
            .iter()
            .any(|a| !matches!(a, Action::Wait { .. }))
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Rebuilds a lab from a recorded history, refusing it whole at the first bad action.
    pub fn replay(history: &History) -> Result<Self, ReplayError> {
        let mut lab = Lab::new();
        for (index, action) in history.actions.iter().enumerate() {
            lab.dispatch(action.clone())
                .map_err(|error| ReplayError { index, error })?;
        }
        Ok(lab)
    }

    /// The lab as it was after its first `n` recorded actions: a true step back.
    pub fn rewound(&self, n: usize) -> Self {
        let actions = self.history.actions[..n.min(self.history.actions.len())].to_vec();
        Self::replay(&History { actions }).expect("a prefix of an accepted history replays")
    }

    pub fn state(&self) -> &LabState {
        &self.state
    }

    pub fn history(&self) -> &History {
        &self.history
    }
}
