//! The page's only way to change the lab: dispatch an action, then let the
//! consumer run, paced by the processing delay (gloo-timers) or at once.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::Lang;
use crate::lab::{Action, Lab, LabError, SessionError};

/// With no delay, up to this many consumer moves run at once, in the same task.
const DRAIN_AT_ONCE: usize = 1000;
/// Past that, the consumer works in time slices of about this long, yielding to the
/// browser (which then draws) between them, so a 10,000-grant run never blocks it.
const SLICE_MS: f64 = 6.0;
/// Moves between two looks at the clock within a slice.
const MOVES_PER_CHECK: u32 = 200;

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// A message above the lab, until the next accepted action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Lab(LabError),
    /// The form has invalid fields; nothing was sent.
    FixFields,
    /// The link's session could not be opened; the lab kept what it had.
    Link(SessionError),
    /// The chosen file could not be imported; the lab kept what it had.
    Import(SessionError),
    /// A session was imported, with this many actions.
    Imported(usize),
    /// The session saved before the reload could not be restored.
    Saved(SessionError),
    /// The browser refused to keep the session (storage off or full).
    NotKept,
}

impl Notice {
    /// Errors are announced at once (role "alert"); the rest politely. Storage that
    /// is off (a sandboxed embed, say) is worth knowing, not an alarm.
    pub fn is_error(&self) -> bool {
        !matches!(self, Notice::Imported(_) | Notice::NotKept)
    }
}

/// Signals shared by every component. `Copy`, so closures can capture it freely.
#[derive(Clone, Copy)]
pub struct Controller {
    pub lab: RwSignal<Lab>,
    pub lang: RwSignal<Lang>,
    pub notice: RwSignal<Option<Notice>>,
    /// Pacing for the eye only: how long the consumer holds each delivery.
    pub delay_ms: RwSignal<u32>,
    /// Counts whole-lab replacements (reset, import, link), so views keyed by
    /// attempt id know a new lab's attempt 1 is not the old one's.
    pub epoch: RwSignal<u64>,
    driver_running: StoredValue<bool>,
}

impl Controller {
    pub fn new(lang: Lang, lab: Lab) -> Self {
        Self {
            lab: RwSignal::new(lab),
            lang: RwSignal::new(lang),
            notice: RwSignal::new(None),
            delay_ms: RwSignal::new(0),
            epoch: RwSignal::new(0),
            driver_running: StoredValue::new(false),
        }
    }

    /// Carries out an action; a refusal is shown and changes nothing. Says whether
    /// the action was accepted.
    pub fn dispatch(self, action: Action) -> bool {
        // A big batch (a stress run) is applied now and drawn in the next task:
        // building thousands of producers and redrawing the page then never add
        // up to one long task.
        let big = action.sends() > DRAIN_AT_ONCE as u64;
        let apply = |lab: &mut Lab| lab.dispatch(action);
        let result = if big {
            self.lab.try_update_untracked(apply)
        } else {
            self.lab.try_update(apply)
        }
        .unwrap_or(Ok(()));
        match result {
            Ok(()) => {
                self.notice.set(None);
                if big {
                    spawn_local(async move {
                        TimeoutFuture::new(0).await;
                        self.lab.notify();
                    });
                }
                self.run_consumer();
                true
            }
            Err(error) => {
                self.notice.set(Some(Notice::Lab(error)));
                false
            }
        }
    }

    /// Replaces the whole lab (reset, an imported or linked session) and lets it
    /// run on. A message about the old lab no longer applies.
    pub fn load(self, lab: Lab) {
        self.epoch.update(|e| *e += 1);
        self.notice.set(None);
        self.lab.set(lab);
        self.run_consumer();
    }

    pub fn reset(self) {
        self.load(Lab::new());
    }

    /// Up to `steps` consumer moves; false when it had nothing left it may do.
    /// (A reset during a wait may have left nothing to do: that is fine.)
    fn advance(self, steps: u32) -> bool {
        self.lab.update(|lab| {
            let _ = lab.dispatch(Action::Advance { steps });
        });
        self.lab.with_untracked(|lab| lab.state().can_step())
    }

    /// Lets the consumer work through the queue: at once (in slices) with no delay,
    /// else one move at a time, holding each delivery for the delay before finishing.
    pub fn run_consumer(self) {
        let pending = self.lab.with_untracked(|lab| lab.state().steps_to_drain());
        if pending == 0 {
            // Nothing queued (a new page, say): an update now would only wake every view.
            return;
        }
        if self.delay_ms.get_untracked() == 0 && pending <= DRAIN_AT_ONCE {
            self.lab.update(Lab::drain);
            return;
        }
        if self.driver_running.get_value() {
            return;
        }
        self.driver_running.set_value(true);
        spawn_local(async move {
            // Let the task that queued the work end (and draw the queue) first.
            TimeoutFuture::new(0).await;
            loop {
                let (can_step, holding) = self.lab.with_untracked(|lab| {
                    (lab.state().can_step(), lab.state().in_hand().is_some())
                });
                if !can_step {
                    break;
                }
                let delay = self.delay_ms.get_untracked();
                if delay == 0 {
                    // Several updates, one redraw: effects run after the slice.
                    let started = now_ms();
                    while now_ms() - started < SLICE_MS && self.advance(MOVES_PER_CHECK) {}
                    TimeoutFuture::new(0).await;
                } else {
                    if holding {
                        TimeoutFuture::new(delay).await;
                    }
                    self.advance(1);
                }
            }
            self.driver_running.set_value(false);
        });
    }
}
