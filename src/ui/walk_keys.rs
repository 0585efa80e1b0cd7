//! The walkthrough's keyboard: single-key shortcuts (which can be turned off,
//! WCAG 2.1.4) and the `?` list of them.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::walk::Walk;

/// The id of the step's answer field (its label points at it; the clicker's
/// keys reach through it).
pub const ANSWER_FIELD_ID: &str = "walk-answer";

/// Whether a key press belongs to the element it happened in: typing in a
/// field, choosing in a select, Space on a button, scrolling a code block.
fn for_the_element(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(target) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    // A code block scrolls with the arrows, and a line wider than it needs them.
    if target.closest("pre").ok().flatten().is_some() {
        return true;
    }
    let tag = target.tag_name().to_ascii_lowercase();
    match tag.as_str() {
        "input" | "textarea" | "select" => true,
        "button" | "a" | "summary" => ev.key() == " " || ev.key() == "Enter",
        _ => target.has_attribute("contenteditable"),
    }
}

/// The field a key press was typed in (a text field, a select), if any.
fn typing_in(ev: &web_sys::KeyboardEvent) -> Option<web_sys::HtmlElement> {
    let target = ev.target()?.dyn_into::<web_sys::HtmlElement>().ok()?;
    let tag = target.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select").then_some(target)
}

/// The step's answer field, if a key press was typed in it.
fn answer_field(ev: &web_sys::KeyboardEvent) -> Option<web_sys::HtmlElement> {
    let field = ev.target()?.dyn_into::<web_sys::HtmlElement>().ok()?;
    (field.id() == ANSWER_FIELD_ID).then_some(field)
}

/// The `?` list. When it closes, the focus goes back where it was.
#[component]
pub fn KeysHelp(walk: Walk) -> impl IntoView {
    let ctl = walk.ctl;
    let t = move || ctl.lang.get().walk();
    let close_button = NodeRef::<leptos::html::Button>::new();
    // Where the focus was when the list opened: it goes back there (the Keys
    // button, or the page itself after `?`, so Space then plays rather than
    // opening the list again).
    let before = StoredValue::new_local(None::<web_sys::Element>);
    let close_help = move || {
        walk.help.set(false);
        let was = before.try_update_value(Option::take).flatten();
        match was.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            Some(element) if element.is_connected() && element.tag_name() != "BODY" => {
                let _ = element.focus();
            }
            _ => {
                if let Some(button) = close_button.get_untracked() {
                    let _ = button.blur();
                }
            }
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if !walk.open.get_untracked() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let key = ev.key();
        if key == "Escape" {
            if walk.help.get_untracked() {
                close_help();
            } else if let Some(field) = typing_in(&ev) {
                // Esc leaves the field, and only the field: the keys go back
                // to the player, and presenter mode stays as it was.
                let _ = field.blur();
            } else if walk.presenter.get_untracked() {
                walk.presenter.set(false);
            }
            return;
        }
        if !walk.shortcuts.get_untracked() || walk.help.get_untracked() {
            return;
        }
        // An embedded lesson sits in a docs page: the keys that scroll a page
        // are the reader's, for that page; its arrows and buttons step it.
        if walk.lesson() && matches!(key.as_str(), "PageDown" | "PageUp" | " ") {
            return;
        }
        // A clicker's buttons carry the lesson even from the answer field (a
        // one-line field has no use for them): the field is left, the step moves.
        if let (Some(field), "PageDown" | "PageUp") = (answer_field(&ev), key.as_str()) {
            let _ = field.blur();
            if key == "PageDown" {
                walk.clicker_forward();
            } else {
                walk.clicker_back();
            }
            ev.prevent_default();
            return;
        }
        if for_the_element(&ev) {
            return;
        }
        // "Next" points the way the text runs: right in English, left in Persian.
        let rtl = ctl.lang.get_untracked().dir() == "rtl";
        let (forward, backward) = if rtl {
            ("ArrowLeft", "ArrowRight")
        } else {
            ("ArrowRight", "ArrowLeft")
        };
        // Letters by the key's place, so they work on a Persian layout too.
        match (key.as_str(), ev.code().as_str()) {
            // The course goes on across its sections' ends, so a clicker
            // alone carries the hour.
            (k, _) if k == forward => walk.clicker_forward(),
            (k, _) if k == backward => walk.clicker_back(),
            // A presentation clicker's two buttons.
            ("PageDown", _) => walk.clicker_forward(),
            ("PageUp", _) => walk.clicker_back(),
            (" ", _) => walk.toggle_play(),
            (_, "KeyR") => walk.restart(),
            (_, "KeyS") => walk.finish(),
            (_, "KeyP") if !walk.lesson() => walk.presenter.update(|p| *p = !*p),
            // A clicker's start button sends F5 (its stop, Esc): presenter
            // mode again rather than a reload in front of the class.
            ("F5", _) if !walk.lesson() => walk.presenter.set(true),
            ("?" | "؟", _) => walk.help.set(true),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
    // The list takes the focus when it opens, once it is drawn.
    Effect::new(move |_| {
        if walk.help.get() {
            let focused = document().active_element();
            before.set_value(focused);
            leptos::task::spawn_local(async move {
                gloo_timers::future::TimeoutFuture::new(0).await;
                if let Some(button) = close_button.get_untracked() {
                    let _ = button.focus();
                }
            });
        }
    });
    move || {
        walk.help.get().then(|| {
            view! {
                <div class="walk-keys" role="dialog" aria-labelledby="walk-keys-title" data-testid="keys-help">
                    <h3 id="walk-keys-title">{move || t().keys_title}</h3>
                    <dl>
                        {move || {
                            t().keys_list(walk.lesson())
                                .iter()
                                .map(|(key, what)| view! { <dt><kbd>{*key}</kbd></dt><dd>{*what}</dd> })
                                .collect_view()
                        }}
                    </dl>
                    <p class="hint">{move || t().keys_off}</p>
                    <button node_ref=close_button on:click=move |_| close_help()>
                        {move || t().close_keys}
                    </button>
                </div>
            }
        })
    }
}
