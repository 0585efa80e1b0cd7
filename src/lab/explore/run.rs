//! One history run in a fresh world: the settings first, then the steps (a
//! step the lab refuses, such as a retry before any send, is left out, as the
//! lab itself leaves it out), then the consumers released and time let run
//! until nothing more will happen, so that every promise can be judged.

use super::promise::{Broken, Watch};
use crate::address::STATE_FRAGMENT;
use crate::lab::{to_link_token, Action, History, Lab, Setting};

/// What a run made of a history.
#[derive(Debug)]
pub struct Trial {
    /// The steps the lab accepted, in order.
    pub steps: Vec<Action>,
    pub broken: Broken,
    /// The lab after the run: its history replays it.
    pub lab: Lab,
}

/// A history being run, a step at a time, with its promises watched.
#[derive(Debug)]
pub struct Runner {
    lab: Lab,
    watch: Watch,
}

impl Runner {
    /// A new lab told `setup`.
    pub fn new(setup: &[Setting]) -> Self {
        let mut lab = Lab::new();
        for change in setup {
            // The setup is a valid settings' changes; one refused would be a bug.
            lab.dispatch(Action::Set(*change))
                .expect("the lab accepts its own settings");
        }
        let mut watch = Watch::default();
        watch.after(lab.state(), None);
        Runner { lab, watch }
    }

    /// Does one step; says whether the lab accepted it.
    pub fn step(&mut self, step: &Action) -> bool {
        if self.lab.dispatch(step.clone()).is_err() {
            return false;
        }
        let read = match step {
            Action::CheckBalance { account_id } => Some(account_id.as_str()),
            _ => None,
        };
        self.watch.after(self.lab.state(), read);
        true
    }

    /// Releases the consumers and lets time run until the world is idle. A
    /// session too full for more is judged as it stands.
    pub fn finish(&mut self) {
        let _ = self.lab.dispatch(Action::Set(Setting::Paused(false)));
        let _ = self.lab.skip_to_idle();
        self.watch.after(self.lab.state(), None);
    }

    /// Every promise broken so far.
    pub fn broken(&self) -> Broken {
        self.watch.broken(self.lab.state())
    }

    pub fn lab(&self) -> &Lab {
        &self.lab
    }

    pub fn into_lab(self) -> Lab {
        self.lab
    }
}

/// Runs `steps` after `setup` in a new lab.
pub fn run(setup: &[Setting], steps: &[Action]) -> Trial {
    let mut runner = Runner::new(setup);
    let steps: Vec<Action> = steps
        .iter()
        .filter(|step| runner.step(step))
        .cloned()
        .collect();
    runner.finish();
    Trial {
        steps,
        broken: runner.broken(),
        lab: runner.into_lab(),
    }
}

/// The whole of a run as the lab records it (settings, steps, the waits to
/// the end): what a link or the walkthrough's player replays.
pub fn recorded(setup: &[Setting], steps: &[Action]) -> History {
    run(setup, steps).lab.history().clone()
}

/// The fragment (`#state=…`) that opens `history` in the lab's sandbox: what a
/// failing test prints, to be added to the lab's address.
pub fn fragment(history: &History) -> String {
    format!("{STATE_FRAGMENT}{}", to_link_token(history))
}
