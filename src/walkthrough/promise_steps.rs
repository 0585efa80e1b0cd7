//! Where, in a scenario, each promise broke: a lecturer's screen says "broken
//! at step 2" once a later step has fixed what broke it, rather than showing
//! the fix under a red mark. Presentation only: whether a promise holds is the
//! promises' fold's to judge, and it does not change here.

use super::script::Scenario;
use super::tour::{run_step, ContentError};
use crate::lab::{Invariant, Lab};

/// The steps (from 0) at which one promise broke, up to a given step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromiseSteps {
    /// The step that broke it first.
    pub first: Option<usize>,
    /// The step that broke it last: the step on show, or an earlier one whose
    /// break no later step repeated.
    pub latest: Option<usize>,
}

impl PromiseSteps {
    /// Broken before `step`, and not again since.
    pub fn broken_before(&self, step: usize) -> Option<usize> {
        self.latest.filter(|&latest| latest < step)
    }
}

/// For each promise (in `Invariant::ALL`'s order), the steps of `script` up to
/// `step` that broke it, played from a new lab.
pub fn promise_steps(
    script: &Scenario,
    step: usize,
) -> Result<[PromiseSteps; Invariant::COUNT], ContentError> {
    let mut lab = Lab::new();
    let mut counts = [0u32; Invariant::COUNT];
    let mut steps = [PromiseSteps::default(); Invariant::COUNT];
    for (n, s) in script.steps.iter().take(step + 1).enumerate() {
        run_step(&mut lab, s).map_err(|error| ContentError::Refused {
            scenario: script.id.clone(),
            step: n + 1,
            error,
        })?;
        for (i, invariant) in Invariant::ALL.into_iter().enumerate() {
            let count = lab.state().invariants().break_count(invariant);
            if count > counts[i] {
                counts[i] = count;
                steps[i].first.get_or_insert(n);
                steps[i].latest = Some(n);
            }
        }
    }
    Ok(steps)
}
