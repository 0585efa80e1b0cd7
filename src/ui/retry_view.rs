//! The caller's automatic retry policy: the switch, how many attempts, and a
//! small chart of the backoff before each retry (its range, and what the last
//! retrying caller waited).

use leptos::prelude::*;

use crate::core::{RetryPolicy, MAX_ATTEMPTS};
use crate::lab::{parse_millis, Action, LabError, Setting, SettingError};

use super::controller::Controller;

/// Attempts in all unless set: the first and two retries.
const DEFAULT_ATTEMPTS: u32 = 3;
/// The chart's width in its own units.
const CHART_WIDTH: u64 = 200;

#[component]
pub fn RetryView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let policy = ctl.setting(|s| s.auto_retry);
    // The attempts shown while retries are off are kept for when they go on.
    let attempts = RwSignal::new(DEFAULT_ATTEMPTS);
    let shown = RwSignal::new(DEFAULT_ATTEMPTS.to_string());
    // What was wrong with the attempts typed: a number out of range, or no number.
    let error = RwSignal::new(None::<LabError>);
    Effect::new(move |_| {
        if let Some(p) = policy.get() {
            attempts.set(p.max_attempts);
            shown.set(p.max_attempts.to_string());
            error.set(None);
        }
    });
    let apply = move |on: bool, max_attempts: u32| {
        let policy = on.then(|| RetryPolicy {
            max_attempts,
            // Drawn once, and kept in the history: a replay waits the same.
            seed: (js_sys::Math::random() * 4_294_967_296.0) as u64,
        });
        ctl.dispatch(Action::Set(Setting::AutoRetry(policy)));
    };
    let commit = move |text: String| {
        // A number too large for u32 is as out of range as 11, named as typed;
        // no number is 0.
        let typed = parse_millis(&text).unwrap_or(0);
        match u32::try_from(typed)
            .ok()
            .filter(|n| (1..=MAX_ATTEMPTS).contains(n))
        {
            Some(n) => {
                error.set(None);
                attempts.set(n);
                if policy.get_untracked().is_some_and(|p| p.max_attempts != n) {
                    apply(true, n);
                }
            }
            None => error.set(Some(LabError::Setting(SettingError::MaxAttempts(typed)))),
        }
    };
    // The waits the last retrying caller made, by retry.
    let waited = Memo::new(move |_| ctl.lab.with(|lab| lab.state().last_waits().to_vec()));

    view! {
        <div class="switch-row">
            <label class="switch">
                <input
                    type="checkbox"
                    role="switch"
                    data-testid="auto-retry"
                    aria-describedby="auto-retry-hint"
                    prop:checked=move || policy.get().is_some()
                    on:change=move |ev| apply(event_target_checked(&ev), attempts.get_untracked())
                />
                <span class="switch-label">{move || texts().auto_retry_label}</span>
            </label>
            <p class="hint" id="auto-retry-hint">{move || texts().auto_retry_hint}</p>
        </div>
        <div class="choice" class:invalid=move || error.with(Option::is_some)>
            <label for="max-attempts">{move || texts().max_attempts_label}</label>
            <input
                id="max-attempts"
                type="text"
                inputmode="numeric"
                dir="ltr"
                class="hours"
                autocomplete="off"
                data-testid="max-attempts"
                aria-invalid=move || error.with(Option::is_some).to_string()
                aria-describedby="max-attempts-error"
                prop:value=move || shown.get()
                on:input=move |ev| shown.set(event_target_value(&ev))
                on:change=move |ev| commit(event_target_value(&ev))
            />
            <p class="field-error" id="max-attempts-error" role="alert">
                {move || error.get().map(|e| texts().lab_error(&e))}
            </p>
        </div>
        <figure class="backoff" data-testid="backoff-chart">
            <figcaption id="backoff-title">{move || texts().backoff_title}</figcaption>
            <ul aria-labelledby="backoff-title">
                {move || {
                    let retries = attempts.get().saturating_sub(1);
                    // Scaled to the longest wait shown, so short ones are visible.
                    let longest = RetryPolicy::range(retries.max(1)).1.max(1);
                    let x = move |ms: u64| ms * CHART_WIDTH / longest;
                    (1..=retries)
                        .map(|n| {
                            let (low, high) = RetryPolicy::range(n);
                            let waited = waited.with(|w| w.iter().find(|(r, _)| *r == n).map(|(_, w)| *w));
                            view! {
                                <li data-retry=n data-low=low data-high=high data-waited=waited>
                                    <span>{texts().backoff_row(n, low, high)}</span>
                                    <svg viewBox=format!("0 0 {CHART_WIDTH} 10") preserveAspectRatio="none" aria-hidden="true">
                                        <rect class="range" x=x(low) y="2" width=x(high - low).max(1) height="6"></rect>
                                        {waited.map(|w| view! { <rect class="waited" x=x(w).saturating_sub(1) y="0" width="2" height="10"></rect> })}
                                    </svg>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </figure>
    }
}
