//! A guest scenario: one that is not a section of the course but is played in
//! the walkthrough's player all the same (its steps, its stage, forward and
//! truly back, presenter mode and keys). The course's overview, progress and
//! challenges never count it. Today's guest is a history the explorer found:
//! the lab as the search set it up, then one step per step of the history,
//! then the end (the consumers released, time run until nothing is due), each
//! told by what it did in the world.

use super::marks::parse_mark;
use super::script::{Panel, Scenario, Step};
use super::tour::{play_to, ContentError};
use crate::lab::explore::{Promise, Said};
use crate::lab::{Action, Setting};

/// The id a guest's steps are reported under (never a section's `s1`…).
pub const GUEST_ID: &str = "found";

/// A history the explorer found, as a scenario for the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guest {
    pub script: Scenario,
    /// The promise the history breaks.
    pub promise: Promise,
    /// The history's steps, one per scenario step after the first.
    pub steps: Vec<Action>,
    /// What each step did, then what the end did (`steps.len() + 1` lists).
    pub said: Vec<Vec<Said>>,
}

/// What one of a guest's steps is, for its narration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuestStep<'a> {
    /// The lab as the search set it up, before the history's first step.
    Setup,
    /// One of the history's steps, and what it did.
    Step(&'a Action, &'a [Said]),
    /// The consumers released and time run until idle, and what that did.
    End(&'a [Said]),
}

impl Guest {
    /// The scenario of a found history: `setup` (the settings the search ran
    /// with), `steps` (the ones the lab accepted), and `said` (from
    /// [`crate::lab::explore::narrate`]). Refused when the player could not
    /// play it to its end, so a guest that opens always plays whole.
    pub fn found(
        setup: &[Setting],
        steps: &[Action],
        said: Vec<Vec<Said>>,
        promise: Promise,
    ) -> Result<Guest, ContentError> {
        if said.len() != steps.len() + 1 {
            return Err(ContentError::StepCount {
                scenario: GUEST_ID.to_string(),
                script: steps.len() + 1,
                text: said.len(),
            });
        }
        // The promises and the rows are what a found history is about.
        let shows = || Some(vec![Panel::Promises, Panel::Timeline]);
        let mut script_steps = vec![Step {
            actions: setup.iter().copied().map(Action::Set).collect(),
            shows: shows(),
            ..Step::default()
        }];
        for (step, did) in steps.iter().zip(&said) {
            script_steps.push(Step {
                actions: vec![step.clone()],
                shows: shows(),
                marks: marks(did),
                ..Step::default()
            });
        }
        script_steps.push(Step {
            actions: vec![Action::Set(Setting::Paused(false))],
            idle: true,
            shows: shows(),
            marks: marks(&said[steps.len()]),
            ..Step::default()
        });
        let guest = Guest {
            script: Scenario {
                id: GUEST_ID.to_string(),
                steps: script_steps,
                challenge: Vec::new(),
                solution: Vec::new(),
            },
            promise,
            steps: steps.to_vec(),
            said,
        };
        play_to(&guest.script, guest.script.steps.len())?;
        Ok(guest)
    }

    /// What scenario step `step` (from 0) is.
    pub fn step(&self, step: usize) -> Option<GuestStep<'_>> {
        match step.checked_sub(1) {
            None => Some(GuestStep::Setup),
            Some(n) if n < self.steps.len() => Some(GuestStep::Step(&self.steps[n], &self.said[n])),
            Some(n) if n == self.steps.len() => Some(GuestStep::End(&self.said[n])),
            Some(_) => None,
        }
    }
}

/// The parts of the picture that show a promise the step broke.
fn marks(said: &[Said]) -> Vec<String> {
    said.iter()
        .filter_map(|s| match s {
            Said::Broke(Promise::Kept(invariant)) => Some(format!("holds:{}", invariant.code())),
            Said::Broke(Promise::OneEmail) => Some("emails".to_string()),
            _ => None,
        })
        .filter(|name| parse_mark(name).is_ok())
        .collect()
}
