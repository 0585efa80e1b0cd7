//! The world's settings: moving the clock forward (an hour, a day, to a time),
//! the caller timeout and processing time, restarting the process and the naive
//! worker beside. Its clock, speed and undo/redo are on the stage (`time_bar`).

use leptos::prelude::*;

use crate::lab::{
    parse_millis, Action, LabError, Setting, MAX_SETTING_MS, MAX_TRANSIT_MS, MIN_CALLER_TIMEOUT_MS,
};
use crate::lab::{Millis, HOUR_MS};

use super::controller::{Controller, Notice};
use super::drawer::Drawer;
use super::drawers::DrawerId;

#[component]
pub fn WorldView(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let timeout = ctl.setting(|s| s.caller_timeout_ms);
    let processing = ctl.setting(|s| s.processing_ms);
    let transit = ctl.setting(|s| s.transit_ms);
    let naive = ctl.setting(|s| s.naive);

    view! {
        <Drawer ctl=ctl id=DrawerId::World class="world">
            <ClockMoves ctl=ctl />
            <div class="controls-row">
                <Setting
                    id="caller-timeout"
                    label=Signal::derive(move || texts().caller_timeout_label)
                    value=timeout.into()
                    min=MIN_CALLER_TIMEOUT_MS
                    max=MAX_SETTING_MS
                    ctl=ctl
                    action=|ms| Action::Set(Setting::CallerTimeoutMs(ms))
                />
                <Setting
                    id="processing-time"
                    label=Signal::derive(move || texts().processing_time_label)
                    value=processing.into()
                    min=0
                    max=MAX_SETTING_MS
                    ctl=ctl
                    action=|ms| Action::Set(Setting::ProcessingMs(ms))
                />
            </div>
            <div class="controls-row">
                <Setting
                    id="transit-time"
                    label=Signal::derive(move || texts().transit_label)
                    value=transit.into()
                    min=0
                    max=MAX_TRANSIT_MS
                    ctl=ctl
                    action=|ms| Action::Set(Setting::TransitMs(ms))
                />
                <p class="hint" id="transit-hint">{move || texts().transit_hint}</p>
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
                            ctl.dispatch(Action::Set(Setting::Naive(event_target_checked(&ev))));
                        }
                    />
                    <span class="switch-label">{move || texts().naive}</span>
                </label>
                <p class="hint" id="naive-hint">{move || texts().naive_hint}</p>
            </div>
        </Drawer>
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
    max: u64,
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
                data-max=max
                prop:value=move || shown.get()
                on:input=move |ev| shown.set(event_target_value(&ev))
                on:change=move |ev| commit(event_target_value(&ev))
            />
        </div>
    }
}

/// Why a time typed to move the clock to was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
enum TimeError {
    /// Neither hours:minutes nor whole hours.
    Format,
    /// Minutes of 60 or more.
    Minutes,
    /// Not after the clock's time then: the clock only moves forward.
    NotAfterNow(Millis),
    /// A move the lab refused (more than a year at once, or a full session).
    Lab(LabError),
}

/// Reads a time since the start as hours:minutes ("25:30") or whole hours
/// ("48"), in any digits the other fields take, as virtual milliseconds.
fn parse_clock_time(text: &str) -> Result<Millis, TimeError> {
    let (hours, minutes) = match text.trim().split_once([':', '\u{FF1A}']) {
        Some((h, m)) => (h, Some(m)),
        None => (text, None),
    };
    let number = |part: &str| parse_millis(part).map_err(|_| TimeError::Format);
    let hours = number(hours)?;
    let minutes = minutes.map_or(Ok(0), number)?;
    if minutes >= 60 {
        return Err(TimeError::Minutes);
    }
    // Too far to count is as refused as a year and a day: the lab says so.
    Ok(hours
        .saturating_mul(HOUR_MS)
        .saturating_add(minutes * 60_000))
}

/// Moves the clock forward at once: an hour, a day, or to a time since the
/// start. Everything due on the way happens in order (receipts expire, callers
/// time out). A time not after now is refused under the field; nothing changes.
#[component]
fn ClockMoves(ctl: Controller) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let target = RwSignal::new(String::new());
    let error = RwSignal::new(None::<TimeError>);
    let move_by = move |ms: Millis| {
        if ctl.dispatch(Action::MoveClock { ms }) {
            error.set(None);
        }
    };
    let move_to = move || {
        let now = ctl.lab.with_untracked(|lab| lab.state().now());
        let outcome = match parse_clock_time(&target.get_untracked()) {
            Err(e) => Err(e),
            Ok(at) if at <= now => Err(TimeError::NotAfterNow(now)),
            Ok(at) => {
                if ctl.dispatch(Action::MoveClock { ms: at - now }) {
                    target.set(String::new());
                    Ok(())
                } else {
                    // Said under the field, rather than in a second message.
                    let refused = match ctl.notice.get_untracked() {
                        Some(Notice::Lab(e)) => e,
                        _ => LabError::ClockMove(at - now),
                    };
                    ctl.notice.set(None);
                    Err(TimeError::Lab(refused))
                }
            }
        };
        error.set(outcome.err());
    };
    let message = move || {
        error.get().map(|e| {
            let t = texts();
            match e {
                TimeError::Format => t.time_format.to_string(),
                TimeError::Minutes => t.time_minutes.to_string(),
                TimeError::NotAfterNow(now) => t.time_not_after_now(now),
                TimeError::Lab(e) => t.lab_error(&e),
            }
        })
    };
    view! {
        <div class="controls-row clock-moves">
            <button data-testid="move-hour" on:click=move |_| move_by(HOUR_MS)>
                {move || texts().move_hour}
            </button>
            <button data-testid="move-day" on:click=move |_| move_by(24 * HOUR_MS)>
                {move || texts().move_day}
            </button>
            <span class="setting" class:invalid=move || error.with(Option::is_some)>
                <label class="inline" for="move-to">{move || texts().move_to_label}</label>
                <input
                    id="move-to"
                    type="text"
                    dir="ltr"
                    class="time"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder="25:30"
                    data-testid="move-to-time"
                    aria-invalid=move || error.with(Option::is_some).to_string()
                    aria-describedby="move-to-error move-to-hint"
                    prop:value=move || target.get()
                    on:input=move |ev| {
                        target.set(event_target_value(&ev));
                        error.set(None);
                    }
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            move_to();
                        }
                    }
                />
                <button data-testid="move-to" on:click=move |_| move_to()>
                    {move || texts().move_to}
                </button>
            </span>
        </div>
        // The hint, or in its place what was wrong: one box, so a message coming
        // or going hardly moves what is below.
        <div class="time-note">
            <p class="field-error" id="move-to-error" data-testid="move-to-error" role="alert">
                {message}
            </p>
            <p class="hint" id="move-to-hint" hidden=move || error.with(Option::is_some)>
                {move || texts().move_to_hint}
            </p>
        </div>
    }
}
