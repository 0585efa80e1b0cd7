//! Keeps the person's session saved for the next reload, without writing it on
//! every tick of the clock: an action, and a lab come to rest, are saved at
//! once; while the clock runs (a skip, a stress run) the newest session is
//! saved at most every `SAVE_EVERY_MS`. Leaving the page saves what is not
//! saved yet.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use super::controller::{Controller, Notice};
use super::page_env::{self, now_ms};
use super::walk::Walk;
use crate::lab::to_compact_json;

/// The longest a change waits to be saved while the clock runs.
const SAVE_EVERY_MS: f64 = 400.0;

#[derive(Default)]
struct SaveState {
    /// When the last save was written (page clock), if one was.
    last: Cell<Option<f64>>,
    /// A change is waiting for its save.
    dirty: Cell<bool>,
    /// A save is scheduled.
    scheduled: Cell<bool>,
    /// The timer of the newest scheduled save (dropping it cancels it).
    timer: RefCell<Option<Timeout>>,
}

/// Saves the session after every change of the lab while the walkthrough is
/// closed (the walkthrough's lab is the script's: the person's own waits
/// aside). `from_link`: the session came from a link, which has left the
/// address, so it is saved even while it is still empty.
pub fn keep_saved(ctl: Controller, walk: Walk, from_link: bool) {
    let state = Rc::new(SaveState::default());
    let told_not_kept = StoredValue::new(false);
    let write = move |state: &SaveState| {
        state.dirty.set(false);
        state.last.set(Some(now_ms()));
        if walk.open.get_untracked() {
            return;
        }
        let json = ctl.lab.with_untracked(|lab| to_compact_json(lab.history()));
        // Said once per page, so later actions are not buried under the same
        // warning; and never over another message (a broken link, say): the
        // next refused save tells it instead.
        if !page_env::save(&json)
            && !told_not_kept.get_value()
            && ctl.notice.with_untracked(Option::is_none)
        {
            told_not_kept.set_value(true);
            ctl.notice
                .set(Some(if page_env::storage_denied_to_foreign_frame() {
                    Notice::NotKeptFramed
                } else {
                    Notice::NotKept
                }));
        }
    };
    {
        let state = state.clone();
        Effect::new(move |first_run: Option<()>| {
            ctl.lab.track();
            if walk.open.get() {
                return;
            }
            // A new, empty lab has nothing worth writing: skipping it keeps the
            // serializer off the start-up path, and keeps a saved session that
            // could not be restored until the person changes something.
            let nothing_yet = first_run.is_none()
                && !from_link
                && ctl
                    .lab
                    .with_untracked(|lab| lab.history().actions.is_empty());
            if nothing_yet {
                return;
            }
            state.dirty.set(true);
            // A lab at rest is saved at once: what another tab opens next, and
            // what a reload brings back, is the whole of it.
            let at_rest = ctl
                .lab
                .with_untracked(|lab| lab.state().until_next().is_none());
            let since = state.last.get().map_or(f64::INFINITY, |at| now_ms() - at);
            if at_rest || since >= SAVE_EVERY_MS {
                state.timer.take();
                state.scheduled.set(false);
                write(&state);
                return;
            }
            if state.scheduled.get() {
                return;
            }
            state.scheduled.set(true);
            let later = state.clone();
            let timer = Timeout::new((SAVE_EVERY_MS - since).ceil() as u32, move || {
                later.scheduled.set(false);
                if later.dirty.get() {
                    write(&later);
                }
            });
            state.timer.replace(Some(timer));
        });
    }
    // A reload or a closed tab within the wait keeps the newest change too.
    let handle = window_event_listener(leptos::ev::pagehide, move |_| {
        if state.dirty.get() {
            write(&state);
        }
    });
    on_cleanup(move || handle.remove());
}
