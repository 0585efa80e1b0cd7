//! The lab as its history: the list of accepted actions and the state they make.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::engine::{LabError, LabState};
use super::session::{MAX_ACTIONS, MAX_SENDS};

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
}

impl Lab {
    pub fn new() -> Self {
        Self::default()
    }

    /// Carries out an action and records it; a refused action is not recorded.
    pub fn dispatch(&mut self, action: Action) -> Result<(), LabError> {
        self.check_room(&action)?;
        let before = self.state.steps_to_drain();
        self.state.apply(&action)?;
        let Action::Advance { .. } = action else {
            self.sends += action.sends();
            self.history.actions.push(action);
            return Ok(());
        };
        // Consumer moves come in long runs: keep them as one entry with the number of
        // moves actually made, which replays to the same state.
        let made = moves_made(before, &self.state);
        match self.history.actions.last_mut() {
            Some(Action::Advance { steps: total }) if total.checked_add(made).is_some() => {
                *total += made;
            }
            _ => self.history.actions.push(Action::Advance { steps: made }),
        }
        Ok(())
    }

    /// A session must stay within what a file or link may carry, or it could not be
    /// restored after a reload nor imported again. The last place is kept for the
    /// consumer, so work already queued can always finish.
    fn check_room(&self, action: &Action) -> Result<(), LabError> {
        let actions = self.history.actions.len();
        let full = match action {
            Action::Advance { .. } => {
                actions >= MAX_ACTIONS
                    && !matches!(self.history.actions.last(), Some(Action::Advance { .. }))
            }
            _ => actions + 1 >= MAX_ACTIONS || self.sends + action.sends() > MAX_SENDS,
        };
        if full {
            Err(LabError::SessionFull)
        } else {
            Ok(())
        }
    }

    /// Lets the consumer run until it has nothing left it may do.
    pub fn drain(&mut self) {
        let steps = u32::try_from(self.state.steps_to_drain()).unwrap_or(u32::MAX);
        if steps > 0 {
            // Idle (paused with an empty hand) is not an error for draining.
            let _ = self.dispatch(Action::Advance { steps });
        }
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

/// Each move either finishes the delivery in hand or takes the next one, and both
/// lower `steps_to_drain` by exactly one (a waiting producer moving into the queue
/// does not change it), so the drop counts the moves.
fn moves_made(before: usize, state: &LabState) -> u32 {
    u32::try_from(before - state.steps_to_drain()).unwrap_or(u32::MAX)
}
