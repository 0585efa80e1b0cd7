//! The three promises at the foot of the stage, so the picture says at once
//! whether what it shows broke one: each with its state in a word and a shape,
//! and once broken, a button to the first attempt that broke it. The promises
//! panel (with the announcement and the retention's note) says the same at
//! length, from the same fold.

use leptos::prelude::*;

use crate::lab::{AttemptId, Invariant, StagePart};

use super::controller::Controller;
use super::invariant_view::promise_breaks;

#[component]
pub fn StagePromises(ctl: Controller, reveal: RwSignal<Option<AttemptId>>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let breaks = promise_breaks(ctl);
    let promises = Invariant::ALL
        .into_iter()
        .enumerate()
        .map(|(n, invariant)| {
            let broken = move || breaks.get()[n];
            // Broken at an earlier step of the walkthrough, and not since.
            let earlier = move || broken().and(ctl.broken_earlier.get()[n]);
            let hint_id = format!("stage-promise-{}-way", invariant.code());
            view! {
                <li
                    class="stage-promise"
                    class:broken=move || broken().is_some() && earlier().is_none()
                    class:was-broken=move || earlier().is_some()
                    data-broken-step=move || earlier().map(|s| (s + 1).to_string())
                    data-testid="stage-promise"
                    data-invariant=invariant.code()
                    data-holds=move || broken().is_none().to_string()
                    data-marked=move || ctl.marked(&StagePart::Promise(invariant)).then_some("true")
                >
                    {move || match broken() {
                        // Broken, it leads to the first attempt that broke it.
                        Some(b) => view! {
                            <button class="stage-promise-way" aria-describedby=hint_id.clone() on:click=move |_| reveal.set(Some(b.attempt))>
                                <span class="state-icon" aria-hidden="true">"✕"</span>
                                {move || texts().invariant(invariant)}
                                ": "
                                {move || match earlier() {
                                    Some(step) => texts().invariant_broken_at(step + 1),
                                    None => texts().invariant_broken.to_string(),
                                }}
                            </button>
                            <span id=hint_id.clone() class="visually-hidden">{move || texts().show_attempt(b.attempt)}</span>
                        }
                        .into_any(),
                        None => view! {
                            <span class="stage-promise-text">
                                <span class="state-icon" aria-hidden="true">"✓"</span>
                                {move || texts().invariant(invariant)}
                                <span class="visually-hidden">": " {move || texts().invariant_holds}</span>
                            </span>
                        }
                        .into_any(),
                    }}
                </li>
            }
        })
        .collect_view();
    view! {
        <ul class="stage-promises" aria-label=move || texts().invariants_title>
            {promises}
        </ul>
    }
}
