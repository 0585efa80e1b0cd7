//! The page's start-up in short tasks: the panels one stage at a time, and
//! within a panel, a part that asks to come a task later (`later`). Between two
//! steps the browser gets its turn, to paint and to answer input, so no task of
//! the start-up runs long. Tests mount the app whole: there is no start-up then,
//! and every part is there at once.

use std::collections::VecDeque;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;

/// Gives the browser its turn. A page not on show has nothing to paint and
/// its timers are held back (to one a second in a background tab), so it
/// starts straight through, waiting only for what the last step set off to
/// be drawn (a microtask): ready when shown, not a dozen seconds later.
pub async fn next_task() {
    if super::page_env::is_hidden() {
        let drawn = js_sys::Promise::resolve(&wasm_bindgen::JsValue::UNDEFINED);
        let _ = wasm_bindgen_futures::JsFuture::from(drawn).await;
        return;
    }
    TimeoutFuture::new(0).await;
}

/// The parts waiting for their task, while the page starts.
#[derive(Clone, Copy)]
pub struct StartUp {
    waiting: StoredValue<Option<VecDeque<RwSignal<bool>>>>,
}

impl StartUp {
    /// Starts the sequence (and provides it to the panels): `stages` panels
    /// mounted one per task through `stage`, each followed by the parts it asked
    /// to come later, in the order asked, before the next panel. Then `done`.
    pub fn run(stage: RwSignal<u8>, stages: u8, done: impl FnOnce() + 'static) {
        let startup = StartUp {
            waiting: StoredValue::new(Some(VecDeque::new())),
        };
        provide_context(startup);
        leptos::task::spawn_local(async move {
            let mut next = 1;
            loop {
                next_task().await;
                // A part asked for during the last step: it comes before the next
                // panel, so a panel below it is never pushed down once drawn.
                let part = startup
                    .waiting
                    .try_update_value(|w| w.as_mut().and_then(VecDeque::pop_front))
                    .flatten();
                if let Some(part) = part {
                    part.set(true);
                } else if next <= stages {
                    stage.set(next);
                    next += 1;
                } else {
                    break;
                }
            }
            // From now on a part is drawn with its panel.
            startup.waiting.set_value(None);
            done();
        });
    }
}

/// Whether a part of a panel may be drawn: at once, except while the page
/// starts, when it comes in a task of its own after the rest of its panel.
/// For the lower parts of the heavier panels.
pub fn later() -> Signal<bool> {
    let queued = use_context::<StartUp>().and_then(|startup| {
        let part = RwSignal::new(false);
        startup
            .waiting
            .try_update_value(|w| w.as_mut().map(|w| w.push_back(part)))
            .flatten()
            .map(|()| part)
    });
    match queued {
        Some(part) => part.into(),
        None => Signal::stored(true),
    }
}
