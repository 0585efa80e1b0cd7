//! Callers and the queue: what a duplicate that arrives while the first attempt
//! is still in flight is given, and the in-progress records held right now.

use leptos::prelude::*;

use crate::core::InFlightPolicy;
use crate::lab::{visible, Action};

use super::controller::Controller;

#[component]
pub fn CallersView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let policy = Memo::new(move |_| ctl.lab.with(|lab| lab.state().in_flight_policy()));
    let records = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            lab.state()
                .world()
                .in_progress_records()
                .into_iter()
                // A memory record lives in the process that accepted its attempt.
                .map(|(record, durable)| {
                    let process = (!durable).then_some(record.holder.process);
                    (record, process)
                })
                .collect::<Vec<_>>()
        })
    });

    view! {
        <section class="panel callers" aria-labelledby="callers-title" data-testid="callers">
            <h2 id="callers-title">{move || texts().callers}</h2>
            <div class="choice">
                <label for="in-flight">{move || texts().in_flight_label}</label>
                <select
                    id="in-flight"
                    data-testid="in-flight"
                    aria-describedby="in-flight-hint"
                    on:change=move |ev| {
                        if let Some(policy) = InFlightPolicy::from_code(&event_target_value(&ev)) {
                            ctl.dispatch(Action::SetInFlight { policy });
                        }
                    }
                    prop:value=move || policy.get().code()
                >
                    {InFlightPolicy::ALL
                        .into_iter()
                        .map(|p| {
                            view! {
                                <option value=p.code() selected=move || policy.get() == p>
                                    {move || (texts().in_flight_policy)(p)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <p class="hint" id="in-flight-hint">{move || (texts().in_flight_hint)(policy.get())}</p>
            </div>
            // Shown while records are kept, or while one is still held.
            <Show when=move || policy.get() != InFlightPolicy::NoRecord || !records.with(Vec::is_empty)>
                <h3 id="in-progress-title">{move || texts().in_progress_title}</h3>
                <Show
                    when=move || !records.with(Vec::is_empty)
                    fallback=move || view! { <p class="empty" data-testid="in-progress-none">{move || texts().in_progress_none}</p> }
                >
                    <ul class="records" aria-labelledby="in-progress-title" data-testid="in-progress">
                        {move || {
                            records
                                .get()
                                .into_iter()
                                .map(|(record, process)| {
                                    let holder = record.holder;
                                    view! {
                                        <li data-testid="in-progress-record" data-attempt=holder.attempt data-key=record.key.clone()>
                                            <bdi dir="ltr" class="key">{visible(&record.key).into_owned()}</bdi>
                                            " "
                                            <bdi dir="ltr" class="meta">{visible(&record.account_id).into_owned()}</bdi>
                                            ": "
                                            {(texts().in_progress_record)(lang(), holder.attempt, holder.since, process)}
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                </Show>
            </Show>
        </section>
    }
}
