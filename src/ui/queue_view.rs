//! The worker's queue: its 16 slots, the delivery in the consumer's hand, the
//! producers waiting for room, and the consumer's pause switch.

use leptos::prelude::*;

use crate::core::PointWorker;
use crate::lab::{Action, Attempt};

use super::controller::Controller;

#[component]
pub fn QueueView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let queued = Memo::new(move |_| {
        ctl.lab
            .with(|lab| lab.state().queue().into_iter().cloned().collect::<Vec<_>>())
    });
    let in_hand = Memo::new(move |_| ctl.lab.with(|lab| lab.state().in_hand().cloned()));
    let waiting = Memo::new(move |_| ctl.lab.with(|lab| lab.state().waiting()));
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
            </div>
        </section>
    }
}

fn slot_label(attempt: &Attempt) -> String {
    format!("{} +{}", attempt.grant.key, attempt.grant.points)
}
