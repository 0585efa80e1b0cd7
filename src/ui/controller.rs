//! The page's only way to change the lab: dispatch an action, then let the
//! consumer run, paced by the processing delay (gloo-timers) or at once.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::Lang;
use crate::lab::{Action, Lab, LabError};

/// What the lab's last refusal was, shown until the next accepted action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Lab(LabError),
    /// The form has invalid fields; nothing was sent.
    FixFields,
}

/// Signals shared by every component. `Copy`, so closures can capture it freely.
#[derive(Clone, Copy)]
pub struct Controller {
    pub lab: RwSignal<Lab>,
    pub lang: RwSignal<Lang>,
    pub notice: RwSignal<Option<Notice>>,
    /// Pacing for the eye only: how long the consumer holds each delivery.
    pub delay_ms: RwSignal<u32>,
    driver_running: StoredValue<bool>,
}

impl Controller {
    pub fn new(lang: Lang) -> Self {
        Self {
            lab: RwSignal::new(Lab::new()),
            lang: RwSignal::new(lang),
            notice: RwSignal::new(None),
            delay_ms: RwSignal::new(0),
            driver_running: StoredValue::new(false),
        }
    }

    /// Carries out an action; a refusal is shown and changes nothing.
    pub fn dispatch(self, action: Action) {
        let result = self
            .lab
            .try_update(|lab| lab.dispatch(action))
            .unwrap_or(Ok(()));
        match result {
            Ok(()) => {
                self.notice.set(None);
                self.run_consumer();
            }
            Err(error) => self.notice.set(Some(Notice::Lab(error))),
        }
    }

    pub fn reset(self) {
        self.lab.set(Lab::new());
        self.notice.set(None);
    }

    /// Lets the consumer work through the queue: all at once with no delay, else one
    /// move at a time, holding each delivery for the delay before finishing it.
    pub fn run_consumer(self) {
        if self.delay_ms.get_untracked() == 0 {
            self.lab.update(Lab::drain);
            return;
        }
        if self.driver_running.get_value() {
            return;
        }
        self.driver_running.set_value(true);
        spawn_local(async move {
            loop {
                let delay = self.delay_ms.get_untracked();
                if delay == 0 {
                    self.lab.update(Lab::drain);
                    break;
                }
                let (can_step, holding) = self.lab.with_untracked(|lab| {
                    (lab.state().can_step(), lab.state().in_hand().is_some())
                });
                if !can_step {
                    break;
                }
                if holding {
                    TimeoutFuture::new(delay).await;
                }
                // A reset during the wait may have left nothing to do: that is fine.
                self.lab.update(|lab| {
                    let _ = lab.dispatch(Action::Advance { steps: 1 });
                });
            }
            self.driver_running.set_value(false);
        });
    }
}
