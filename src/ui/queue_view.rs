//! The worker's queue: its 16 slots, the delivery in the consumer's hand, the
//! producers waiting for room, and the consumer's pause switch.

use leptos::prelude::*;

use crate::core::GrantPoints;
use crate::core::PointWorker;
use crate::lab::{visible, Action};

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
    // Some(reason) while a step would be refused.
    let step_refused = Memo::new(move |_| ctl.lab.with(|lab| lab.state().step_refusal()));

    // Each filled slot shows what tells it apart from its neighbours (the
    // attempt's number, as in the timeline; the points; the end of the key), and
    // the whole request on hover or focus, and to a screen reader.
    let slots = move || {
        let queued = queued.get();
        let lang = lang();
        (0..PointWorker::CAPACITY)
            .map(|i| match queued.get(i) {
                Some(a) => view! {
                    <li class="slot filled" data-testid="queue-slot" data-attempt=a.id tabindex="0">
                        <span class="slot-short" aria-hidden="true">
                            <span class="slot-id">"#" {a.id}</span>
                            <span class="slot-points">"+" {a.grant.points}</span>
                            <span class="slot-key">{key_ending(&a.grant.key)}</span>
                        </span>
                        <span class="slot-full">
                            {(lang.texts().attempt_number)(lang, a.id)}
                            ": "
                            {request_parts(&a.grant)}
                        </span>
                    </li>
                }
                .into_any(),
                None => view! { <li class="slot" data-testid="queue-slot"></li> }.into_any(),
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
                    None if paused.get() => texts().consumer_paused,
                    None if queued.with(Vec::is_empty) => texts().consumer_idle,
                    None => texts().consumer_next,
                }}
                {move || {
                    in_hand.get().map(|a| {
                        view! {
                            ": " {(texts().attempt_number)(lang(), a.id)} " "
                            {request_parts(&a.grant)}
                        }
                    })
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
                // Pressed when it cannot step, it says why (the lab's refusal).
                <button
                    data-testid="step"
                    aria-describedby="step-hint"
                    aria-disabled=move || step_refused.with(Option::is_some).to_string()
                    on:click=move |_| {
                        ctl.dispatch(Action::Step);
                    }
                >
                    {move || texts().step}
                </button>
                <p class="hint" id="step-hint">{move || texts().step_hint}</p>
            </div>
        </section>
    }
}

/// The whole request, each part isolated (no text can reorder its neighbours)
/// and shown so that look-alike texts differ.
pub fn request_parts(grant: &GrantPoints) -> impl IntoView {
    view! {
        <bdi dir="ltr">{visible(&grant.account_id).into_owned()}</bdi>
        " · "
        <bdi dir="ltr" class="key">{visible(&grant.key).into_owned()}</bdi>
        " · "
        <bdi dir="ltr">"+" {grant.points}</bdi>
    }
}

/// The last characters of a key, where keys made from one another differ
/// (`order-1042`, `order-1042-fresh-1`).
fn key_ending(key: &str) -> String {
    const SHOWN: usize = 7;
    let key = visible(key);
    let count = key.chars().count();
    if count <= SHOWN {
        key.into_owned()
    } else {
        let tail: String = key.chars().skip(count - (SHOWN - 1)).collect();
        format!("…{tail}")
    }
}
