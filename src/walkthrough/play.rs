//! A step's time, played: the step's actions happen in order, and its waits
//! (and its "until nothing more is due") pass a slice at a time, so the page can
//! show a caller wait and time out. However it is sliced, a step lands on the
//! very state running it at once gives: the same actions, the same total of
//! waited time, which the world adds up the same way.

use std::collections::VecDeque;

use super::script::Step;
use crate::lab::{Action, Lab, LabError, MAX_WAIT_MS};
use crate::sim::Millis;

/// What is left of a step being played.
#[derive(Debug, Clone)]
pub enum Op {
    Act(Action),
    /// This much virtual time still to pass.
    Time(Millis),
    /// Time until the step's end (the script's "run until idle").
    UntilEnd,
}

/// The ops of a step, in order.
pub fn ops(step: &Step) -> VecDeque<Op> {
    let mut ops: VecDeque<Op> = step
        .actions
        .iter()
        .map(|a| match a {
            Action::Wait { ms } => Op::Time(*ms),
            other => Op::Act(other.clone()),
        })
        .collect();
    if step.idle {
        ops.push_back(Op::UntilEnd);
    }
    ops
}

/// Whether a step has time to play at all.
pub fn has_time(step: &Step) -> bool {
    step.idle
        || step
            .actions
            .iter()
            .any(|a| matches!(a, Action::Wait { .. }))
}

/// Carries out `ops` on `lab` for at most `budget` ms of virtual time; the step
/// ends at virtual time `end`. Actions due on the way happen in order. Should
/// the lab refuse anything (the script's actions are checked ahead, so it does
/// not), nothing more is played and the refusal is returned.
pub fn advance(
    lab: &mut Lab,
    ops: &mut VecDeque<Op>,
    end: Millis,
    mut budget: Millis,
) -> Result<(), LabError> {
    while let Some(op) = ops.front_mut() {
        let left = match op {
            Op::Act(action) => {
                let action = action.clone();
                ops.pop_front();
                lab.dispatch(action).inspect_err(|_| ops.clear())?;
                continue;
            }
            Op::Time(left) => *left,
            Op::UntilEnd => end.saturating_sub(lab.state().now()),
        };
        if left == 0 {
            ops.pop_front();
            continue;
        }
        if budget == 0 {
            return Ok(());
        }
        let ms = left.min(budget).min(MAX_WAIT_MS);
        if let Op::Time(left) = op {
            *left -= ms;
        }
        budget -= ms;
        lab.dispatch(Action::Wait { ms })
            .inspect_err(|_| ops.clear())?;
    }
    Ok(())
}
