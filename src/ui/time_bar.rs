//! The world's time at the stage: its clock, whether anything is due, the
//! speed, "Skip to idle", and undo/redo. Beside the picture they move, so Send,
//! the stage and its time are on one screen.

use leptos::prelude::*;

use super::controller::{Controller, Speed};

/// `resting`: while the walkthrough runs, its own pace drives the clock and
/// these rest (still read). `playing`: the moment a walkthrough step that is
/// playing its time ends, said beside the clock, so the room knows the picture
/// is still on its way to what the narration tells.
#[component]
pub fn TimeBar(
    ctl: Controller,
    #[prop(into)] resting: Signal<bool>,
    #[prop(into)] playing: Signal<Option<crate::lab::Millis>>,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let clock = Memo::new(move |_| {
        ctl.lab.with(|lab| {
            let state = lab.state();
            (state.now(), state.process_number(), state.process_numbers())
        })
    });
    let idle = Memo::new(move |_| ctl.lab.with(|lab| lab.state().until_next().is_none()));
    let can_undo = Memo::new(move |_| ctl.lab.with(|lab| lab.can_undo()));
    let can_redo = Memo::new(move |_| ctl.lab.with(|lab| lab.can_redo()));
    // Where the lab stands in its history, and how far the history reaches.
    let span = Memo::new(move |_| ctl.lab.with(|lab| (lab.state().now(), lab.horizon())));
    let at_text = move || span.with(|(at, end)| texts().history_at(*at, *end));

    view! {
        <div class="time-bar" inert=move || resting.get()>
            <div class="time-now">
            <p
                class="clock"
                data-testid="clock"
                data-now=move || clock.get().0
                data-process=move || clock.get().1
                // Only while two run, so the one-process clock keeps its attributes.
                data-processes=move || {
                    clock.with(|c| {
                        (c.2.len() > 1)
                            .then(|| c.2.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
                    })
                }
                data-idle=move || idle.get().to_string()
            >
                {move || clock.with(|c| texts().clock(c.0, &c.2))}
                {move || playing.get().map(|end| view! {
                    " "
                    <span class="clock-playing" data-testid="clock-playing" data-end=end>
                        {texts().clock_playing(end)}
                    </span>
                })}
            </p>
            // All three sayings share one cell, only the one in force seen: the
            // cell is as tall as the longest, so a change of state moves nothing
            // under the pointer (a person presses Undo, then Skip to idle).
            <p class="hint world-state" data-testid="world-state">
                {move || {
                    let texts = texts();
                    let shown = if idle.get() {
                        0
                    } else if ctl.speed.get() == Speed::Paused && !ctl.skipping.get() {
                        1
                    } else {
                        2
                    };
                    [texts.idle, texts.stopped_with_work, texts.running]
                        .into_iter()
                        .enumerate()
                        .map(|(i, text)| {
                            let seen = i == shown;
                            view! {
                                <span class="world-state-line" class:shown=seen aria-hidden=(!seen).then_some("true")>
                                    {text}
                                </span>
                            }
                        })
                        .collect_view()
                }}
            </p>
            </div>
            <div class="controls-row time-controls">
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
            // The time slider: any moment of the history, and forward again.
            <div class="history-row">
                <label for="history">{move || texts().history_slider}</label>
                <input
                    type="range"
                    id="history"
                    data-testid="history"
                    min="0"
                    step="1"
                    max=move || span.get().1
                    prop:value=move || span.get().0.to_string()
                    disabled=move || span.get().1 == 0
                    aria-valuetext=at_text
                    on:change=move |ev| {
                        if let Ok(at) = event_target_value(&ev).parse::<u64>() {
                            ctl.travel_to(at);
                        }
                    }
                />
                <span class="history-at" data-testid="history-at">{at_text}</span>
                // Kept in its place, unseen, at the end: its coming moves nothing.
                {move || {
                    let (at, end) = span.get();
                    let away = at < end;
                    view! {
                        <button
                            class="history-end"
                            class:unseen=!away
                            data-testid=away.then_some("history-end")
                            aria-hidden=(!away).then_some("true")
                            tabindex=(!away).then_some("-1")
                            on:click=move |_| {
                                if away {
                                    ctl.travel_to(end);
                                }
                            }
                        >
                            {move || texts().history_end}
                        </button>
                    }
                }}
            </div>
        </div>
    }
}
