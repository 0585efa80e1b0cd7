//! One history run in a fresh world: the settings first, then the steps (a
//! step the lab refuses, such as a retry before any send, is left out, as the
//! lab itself leaves it out), then the consumers released and time let run
//! until nothing more will happen, so that every promise can be judged.

use super::promise::{Broken, Watch};
use crate::lab::{Action, History, Lab, Setting};

/// What a run made of a history.
#[derive(Debug)]
pub struct Trial {
    /// The steps the lab accepted, in order.
    pub steps: Vec<Action>,
    pub broken: Broken,
    /// The lab after the run: its history replays it.
    pub lab: Lab,
}

/// Runs `steps` after `setup` in a new lab.
pub fn run(setup: &[Setting], steps: &[Action]) -> Trial {
    let mut lab = Lab::new();
    for change in setup {
        // The setup is a valid settings' changes; one refused would be a bug.
        lab.dispatch(Action::Set(*change))
            .expect("the lab accepts its own settings");
    }
    let mut watch = Watch::default();
    let mut accepted = Vec::with_capacity(steps.len());
    for step in steps {
        if lab.dispatch(step.clone()).is_ok() {
            let read = match step {
                Action::CheckBalance { account_id } => Some(account_id.as_str()),
                _ => None,
            };
            watch.after(lab.state(), read);
            accepted.push(step.clone());
        }
    }
    finish(&mut lab);
    watch.after(lab.state(), None);
    Trial {
        steps: accepted,
        broken: watch.broken(lab.state()),
        lab,
    }
}

/// Releases the consumers and lets time run until the world is idle. A
/// session too full for more is judged as it stands.
fn finish(lab: &mut Lab) {
    let _ = lab.dispatch(Action::Set(Setting::Paused(false)));
    let _ = lab.skip_to_idle();
}

/// The whole of a run as the lab records it (settings, steps, the waits to
/// the end): what a link or the walkthrough's player replays.
pub fn recorded(setup: &[Setting], steps: &[Action]) -> History {
    run(setup, steps).lab.history().clone()
}
