//! The three promises idempotency makes, checked live after every step: each in
//! words with its state in words (not colour alone), the first attempt that broke
//! it with a way to its timeline row, a polite announcement when one breaks, and
//! how many receipts the retention let go (context, not a break).

use leptos::prelude::*;

use crate::lab::AttemptId;
use crate::lab::{Break, Invariant, StagePart};

use super::controller::Controller;

/// Where each promise first broke, if it did: what the panel and the stage's
/// promises both draw.
pub fn promise_breaks(ctl: Controller) -> Memo<[Option<Break>; Invariant::COUNT]> {
    Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let invariants = lab.state().invariants();
            Invariant::ALL.map(|i| invariants.first_break(i))
        })
    })
}

#[component]
pub fn InvariantView(ctl: Controller, reveal: RwSignal<Option<AttemptId>>) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let breaks = promise_breaks(ctl);
    let expired = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            let invariants = state.invariants();
            (
                invariants.expired,
                state.settings().retention_hours,
                invariants.regranted_after_expiry > 0,
            )
        })
    });

    // What the live region says: the promises that broke in the last step, once.
    // A new lab (reset, link, import) starts silent; a promise that holds again
    // (after an undo) takes its sentence away.
    let announced = RwSignal::new(Vec::<(Invariant, Break)>::new());
    Effect::new(
        move |previous: Option<(u64, [Option<Break>; Invariant::COUNT])>| {
            let now = breaks.get();
            let epoch = ctl.epoch.get();
            match previous {
                Some((was_epoch, was)) if was_epoch == epoch => {
                    let flipped: Vec<(Invariant, Break)> = Invariant::ALL
                        .into_iter()
                        .zip(was.into_iter().zip(now))
                        .filter_map(|(i, pair)| match pair {
                            (None, Some(b)) => Some((i, b)),
                            _ => None,
                        })
                        .collect();
                    let stale = announced.with_untracked(|a| {
                        a.iter().any(|(i, _)| {
                            Invariant::ALL
                                .iter()
                                .zip(now)
                                .any(|(j, b)| j == i && b.is_none())
                        })
                    });
                    if !flipped.is_empty() {
                        announced.set(flipped);
                    } else if stale {
                        announced.set(Vec::new());
                    }
                }
                Some(_) => announced.set(Vec::new()),
                None => {}
            }
            (epoch, now)
        },
    );
    let announcement = move || {
        let lang = lang();
        announced.with(|a| {
            a.iter()
                .map(|(i, b)| lang.texts().announce_broken(*i, b.attempt, b.at))
                .collect::<Vec<_>>()
                .join(" ")
        })
    };

    let promises = Invariant::ALL
        .into_iter()
        .enumerate()
        .map(|(n, invariant)| {
            let broken = move || breaks.get()[n];
            // Broken at an earlier step of the walkthrough, and not since.
            let earlier = move || broken().and(ctl.broken_earlier.get()[n]);
            let detail = move || {
                broken().map(|b| {
                    let t = texts();
                    // Every attempt has its row from the moment it is sent.
                    let way = view! {
                        <button class="show-attempt" on:click=move |_| reveal.set(Some(b.attempt))>
                            {t.show_attempt(b.attempt)}
                        </button>
                    };
                    // Why no store setting mends this one: the key is the caller's.
                    let why = (invariant == Invariant::PaidOnce).then(|| {
                        view! { <p class="promise-why" data-testid="paid-once-why">{t.paid_once_why()}</p> }
                    });
                    view! {
                        <p class="broken-by">
                            <span data-testid="broken-by" data-attempt=b.attempt>
                                {t.broken_by(b.attempt, b.at)}
                            </span>
                            " "
                            {way}
                        </p>
                        {why}
                    }
                })
            };
            view! {
                <li
                    class="promise"
                    class:broken=move || broken().is_some() && earlier().is_none()
                    class:was-broken=move || earlier().is_some()
                    data-broken-step=move || earlier().map(|s| (s + 1).to_string())
                    data-testid=format!("invariant-{}", invariant.code())
                    data-holds=move || broken().is_none().to_string()
                    data-marked=move || ctl.marked(&StagePart::Promise(invariant)).then_some("true")
                >
                    <span class="promise-text">{move || texts().invariant(invariant)}</span>
                    <span class="visually-hidden">": "</span>
                    <span class="state">
                        <span class="state-icon" aria-hidden="true">
                            {move || if broken().is_some() { "✕" } else { "✓" }}
                        </span>
                        {move || match (broken(), earlier()) {
                            (Some(_), Some(step)) => texts().invariant_broken_at(step + 1),
                            (Some(_), None) => texts().invariant_broken.to_string(),
                            (None, _) => texts().invariant_holds.to_string(),
                        }}
                    </span>
                    {detail}
                </li>
            }
        })
        .collect_view();

    view! {
        <section class="panel invariants" aria-labelledby="invariants-title" data-testid="invariants">
            <h2 id="invariants-title">{move || texts().invariants_title}</h2>
            <p class="hint">{move || texts().invariants_intro}</p>
            <ul class="promises">{promises}</ul>
            {move || {
                let (count, hours, regranted) = expired.get();
                // Why "at most once" broke, when a late retry was granted
                // again; else context, not a break.
                let said = if regranted {
                    texts().receipts_expired_regranted(count, hours)
                } else {
                    texts().receipts_expired(count, hours)
                };
                (count > 0)
                    .then(|| {
                        view! {
                            <p class="expired" data-testid="receipts-expired" data-expired=count>
                                {said}
                            </p>
                        }
                    })
            }}
            // Polite: said when the person's current step is done, once per break.
            <p class="visually-hidden" role="status" data-testid="invariant-announcement">
                {announcement}
            </p>
        </section>
    }
}
