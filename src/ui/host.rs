//! Listens to the page that frames an embedded lab: messages from the parent
//! window alone, read by `HostMessage::read` (src/host_message.rs).

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::host_message::{HostMessage, Theme};

/// From now on, a message from the parent window that the lab takes is acted
/// on; a message from anywhere else (another frame, the page itself) is not.
pub fn follow_host() {
    let Some(parent) = window().parent().ok().flatten() else {
        return;
    };
    // Not framed: the window is its own parent, and nobody hosts it.
    if js_sys::Object::is(&parent, &window()) {
        return;
    }
    let handle = window_event_listener(leptos::ev::message, move |ev| {
        let from_parent = ev
            .source()
            .is_some_and(|source| js_sys::Object::is(&source, &parent));
        if !from_parent {
            return;
        }
        let data = ev.data();
        let field = |name: &str| {
            js_sys::Reflect::get(&data, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_string())
        };
        if let Some(HostMessage::Theme(theme)) =
            HostMessage::read(field("type").as_deref(), field("theme").as_deref())
        {
            set_theme(theme);
        }
    });
    // For the page's life.
    std::mem::forget(handle);
}

/// The one place the theme's classes change after the boot script set them.
fn set_theme(theme: Theme) {
    let Some(root) = document().document_element() else {
        return;
    };
    for other in Theme::ALL {
        if let Some(class) = other.class() {
            let _ = root.class_list().toggle_with_force(class, other == theme);
        }
    }
}
