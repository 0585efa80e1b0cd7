//! The height an embed will ask its host for, measured before the author
//! pastes the code, so the snippet reserves it and nothing on the docs page
//! moves when the frame arrives: the embed's own address, in a hidden frame of
//! the chosen width in this page, tells its height (`idempotency-lab:resize`)
//! as it would to any host; the last before it falls quiet is the one.

use std::cell::Cell;
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::host_message::LabEvent;

/// How long the frame's messages must stop before its height counts.
const QUIET_MS: f64 = 700.0;
/// Past this, the measurement is given up (the frame did not start).
const GIVE_UP_MS: f64 = 20_000.0;
/// The frame's name while measured: a session of its own, never a reader's.
pub const MEASURE_ID: &str = "embed-dialog-measure";

/// Loads `src` in a hidden frame `width` pixels wide and returns the height
/// it asks for; `None` when it told none in time.
pub async fn measure(src: &str, width: u32) -> Option<u32> {
    let frame = document()
        .create_element("iframe")
        .ok()?
        .dyn_into::<web_sys::HtmlIFrameElement>()
        .ok()?;
    let _ = frame.set_attribute("aria-hidden", "true");
    let _ = frame.set_attribute("tabindex", "-1");
    let _ = frame.set_attribute("title", "");
    let style = web_sys::HtmlElement::style(&frame);
    for (name, value) in [
        ("position", "fixed".to_owned()),
        ("left", "-12000px".to_owned()),
        ("top", "0".to_owned()),
        ("width", format!("{width}px")),
        ("height", "640px".to_owned()),
        ("border", "0".to_owned()),
        ("visibility", "hidden".to_owned()),
        ("pointer-events", "none".to_owned()),
    ] {
        let _ = style.set_property(name, &value);
    }
    frame.set_src(src);
    document().body()?.append_child(&frame).ok()?;

    let told = Rc::new(Cell::new(None::<(u32, f64)>));
    let listener = {
        let told = told.clone();
        let frame = frame.clone();
        window_event_listener(leptos::ev::message, move |ev| {
            let from_frame = match (ev.source(), frame.content_window()) {
                (Some(source), Some(inner)) => js_sys::Object::is(&source, &inner),
                _ => false,
            };
            if !from_frame {
                return;
            }
            let data = ev.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
            let resize = format!("idempotency-lab:{}", LabEvent::Resize { height: 0 }.name());
            let is_resize = field("type").and_then(|t| t.as_string()) == Some(resize);
            if let Some(height) = field("height")
                .and_then(|h| h.as_f64())
                .filter(|_| is_resize)
            {
                told.set(Some((height.max(0.0) as u32, super::page_env::now_ms())));
            }
        })
    };
    let started = super::page_env::now_ms();
    let height = loop {
        TimeoutFuture::new(100).await;
        let now = super::page_env::now_ms();
        match told.get() {
            Some((height, at)) if now - at >= QUIET_MS => break Some(height),
            _ if now - started >= GIVE_UP_MS => break None,
            _ => {}
        }
    };
    listener.remove();
    frame.remove();
    height
}
