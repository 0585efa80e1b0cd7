//! The conversation with the page that frames an embedded lab: messages from
//! the parent window alone, read by `HostMessage::read`, and the lab's events
//! posted to the parent alone, written by `LabEvent::message`
//! (src/host_message.rs). Not framed, the lab neither listens nor tells.

use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::host_message::{HostMessage, LabEvent, Theme};

use super::controller::Controller;
use super::walk::Walk;
use super::{page_env, switch_language};

/// The regions that scroll inside the page (style/main.css), whose places a
/// measurement of the page's natural height must give back.
const SCROLLERS: &str =
    "main.lab, .column, .columns, .table-scroll, .walk-more, .lab-area > .stage";

thread_local! {
    /// The frame's parent, the origin to post to and the frame's `id`, read
    /// once; `None` when not framed.
    static HOST: RefCell<Option<Host>> = const { RefCell::new(None) };
    /// The height last told, so the same one is not told twice.
    static TOLD_HEIGHT: Cell<u32> = const { Cell::new(0) };
    /// A measurement is already asked for the next frame.
    static MEASURE_ASKED: Cell<bool> = const { Cell::new(false) };
    /// The lab has told the host it is ready, and tells its height since.
    static READY: Cell<bool> = const { Cell::new(false) };
    /// The lab was ready while an embedded lesson was still being drawn.
    static READY_WAITS: Cell<bool> = const { Cell::new(false) };
    /// For each mark down the frame, the bottom of its part in the host's
    /// window, or `None` while it is out of it (see `follow_seen_part`).
    static SEEN_BOTTOMS: RefCell<Vec<Option<f64>>> = const { RefCell::new(Vec::new()) };
}

struct Host {
    parent: web_sys::Window,
    origin: String,
    id: Option<String>,
}

/// How long changes gather before the height is measured once for them all.
const MEASURE_AFTER_MS: u32 = 16;

/// The height of one mark of `follow_seen_part`: a message lands within a
/// quarter of it from the foot of the part seen.
const SEEN_MARK_PX: f64 = 32.0;

/// From now on, a message from the parent window that the lab takes is acted
/// on (a message from anywhere else, another frame or the page itself, is
/// not), the lab's events are told to it, and so is its natural height
/// whenever that changes. Does nothing when the page is not framed.
pub fn follow_host(ctl: Controller, walk: Walk) {
    let Some(parent) = page_env::host_window() else {
        return;
    };
    let origin = page_env::parent_origin().unwrap_or_else(|| "*".to_owned());
    HOST.with(|host| {
        *host.borrow_mut() = Some(Host {
            parent: parent.clone(),
            origin,
            id: page_env::frame_id(),
        })
    });

    let handle = window_event_listener(leptos::ev::message, move |ev| {
        let from_parent = ev
            .source()
            .is_some_and(|source| js_sys::Object::is(&source, &parent));
        if !from_parent {
            return;
        }
        // Structured data read as JSON: anything that is not (a function, a
        // cycle) is not a message the lab takes.
        let Some(data) = js_sys::JSON::stringify(&ev.data())
            .ok()
            .and_then(|text| text.as_string())
            .and_then(|text| serde_json::from_str(&text).ok())
        else {
            return;
        };
        match HostMessage::read(&data) {
            Some(HostMessage::Theme(theme)) => set_theme(theme),
            Some(HostMessage::Lang(lang)) => switch_language(ctl, lang),
            Some(HostMessage::GoToStep { scenario, step }) => walk.go_to_step(scenario, step),
            Some(HostMessage::Measure) => measure_again(),
            None => {}
        }
    });
    // For the page's life.
    std::mem::forget(handle);

    follow_seen_part();
}

/// Keeps the lab's messages in the part of the frame the reader sees: a
/// frame as tall as its content may reach below the host's window, and a
/// message floating over the frame's foot would be out of sight there. Thin
/// marks stacked down the frame tell, each as it comes in or out of the
/// host's window (the browser tells across origins too), which part is seen;
/// the styles lift the message by what is not (`--unseen-below`). One mark for
/// the whole frame would not do: scrolling within a frame taller than the
/// window leaves how much of it is seen the same, and the browser tells
/// nothing then.
fn follow_seen_part() {
    let (Some(body), Ok(marks)) = (document().body(), document().create_element("div")) else {
        return;
    };
    let _ = marks.set_attribute("class", "seen-marks");
    let _ = marks.set_attribute("aria-hidden", "true");
    let _ = body.append_child(&marks);
    let on_seen = Closure::<dyn Fn(js_sys::Array)>::new(|entries: js_sys::Array| {
        SEEN_BOTTOMS.with(|bottoms| {
            let mut bottoms = bottoms.borrow_mut();
            for entry in entries.iter() {
                let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                    continue;
                };
                let index = entry
                    .target()
                    .get_attribute("data-i")
                    .and_then(|i| i.parse::<usize>().ok());
                if let Some(slot) = index.and_then(|i| bottoms.get_mut(i)) {
                    *slot = entry
                        .is_intersecting()
                        .then(|| entry.intersection_rect().bottom());
                }
            }
            let seen_bottom = bottoms.iter().flatten().copied().reduce(f64::max);
            // Out of the window altogether: the frame's own foot.
            let below =
                seen_bottom.map_or(0.0, |bottom| (window_height() - bottom).max(0.0).floor());
            if let Some(root) = document().document_element() {
                let style = root.unchecked_into::<web_sys::HtmlElement>().style();
                let _ = style.set_property(
                    "--unseen-below",
                    &format!("{}px", crate::lab::Decimal(below, 0)),
                );
            }
        });
    });
    // Each mark tells at every quarter of itself.
    let options = web_sys::IntersectionObserverInit::new();
    let quarters = js_sys::Array::of5(
        &JsValue::from_f64(0.0),
        &JsValue::from_f64(0.25),
        &JsValue::from_f64(0.5),
        &JsValue::from_f64(0.75),
        &JsValue::from_f64(1.0),
    );
    options.set_threshold(&quarters);
    let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
        on_seen.into_js_value().unchecked_ref(),
        &options,
    ) else {
        return;
    };
    let lay_marks = move || {
        let count = (window_height() / SEEN_MARK_PX).ceil().max(1.0) as usize;
        if marks.child_element_count() as usize == count {
            return;
        }
        observer.disconnect();
        marks.set_inner_html("");
        SEEN_BOTTOMS.with(|bottoms| *bottoms.borrow_mut() = vec![None; count]);
        for i in 0..count {
            if let Ok(mark) = document().create_element("div") {
                let _ = mark.set_attribute("data-i", &i.to_string());
                let _ = marks.append_child(&mark);
                observer.observe(&mark);
            }
        }
    };
    lay_marks();
    std::mem::forget(window_event_listener(leptos::ev::resize, move |_| {
        lay_marks()
    }));
}

/// The frame's own height, in CSS pixels.
fn window_height() -> f64 {
    window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
}

/// Posts `event` to the frame's parent; nothing when not framed.
pub fn tell(event: &LabEvent) {
    HOST.with(|host| {
        let host = host.borrow();
        let Some(host) = host.as_ref() else {
            return;
        };
        let message = event.message(host.id.as_deref());
        if let Ok(message) = js_sys::JSON::parse(&message.to_string()) {
            let _ = host.parent.post_message(&message, &host.origin);
        }
    });
}

/// The lab is ready: told, and from now on its height too (not before: the
/// frame keeps the author's height while the lab starts, rather than
/// following each panel as it arrives).
pub fn tell_ready() {
    if HOST.with(|host| host.borrow().is_none()) {
        return;
    }
    // A lesson's first height is the lesson's, not the sandbox's under it.
    if page_env::lesson_starting() {
        READY_WAITS.with(|waits| waits.set(true));
        return;
    }
    tell(&LabEvent::Ready);
    READY.with(|ready| ready.set(true));
    tell_height_changes();
}

/// The embedded lesson is drawn: the ready that waited for it is told now.
pub fn lesson_drawn() {
    if READY_WAITS.with(|waits| waits.replace(false)) {
        tell_ready();
    }
}

/// Measures the natural height after every change to the page's content or
/// width, once for the changes of a moment, and tells it when it differs.
fn tell_height_changes() {
    let observer = web_sys::MutationObserver::new(
        Closure::<dyn Fn()>::new(measure_soon)
            .into_js_value()
            .unchecked_ref(),
    );
    if let (Ok(observer), Some(body)) = (observer, document().body()) {
        let options = web_sys::MutationObserverInit::new();
        options.set_child_list(true);
        options.set_subtree(true);
        options.set_character_data(true);
        options.set_attributes(true);
        // What changes a box's size: not the stage's moving marks' styles.
        let filter = js_sys::Array::of3(
            &JsValue::from_str("class"),
            &JsValue::from_str("hidden"),
            &JsValue::from_str("open"),
        );
        options.set_attribute_filter(&filter);
        let _ = observer.observe_with_options(&body, &options);
        // For the page's life.
        std::mem::forget(observer);
    }
    std::mem::forget(window_event_listener(leptos::ev::resize, |_| {
        measure_soon()
    }));
    measure_soon();
}

/// The host asks for the height: told even if it is the one told last. Before
/// the lab is ready it has told nothing, and tells its height once it is.
fn measure_again() {
    if READY.with(Cell::get) {
        TOLD_HEIGHT.with(|told| told.set(0));
        measure_soon();
    }
}

fn measure_soon() {
    if MEASURE_ASKED.with(|asked| asked.replace(true)) {
        return;
    }
    // A timer, not an animation frame: a browser gives none to a frame of
    // another origin that is out of sight, whose height must follow all the
    // same.
    gloo_timers::callback::Timeout::new(MEASURE_AFTER_MS, || {
        MEASURE_ASKED.with(|asked| asked.set(false));
        let Some(height) = natural_height() else {
            return;
        };
        if TOLD_HEIGHT.with(|told| told.replace(height)) != height {
            tell(&LabEvent::Resize { height });
        }
    })
    .forget();
}

/// The page's height with nothing scrolling inside it: laid out for one
/// synchronous moment at its content's height (`html.measuring`,
/// style/main.css), so the browser never paints it; the regions' scroll
/// places, which that layout resets, are given back.
fn natural_height() -> Option<u32> {
    let document = document();
    let (root, body) = (document.document_element()?, document.body()?);
    let scrollers = document.query_selector_all(SCROLLERS).ok()?;
    let places: Vec<(web_sys::Element, i32, i32)> = (0..scrollers.length())
        .filter_map(|i| scrollers.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            let (top, left) = (el.scroll_top(), el.scroll_left());
            (el, top, left)
        })
        .collect();
    let page_top = window().scroll_y().unwrap_or(0.0);
    root.class_list().add_1("measuring").ok()?;
    let bottom = body.get_bounding_client_rect().bottom() + window().scroll_y().unwrap_or(0.0);
    let margin = window()
        .get_computed_style(&body)
        .ok()
        .flatten()
        .and_then(|style| style.get_property_value("margin-block-end").ok())
        .and_then(|value| value.trim_end_matches("px").parse::<f64>().ok())
        .unwrap_or(0.0);
    let _ = root.class_list().remove_1("measuring");
    for (el, top, left) in places {
        if el.scroll_top() != top {
            el.set_scroll_top(top);
        }
        if el.scroll_left() != left {
            el.set_scroll_left(left);
        }
    }
    if window().scroll_y().unwrap_or(0.0) != page_top {
        window().scroll_to_with_x_and_y(window().scroll_x().unwrap_or(0.0), page_top);
    }
    Some((bottom + margin).ceil().max(0.0) as u32)
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
