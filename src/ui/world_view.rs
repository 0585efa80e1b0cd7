//! The world's controls: its clock and speed, the caller timeout and processing
//! time, restarting the process, the naive worker beside, and undo/redo.

use leptos::prelude::*;

use crate::lab::{parse_millis, Action, MAX_SETTING_MS, MIN_CALLER_TIMEOUT_MS};

use super::controller::{Controller, Notice, Speed};

#[component]
pub fn WorldView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let lang = move || ctl.lang.get();
    let clock = Memo::new(move |_| {
        ctl.lab
            .with(|lab| (lab.state().now(), lab.state().process_number()))
    });
    let idle = Memo::new(move |_| ctl.lab.with(|lab| lab.state().until_next().is_none()));
    let timeout = Memo::new(move |_| ctl.lab.with(|lab| lab.state().world().caller_timeout()));
    let processing = Memo::new(move |_| ctl.lab.with(|lab| lab.state().world().processing_time()));
    let naive = Memo::new(move |_| ctl.lab.with(|lab| lab.state().world().naive()));
    let can_undo = Memo::new(move |_| ctl.lab.with(|lab| lab.can_undo()));
    let can_redo = Memo::new(move |_| ctl.lab.with(|lab| lab.can_redo()));

    view! {
        <section class="panel world" aria-labelledby="world-title">
            <h2 id="world-title">{move || texts().world}</h2>
            <p class="clock" data-testid="clock" data-now=move || clock.get().0 data-process=move || clock.get().1 data-idle=move || idle.get().to_string()>
                {move || (texts().clock)(lang(), clock.get().0, clock.get().1)}
            </p>
            // Always one line or the other, so its coming and going moves nothing.
            <p class="hint world-state" data-testid="world-state">
                {move || if idle.get() { texts().idle } else { texts().running }}
            </p>
            <div class="controls-row">
                <label class="inline" for="speed">{move || texts().speed}</label>
                <select
                        id="speed"
                        data-testid="speed"
                        on:change=move |ev| {
                            if let Some(speed) = Speed::from_code(&event_target_value(&ev)) {
                                ctl.set_speed(speed);
                            }
                        }
                        prop:value=move || ctl.speed.get().code()
                    >
                        {Speed::ALL
                            .into_iter()
                            .map(|speed| {
                                view! {
                                    <option value=speed.code() selected=move || ctl.speed.get() == speed>
                                        {move || match speed {
                                            Speed::Paused => texts().speed_paused.to_string(),
                                            other => other.code().to_string(),
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                </select>
                // aria-disabled, not disabled: a button that turns itself off when
                // pressed keeps the keyboard focus.
                <button
                    on:click=move |_| {
                        if !idle.get_untracked() {
                            ctl.skip_to_idle();
                        }
                    }
                    aria-disabled=move || idle.get().to_string()
                    data-testid="skip-to-idle"
                >
                    {move || texts().skip_to_idle}
                </button>
            </div>
            <div class="controls-row">
                <Setting
                    id="caller-timeout"
                    label=Signal::derive(move || texts().caller_timeout_label)
                    value=timeout.into()
                    min=MIN_CALLER_TIMEOUT_MS
                    ctl=ctl
                    action=|ms| Action::SetCallerTimeout { ms }
                />
                <Setting
                    id="processing-time"
                    label=Signal::derive(move || texts().processing_time_label)
                    value=processing.into()
                    min=0
                    ctl=ctl
                    action=|ms| Action::SetProcessingTime { ms }
                />
            </div>
            <div class="controls-row">
                <button on:click=move |_| { ctl.dispatch(Action::Restart); } aria-describedby="restart-hint">
                    {move || texts().restart}
                </button>
                <p class="hint" id="restart-hint">{move || texts().restart_hint}</p>
            </div>
            <div class="switch-row">
                <label class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        aria-describedby="naive-hint"
                        prop:checked=move || naive.get()
                        on:change=move |ev| {
                            ctl.dispatch(Action::SetNaive { on: event_target_checked(&ev) });
                        }
                    />
                    <span class="switch-label">{move || texts().naive}</span>
                </label>
                <p class="hint" id="naive-hint">{move || texts().naive_hint}</p>
            </div>
            <div class="buttons">
                <button
                    on:click=move |_| {
                        if can_undo.get_untracked() {
                            ctl.undo();
                        }
                    }
                    aria-disabled=move || (!can_undo.get()).to_string()
                >
                    {move || texts().undo}
                </button>
                <button
                    on:click=move |_| {
                        if can_redo.get_untracked() {
                            ctl.redo();
                        }
                    }
                    aria-disabled=move || (!can_redo.get()).to_string()
                >
                    {move || texts().redo}
                </button>
            </div>
        </section>
    }
}

/// A number of milliseconds, applied when the person commits it (Enter or
/// leaving the field). A value out of range is refused with the lab's message,
/// and the field shows the setting in force again.
#[component]
fn Setting(
    id: &'static str,
    label: Signal<&'static str>,
    value: Signal<u64>,
    min: u64,
    ctl: Controller,
    action: fn(u64) -> Action,
) -> impl IntoView {
    let shown = RwSignal::new(String::new());
    Effect::new(move |_| shown.set(value.get().to_string()));
    let commit = move |text: String| {
        let accepted = match parse_millis(&text) {
            Ok(ms) if ms == value.get_untracked() => true,
            // Out-of-range numbers reach the lab, which refuses them with its message.
            Ok(ms) => ctl.dispatch(action(ms)),
            Err(error) => {
                ctl.notice
                    .set(Some(Notice::Setting(label.get_untracked(), error)));
                false
            }
        };
        if !accepted {
            shown.set(value.get_untracked().to_string());
        }
    };
    // A text field with a numeric keyboard, as for points: a number field would
    // drop Persian digits before the lab could read them.
    view! {
        <div class="setting">
            <label class="inline" for=id>{move || label.get()}</label>
            <input
                id=id
                type="text"
                inputmode="numeric"
                dir="ltr"
                class="ms"
                autocomplete="off"
                data-min=min
                data-max=MAX_SETTING_MS
                prop:value=move || shown.get()
                on:input=move |ev| shown.set(event_target_value(&ev))
                on:change=move |ev| commit(event_target_value(&ev))
            />
        </div>
    }
}
