//! The two controls most settings use: a labelled select over a fixed set of
//! choices, and a switch. Each shows the lab's setting (so undo, links and a
//! fault that disarms itself all show), turns a change into an action, and says
//! under itself what the current choice does.

use leptos::prelude::*;

use crate::i18n::Texts;
use crate::lab::Action;

use super::controller::Controller;

/// A select whose `id` is also its test id; its hint is `{id}-hint`.
#[component]
pub fn ChoiceSelect<T>(
    ctl: Controller,
    id: &'static str,
    label: fn(&'static Texts) -> &'static str,
    choices: &'static [T],
    current: Memo<T>,
    code: fn(T) -> &'static str,
    from_code: fn(&str) -> Option<T>,
    option: fn(&'static Texts, T) -> &'static str,
    hint: fn(&'static Texts, T) -> &'static str,
    action: fn(T) -> Action,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let texts = move || ctl.lang.get().texts();
    let hint_id = format!("{id}-hint");
    view! {
        <div class="choice">
            <label for=id>{move || label(texts())}</label>
            <select
                id=id
                data-testid=id
                aria-describedby=hint_id.clone()
                on:change=move |ev| {
                    if let Some(choice) = from_code(&event_target_value(&ev)) {
                        ctl.dispatch(action(choice));
                    }
                }
                prop:value=move || code(current.get())
            >
                {choices
                    .iter()
                    .map(|&c| {
                        view! {
                            <option value=code(c) selected=move || current.get() == c>
                                {move || option(texts(), c)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <p class="hint" id=hint_id>{move || hint(texts(), current.get())}</p>
        </div>
    }
}

/// A switch whose test id is `id`; its hint is `{id}-hint`. `label` and
/// `hint` name its two messages in the language files (`texts/<tag>.json`),
/// so a new switch needs no Rust for its words. `armed` marks a fault
/// waiting to strike.
#[component]
pub fn SettingSwitch(
    ctl: Controller,
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    on: Memo<bool>,
    action: fn(bool) -> Action,
    #[prop(optional)] armed: bool,
) -> impl IntoView {
    let texts = move || ctl.lang.get().texts();
    let hint_id = format!("{id}-hint");
    view! {
        <div class="switch-row">
            <label class="switch" class:armed=move || armed && on.get()>
                <input
                    type="checkbox"
                    role="switch"
                    data-testid=id
                    aria-describedby=hint_id.clone()
                    prop:checked=move || on.get()
                    on:change=move |ev| {
                        ctl.dispatch(action(event_target_checked(&ev)));
                    }
                />
                <span class="switch-label">{move || texts().catalog().word(label)}</span>
            </label>
            <p class="hint" id=hint_id>{move || texts().catalog().word(hint)}</p>
        </div>
    }
}
