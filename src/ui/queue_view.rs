//! The worker's queue: its 16 slots, the delivery in the consumer's hand, and the
//! producers waiting for room, with the pacing controls a class needs to see it fill.

use leptos::prelude::*;

use crate::core::PointWorker;
use crate::lab::{Action, Attempt};

use super::controller::Controller;

/// The delay slider's range: up to two seconds a delivery is slow enough to narrate.
const MAX_DELAY_MS: u32 = 2000;

#[component]
pub fn QueueView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let queued = Memo::new(move |_| {
        ctl.lab
            .with(|lab| lab.state().queue().iter().cloned().collect::<Vec<_>>())
    });
    let in_hand = Memo::new(move |_| ctl.lab.with(|lab| lab.state().in_hand().cloned()));
    let waiting = Memo::new(move |_| ctl.lab.with(|lab| lab.state().waiting().len()));
    let paused = Memo::new(move |_| ctl.lab.with(|lab| lab.state().paused()));

    let slots = move || {
        let queued = queued.get();
        (0..PointWorker::CAPACITY)
            .map(|i| {
                let attempt = queued.get(i).cloned();
                let filled = attempt.is_some();
                view! {
                    <li class="slot" class:filled=filled data-testid="queue-slot">
                        {attempt.map(|a| slot_label(&a))}
                    </li>
                }
            })
            .collect_view()
    };

    view! {
        <section class="panel queue" aria-labelledby="queue-title">
            <h2 id="queue-title">{move || texts().queue}</h2>
            <p class="queue-count" data-testid="queue-count" data-queued=move || queued.get().len()>
                {move || (texts().queue_slots)(lang(), queued.get().len(), PointWorker::CAPACITY)}
            </p>
            <ol class="slots">{slots}</ol>
            <p class="consumer" data-testid="consumer" class:busy=move || in_hand.get().is_some()>
                // A label, and the delivery in hand when there is one: plain parts
                // rather than a view per case, which costs far less code.
                {move || match in_hand.get() {
                    Some(_) => texts().consumer_holds,
                    None => texts().consumer_idle,
                }}
                {move || {
                    in_hand.get().map(|a| view! { ": " <bdi dir="ltr">{slot_label(&a)}</bdi> })
                }}
            </p>
            <p class="waiting" data-testid="waiting" data-waiting=move || waiting.get()>
                {move || (texts().producers_waiting)(lang(), waiting.get())}
            </p>
            <div class="pacing">
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        prop:checked=move || paused.get()
                        on:change=move |ev| {
                            ctl.dispatch(Action::SetPaused { paused: event_target_checked(&ev) });
                        }
                    />
                    <span class="switch-label">{move || texts().pause}</span>
                </label>
                <label class="delay">
                    <span>{move || texts().delay}</span>
                    <input
                        type="range"
                        min="0"
                        max=MAX_DELAY_MS
                        step="100"
                        prop:value=move || ctl.delay_ms.get()
                        on:input=move |ev| {
                            let ms = event_target_value(&ev).parse().unwrap_or(0).min(MAX_DELAY_MS);
                            ctl.delay_ms.set(ms);
                            ctl.run_consumer();
                        }
                    />
                    <output>{move || (texts().delay_value)(lang(), ctl.delay_ms.get())}</output>
                </label>
            </div>
        </section>
    }
}

fn slot_label(attempt: &Attempt) -> String {
    format!("{} +{}", attempt.grant.key, attempt.grant.points)
}
