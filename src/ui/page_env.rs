//! What the page reads from and writes to the browser around the app itself.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::address::{Address, STATE_FRAGMENT};
use crate::i18n::Lang;

/// What the address asks for, read by the one rule in [`Address::parse`].
fn address() -> Address {
    let location = window().location();
    Address::parse(
        &location.search().unwrap_or_default(),
        &location.hash().unwrap_or_default(),
    )
}

/// The page's language, as index.html's boot script wrote it on `<html lang>`.
pub fn initial_lang() -> Lang {
    // index.html's boot script chose it (from `?lang=` or the browser's
    // languages) before the first paint; the app keeps that choice.
    document()
        .document_element()
        .and_then(|root| Lang::from_tag(&root.get_attribute("lang")?))
        .unwrap_or(Lang::En)
}

/// Sets `lang` and `dir` on `<html>` and the title, so the whole page flips direction.
pub fn apply_lang(lang: Lang) {
    let document = document();
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", lang.tag());
        let _ = root.set_attribute("dir", lang.dir());
    }
    document.set_title(lang.texts().title);
}

/// Keeps `?lang=` in the address (without reloading) so a shared link keeps the language.
pub fn remember_lang_in_url(lang: Lang) {
    edit_query(|params| params.set("lang", lang.tag()));
}

/// `?settings=open`: every settings drawer starts open.
pub fn settings_open() -> bool {
    address().settings_open
}

/// `?presenter=1`: the walkthrough's link opens in presenter mode.
pub fn presenter_link() -> bool {
    address().presenter
}

/// Keeps `?presenter=1` in the address while presenter mode is on, so a reload
/// or a copied address opens it again.
pub fn remember_presenter(on: bool) {
    remember_switch("presenter", "1", on);
}

/// Keeps `?settings=open` in the address while every drawer is open by the
/// switch, and takes it away when they are closed by it.
pub fn remember_settings_open(on: bool) {
    remember_switch("settings", "open", on);
}

/// A switch kept in the address: `name=value` while on, absent while off.
fn remember_switch(name: &str, value: &str, on: bool) {
    edit_query(|params| {
        if on {
            params.set(name, value);
        } else {
            params.delete(name);
        }
    });
}

/// Rewrites the address's query with `edit`, without reloading; the path and
/// the hash stay as they are. Never in an embed: its address is the host's
/// (which names its session), and nobody sees it there; what the lab shows
/// is carried by "Open the full lab" instead (see [`full_page`]).
fn edit_query(edit: impl FnOnce(&web_sys::UrlSearchParams)) {
    if is_embed() {
        return;
    }
    let location = window().location();
    let (Ok(search), Ok(path), Ok(hash)) =
        (location.search(), location.pathname(), location.hash())
    else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    edit(&params);
    let query = String::from(params.to_string());
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{path}{query}{hash}")),
        );
    }
}

/// Tells tests and embedding pages that the lab is interactive.
pub fn mark_ready() {
    if let Some(body) = document().body() {
        let _ = body.dataset().set("ready", "true");
    }
}

/// Tells tests that every part placed while the page started is here (or
/// has said it could not come): a split build's later chunks included.
pub fn mark_settled() {
    if let Some(body) = document().body() {
        let _ = body.dataset().set("settled", "true");
    }
}

/// The window that frames the page; `None` when it is not framed.
pub fn host_window() -> Option<web_sys::Window> {
    let parent = window().parent().ok().flatten()?;
    // Not framed: the window is its own parent, and nobody hosts it.
    (!js_sys::Object::is(&parent, &window())).then_some(parent)
}

/// Whether the page is in a frame.
pub fn is_framed() -> bool {
    host_window().is_some()
}

/// The page is not on show (a tab opened in the background).
pub fn is_hidden() -> bool {
    document().hidden()
}

/// `?embed=1`: the compact mode for an iframe on a documentation site, as
/// index.html's boot script marked it on `<html>` before the first paint.
pub fn is_embed() -> bool {
    document()
        .document_element()
        .is_some_and(|root| root.class_list().contains("embed"))
}

/// Takes away index.html's first paint: called in the same task that mounts the
/// app's own header and steps, so the browser never paints between the two.
pub fn remove_boot_frame() {
    let Ok(frames) = document().query_selector_all(".boot") else {
        return;
    };
    // A NodeList from querySelectorAll is static: removing does not renumber it.
    for node in (0..frames.length()).filter_map(|i| frames.item(i)) {
        if let Some(parent) = node.parent_node() {
            let _ = parent.remove_child(&node);
        }
    }
}

/// Where a language's texts are, beside the page (any sub-path).
fn texts_url(lang: Lang) -> String {
    format!("texts/{}.json", lang.tag())
}

/// A language's texts file. For the page's first language, index.html's boot
/// script started this fetch beside the Wasm's; the app takes its answer.
pub async fn language_texts(lang: Lang) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let started = js_sys::Reflect::get(&window(), &JsValue::from_str("idempotencyLabTexts"))
        .ok()
        .filter(|started| {
            js_sys::Reflect::get(started, &JsValue::from_str("lang"))
                .ok()
                .and_then(|tag| tag.as_string())
                .is_some_and(|tag| tag == lang.tag())
        })
        .and_then(|started| js_sys::Reflect::get(&started, &JsValue::from_str("texts")).ok())
        .and_then(|texts| texts.dyn_into::<js_sys::Promise>().ok());
    let Some(started) = started else {
        return fetch_text(&texts_url(lang)).await;
    };
    match JsFuture::from(started).await {
        Ok(text) => text
            .as_string()
            .ok_or_else(|| format!("{}: not text", texts_url(lang))),
        // The boot script's fetch failed (a network blip): ask once more.
        Err(_) => fetch_text(&texts_url(lang)).await,
    }
}

/// The texts could not be loaded, so the app cannot start: the first paint
/// says so in its own language (index.html holds it, hidden until now).
pub fn show_boot_failure(reason: &str) {
    let Ok(notes) = document().query_selector_all(".boot-failed") else {
        return;
    };
    for note in (0..notes.length()).filter_map(|i| notes.item(i)) {
        if let Ok(note) = note.dyn_into::<web_sys::HtmlElement>() {
            note.set_hidden(false);
            let _ = note.set_attribute("title", reason);
        }
    }
    if let Ok(frames) = document().query_selector_all(".boot") {
        for frame in (0..frames.length()).filter_map(|i| frames.item(i)) {
            if let Ok(frame) = frame.dyn_into::<web_sys::Element>() {
                let _ = frame.set_attribute("aria-busy", "false");
            }
        }
    }
}

/// The session token of a permalink (`#state=…`), if the address has one.
pub fn link_token() -> Option<String> {
    address().state
}

/// The full lab's address for what this page shows: in `lang`, at the
/// walkthrough's `place` (scenario id, step from 1) when given, else without
/// one; and without what says how an embed is shown (`embed`, `settings`,
/// `id`) or a session.
pub fn full_page(lang: Lang, place: Option<(&str, usize)>) -> Option<String> {
    let search = window().location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    // How this page is shown, not what it holds: the full page opens as a new
    // visitor sees it.
    for name in ["embed", "settings", "id", "scenario", "step"] {
        params.delete(name);
    }
    params.set("lang", lang.tag());
    if let Some((scenario, step)) = place {
        params.set("scenario", scenario);
        params.set("step", &step.to_string());
    }
    let query = String::from(params.to_string());
    Some(format!("{}?{query}", lab_base()?))
}

/// The full lab's address with `token` as its session, in `lang`.
pub fn permalink(token: &str, lang: Lang) -> Option<String> {
    Some(format!("{}{STATE_FRAGMENT}{token}", full_page(lang, None)?))
}

/// The lab's own address, without query or fragment: what an embed's
/// frame loads.
pub fn lab_base() -> Option<String> {
    let location = window().location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

/// `?id=`: an embed's name on its host page.
pub fn frame_id() -> Option<String> {
    address().id
}

/// Opens `url` in a new tab; false when the browser did not (a frame
/// sandboxed without `allow-popups` gets no window, and no error).
pub fn open_in_new_tab(url: &str) -> bool {
    // Not with "noopener", which makes the answer null whether it opened or
    // not: the new tab is let go of at once instead.
    match window().open_with_url_and_target(url, "_blank") {
        Ok(Some(opened)) => {
            let _ = opened.set_opener(&JsValue::NULL);
            true
        }
        _ => false,
    }
}

/// Asks the browser to copy `text` to the clipboard; the future says whether it
/// did. `None` where the page has no clipboard at all (an insecure origin).
pub fn copy_text(text: &str) -> Option<wasm_bindgen_futures::JsFuture> {
    let navigator = window().navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    has_clipboard
        .then(|| wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text)))
}

/// Drops `#state=…` from the address, so a reload shows the saved session
/// instead. Not in an embed: there the host's address starts the frame from
/// its state on every load (the saved session is offered back).
pub fn forget_link() {
    if is_embed() {
        return;
    }
    let location = window().location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else {
        return;
    };
    if let Ok(history) = window().history() {
        let _ =
            history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{search}")));
    }
}

/// Where the session is kept between reloads. Scoped by path, so two labs on one
/// documentation site do not overwrite each other, and by [`Address::session_scope`],
/// so every embed keeps its own, apart from the full page's.
fn storage_key() -> String {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let (search, hash) = (
        location.search().unwrap_or_default(),
        location.hash().unwrap_or_default(),
    );
    let scope = address().session_scope(&search, &hash, place_among_frames());
    format!("idempotency-lab:{scope}:{path}")
}

/// The frame's place among its host page's frames (in the page's order), which
/// the browser tells across origins; `None` when not framed.
fn place_among_frames() -> Option<u32> {
    let parent = host_window()?;
    let count = js_sys::Reflect::get(&parent, &JsValue::from_str("length"))
        .ok()?
        .as_f64()? as u32;
    let me = window();
    (0..count).find(|i| {
        js_sys::Reflect::get(&parent, &JsValue::from(*i))
            .is_ok_and(|frame| js_sys::Object::is(&frame, &me))
    })
}

/// The browser gives this frame no storage at all (it throws, rather than
/// being full), and the page that frames it is of another origin: a browser
/// that keeps nothing for a site's frames inside another site's pages.
pub fn storage_denied_to_foreign_frame() -> bool {
    let denied = !matches!(window().local_storage(), Ok(Some(_)));
    denied
        && parent_origin().is_some_and(|parent| window().location().origin().ok() != Some(parent))
}

/// The origin of the page that frames this one, as the browser tells it (an
/// ancestor origin, else the referrer's); `None` when not framed or unknown.
pub fn parent_origin() -> Option<String> {
    host_window()?;
    let location = window().location();
    let ancestor = js_sys::Reflect::get(&location, &JsValue::from_str("ancestorOrigins"))
        .ok()
        .filter(|list| !list.is_undefined())
        .and_then(|list| js_sys::Reflect::get(&list, &JsValue::from_f64(0.0)).ok())
        .and_then(|origin| origin.as_string());
    let origin =
        crate::host_message::target_origin(ancestor.as_deref(), Some(&document().referrer()));
    (origin != "*").then_some(origin)
}

fn storage() -> Option<web_sys::Storage> {
    // Storage can be missing or refused (private mode, sandboxed iframe): then the
    // lab does not persist, and says so once (see `save`).
    window().local_storage().ok().flatten()
}

/// The page's clock in milliseconds (the wall clock's, for pacing and throttling).
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// This tab's own copy: it survives a reload of the tab and nothing else, so two
/// tabs on the lab never reload into each other's session.
fn tab_storage() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// The session to restore: this tab's own, else the one any tab saved last (a
/// new tab, or the browser opened again).
pub fn load_saved() -> Option<String> {
    let key = storage_key();
    let read = |storage: web_sys::Storage| storage.get_item(&key).ok().flatten();
    tab_storage()
        .and_then(read)
        .or_else(|| storage().and_then(read))
}

/// Keeps the session for the next reload of this tab, and for the next new tab;
/// false when the browser refused both.
pub fn save(json: &str) -> bool {
    let key = storage_key();
    let write = |storage: web_sys::Storage| storage.set_item(&key, json).is_ok();
    let for_tab = tab_storage().is_some_and(write);
    storage().is_some_and(write) || for_tab
}

/// An embedded lesson's place, kept for this frame (beside its session) so a
/// reload shows the step the reader was at: `scenario` and the step from 1.
pub fn save_lesson_place(scenario: &str, step: usize) {
    let key = format!("{}:lesson", storage_key());
    let place = format!("{scenario} {step}");
    for storage in [tab_storage(), storage()].into_iter().flatten() {
        let _ = storage.set_item(&key, &place);
    }
}

/// The step (from 1) this frame's lesson of `scenario` was at, if it kept one.
pub fn lesson_place(scenario: &str) -> Option<String> {
    let key = format!("{}:lesson", storage_key());
    let kept = [tab_storage(), storage()]
        .into_iter()
        .flatten()
        .find_map(|storage| storage.get_item(&key).ok().flatten())?;
    let (kept_scenario, step) = kept.split_once(' ')?;
    (kept_scenario == scenario).then(|| step.to_owned())
}

/// Calls `saved_elsewhere` when another tab of this browser saves a lab session
/// under the same key (the browser tells every other tab of a change).
pub fn on_other_tab_save(saved_elsewhere: impl Fn() + 'static) -> impl FnOnce() {
    let key = storage_key();
    let handle = leptos::prelude::window_event_listener(leptos::ev::storage, move |ev| {
        if ev.key().as_deref() == Some(key.as_str()) {
            saved_elsewhere();
        }
    });
    move || handle.remove()
}

/// The file just chosen in a file input, if any. The input is emptied, so the
/// same file can be chosen again after a fix.
pub fn take_chosen_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    let input: web_sys::HtmlInputElement = ev.target()?.unchecked_into();
    let file = input.files().and_then(|files| files.get(0));
    input.set_value("");
    file
}

/// Offers `text` as a file download, made in the page (no server involved).
pub fn download(file_name: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(anchor) = document().create_element("a") {
        let anchor: web_sys::HtmlAnchorElement = wasm_bindgen::JsCast::unchecked_into(anchor);
        anchor.set_href(&url);
        anchor.set_download(file_name);
        anchor.click();
    }
    // Some browsers read the object URL after click() returns: free it later.
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

/// `?scenario=` and `?step=` of a walkthrough deep link, as written.
pub fn walk_link() -> Option<(String, Option<String>)> {
    address().walk
}

/// Keeps the walkthrough's place in the address (without reloading), so a
/// reload or a copied address opens the same step; `None` takes it out.
pub fn remember_walk_in_url(place: Option<(&str, usize)>) {
    edit_query(|params| match place {
        Some((id, step)) => {
            params.set("scenario", id);
            params.set("step", &step.to_string());
        }
        None => {
            params.delete("scenario");
            params.delete("step");
        }
    });
}

/// Fetches a file shipped beside the page (a relative address, so it works
/// from any sub-path), as text.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    // A refused fetch is a JS error: say its message, not its stack.
    let failed = |e: JsValue| {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| format!("{url}: could not be fetched"))
    };
    let response = JsFuture::from(window().fetch_with_str(url))
        .await
        .map_err(failed)?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    text.as_string().ok_or_else(|| format!("{url}: not text"))
}

const PROGRESS_KEY: &str = "idempotency-lab:walkthrough-progress";

/// The walkthrough progress this browser keeps (one for every page of the lab).
pub fn load_progress() -> Option<String> {
    storage()?.get_item(PROGRESS_KEY).ok().flatten()
}

pub fn save_progress(json: &str) -> bool {
    storage().is_some_and(|s| s.set_item(PROGRESS_KEY, json).is_ok())
}

const SHELF_KEY: &str = "idempotency-lab:teacher-scenarios";

/// The teacher's scenarios this browser keeps (one list for every page of the lab).
pub fn load_shelf() -> Option<String> {
    storage()?.get_item(SHELF_KEY).ok().flatten()
}

pub fn save_shelf(json: &str) -> bool {
    storage().is_some_and(|s| s.set_item(SHELF_KEY, json).is_ok())
}

/// The token of a teacher's scenario link (`#teach=…`), if the address has one.
pub fn teach_token() -> Option<String> {
    address().teach
}

/// The full lab's address that opens a teacher's scenario, in `lang`.
pub fn teach_link(token: &str, lang: Lang) -> Option<String> {
    Some(format!(
        "{}{}{token}",
        full_page(lang, None)?,
        crate::walkthrough::TEACH_FRAGMENT
    ))
}

const SHORTCUTS_KEY: &str = "idempotency-lab:single-key-shortcuts";

/// Whether single-key shortcuts are on (they are unless turned off).
pub fn shortcuts_on() -> bool {
    storage()
        .and_then(|s| s.get_item(SHORTCUTS_KEY).ok().flatten())
        .is_none_or(|v| v != "off")
}

pub fn remember_shortcuts(on: bool) {
    if let Some(s) = storage() {
        let _ = s.set_item(SHORTCUTS_KEY, if on { "on" } else { "off" });
    }
}

/// Whether the sandbox stands in columns that fit the window (the same media
/// queries as `style/main.css`'s: embedded, from 600 px wide), rather than a
/// phone's one column.
pub fn sandbox_in_columns() -> bool {
    let query = if is_embed() {
        "(min-width: 600px)"
    } else {
        "(min-width: 900px) and (min-height: 560px)"
    };
    window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Brings a walkthrough question and what was just said of it (the verdict,
/// the revealed answer) into view inside the panel that holds them: from the
/// question's top when the two fit, else the whole of what was said. Where
/// the panel does not scroll by itself (a phone), the page brings it in.
pub fn show_feedback(panel: &web_sys::Element) {
    let (Some(question), Some(said)) = (
        panel.query_selector(".walk-question").ok().flatten(),
        panel.query_selector(".walk-feedback-region").ok().flatten(),
    ) else {
        return;
    };
    if panel.scroll_height() <= panel.client_height() {
        let rect = said.get_bounding_client_rect();
        let height = window().inner_height().ok().and_then(|h| h.as_f64());
        if height.is_some_and(|h| rect.bottom() > h || rect.top() < 0.0) {
            said.scroll_into_view_with_bool(false);
        }
        return;
    }
    let area = panel.get_bounding_client_rect();
    let scrolled = f64::from(panel.scroll_top());
    let height = f64::from(panel.client_height());
    let top = question.get_bounding_client_rect().top() - area.top() + scrolled;
    let bottom = said.get_bounding_client_rect().bottom() - area.top() + scrolled;
    let target = if bottom - top + 8.0 <= height {
        top - 4.0
    } else {
        bottom - height + 4.0
    };
    if top < scrolled || bottom > scrolled + height {
        panel.set_scroll_top(target.max(0.0) as i32);
    }
}

/// Brings the first part a walkthrough step marks inside the panels beside the
/// stage into view, scrolling that region alone: never the page, whose top
/// holds the narration on a phone (where the panels do not scroll by
/// themselves, and nothing moves). False while no mark is drawn there.
pub fn show_first_mark() -> bool {
    let document = window().document();
    let Some(region) = document.and_then(|d| d.query_selector(".columns").ok().flatten()) else {
        return false;
    };
    // The first mark drawn with a size (one in a hidden panel has none); none
    // yet: the panels may still be arriving.
    let Some(marks) = region.query_selector_all("[data-marked=\"true\"]").ok() else {
        return false;
    };
    // A marked timeline row first: the proof (a marked promise is drawn on
    // the stage too).
    let drawn: Vec<web_sys::Element> = (0..marks.length())
        .filter_map(|i| marks.item(i))
        .filter_map(|node| node.dyn_into::<web_sys::Element>().ok())
        .filter(|element| element.get_bounding_client_rect().height() > 0.0)
        .collect();
    let row =
        |e: &&web_sys::Element| e.get_attribute("data-testid").as_deref() == Some("timeline-row");
    let Some(mark) = drawn.iter().find(row).or(drawn.first()).cloned() else {
        return false;
    };
    let (scrolled, height) = (
        f64::from(region.scroll_top()),
        f64::from(region.client_height()),
    );
    if region.scroll_height() <= region.client_height() {
        return true;
    }
    let (area, rect) = (
        region.get_bounding_client_rect(),
        mark.get_bounding_client_rect(),
    );
    let top = rect.top() - area.top() + scrolled;
    // The mark's panel from its heading (a timeline row with the timeline's
    // title and count) where the two fit; else the mark. (The panel's slot
    // has no box of its own: its section has, and its title.)
    let panel_top = mark
        .closest("[data-panel] > .panel")
        .ok()
        .flatten()
        .map(|panel| panel.query_selector("h2").ok().flatten().unwrap_or(panel))
        .map(|heading| heading.get_bounding_client_rect().top() - area.top() + scrolled)
        .filter(|panel_top| top + rect.height() - panel_top + 8.0 <= height);
    let out_of_view = top < scrolled || top + rect.height() > scrolled + height;
    // In view, but its heading scrolled away where the two would fit.
    let heading_away = panel_top.is_some_and(|panel_top| panel_top + 8.0 < scrolled);
    if out_of_view || heading_away {
        // A timeline row taller than the region: from what the store did, so
        // its outcome is on the screen (the stage draws its request).
        let outcome_top = (rect.height() + 8.0 > height)
            .then(|| mark.query_selector("td.store").ok().flatten())
            .flatten()
            .map(|cell| cell.get_bounding_client_rect().top() - area.top() + scrolled);
        let target = panel_top.or(outcome_top).unwrap_or(top);
        region.set_scroll_top((target - 8.0).max(0.0) as i32);
    }
    true
}

/// Whether the person asked for less motion: then steps land at once.
pub fn reduced_motion() -> bool {
    media_matches("(prefers-reduced-motion: reduce)")
}

/// Whether a media query matches the page now.
pub fn media_matches(query: &str) -> bool {
    window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Scrolls `scroller` (a box around `el` that a person can scroll) the least
/// that shows `el` whole inside what every box around it leaves in view, or
/// its top when it is taller than the room; `inset` is what covers the box's
/// top (a sticky header). Only that box moves: the lab's other boxes, and the
/// buttons in them, stay where they are.
pub fn reveal_least(el: &web_sys::Element, scroller: &web_sys::Element, inset: f64) {
    if !scrolls(scroller) {
        return;
    }
    let (mut from, mut to) = (0.0_f64, viewport_height());
    let mut at = Some(scroller.clone());
    while let Some(node) = at {
        if node == *scroller || scrolls(&node) {
            let r = node.get_bounding_client_rect();
            from = from.max(r.top());
            to = to.min(r.bottom());
        }
        at = node.parent_element();
    }
    let r = el.get_bounding_client_rect();
    // Whole below the header if it fits there; else whole in the box (its top
    // edge under the header, as the box's end shows it); else its top first.
    let height = r.bottom() - r.top();
    let top = if height <= to - from - inset || height > to - from {
        from + inset
    } else {
        from
    };
    let by = least_move(r.top(), r.bottom(), top, to);
    if by != 0.0 {
        scroller.scroll_by_with_x_and_y(0.0, by);
    }
}

/// Scrolls `scroller` toward showing `el` (its top first), but no further
/// than keeps `keep` (the button a person just pressed) in view.
pub fn reveal_keeping(el: &web_sys::Element, scroller: &web_sys::Element, keep: &web_sys::Element) {
    if !scrolls(scroller) {
        return;
    }
    let room = scroller.get_bounding_client_rect();
    let (from, to) = (room.top().max(0.0), room.bottom().min(viewport_height()));
    let r = el.get_bounding_client_rect();
    let by = least_move(r.top(), r.bottom(), from, to);
    let k = keep.get_bounding_client_rect();
    // Down at most until the kept one reaches the top; up at most until it
    // reaches the foot.
    let by = by.clamp(-(to - k.bottom()).max(0.0), (k.top() - from).max(0.0));
    if by.abs() >= 1.0 {
        scroller.scroll_by_with_x_and_y(0.0, by);
    }
}

/// How far to scroll so `top..bottom` shows inside `from..to`: the least, or
/// its top first when it does not fit.
fn least_move(top: f64, bottom: f64, from: f64, to: f64) -> f64 {
    const MARGIN: f64 = 4.0;
    if top < from {
        top - from - MARGIN
    } else if bottom > to {
        (bottom - to + MARGIN).min(top - from)
    } else {
        0.0
    }
}

/// Whether a person can scroll `node` up and down, and it has more to show.
fn scrolls(node: &web_sys::Element) -> bool {
    if node.scroll_height() <= node.client_height() + 1 {
        return false;
    }
    let overflow = window()
        .get_computed_style(node)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("overflow-y").ok())
        .unwrap_or_default();
    overflow == "auto" || overflow == "scroll"
}

/// The window's height in CSS pixels.
pub fn viewport_height() -> f64 {
    window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
}

/// Whether the walkthrough is open (the page's root says so).
/// An embedded lesson not yet drawn (index.html's boot script marks it).
pub fn lesson_starting() -> bool {
    document()
        .document_element()
        .is_some_and(|root| root.class_list().contains("lesson-start"))
}

/// The embedded lesson is drawn: the lab's place is its own from now on.
pub fn lesson_drawn() {
    mark_root("lesson-start", false);
}

pub fn is_walking() -> bool {
    document()
        .document_element()
        .is_some_and(|root| root.class_list().contains("walking"))
}

/// The walkthrough is open: the page fits one screen (see `style/main.css`).
pub fn mark_walking(on: bool) {
    mark_root("walking", on);
}

/// Presenter mode: larger type, no page chrome (see `style/main.css`).
pub fn mark_presenter(on: bool) {
    mark_root("presenter", on);
}

/// What `offline.js` says on `window` when a newer build is kept and waits.
pub const UPDATE_READY: &str = "idempotency-lab:update-ready";
/// What the page says on `window` for `offline.js` to let the newer build in.
const TAKE_UPDATE: &str = "idempotency-lab:take-update";

/// Starts the offline copy (`offline.js` registers `sw.js`), in a release
/// build only: the one whose index.html lists it in `<meta name="offline-copy">`.
pub fn keep_offline_copy() {
    let document = document();
    let listed = document
        .query_selector("meta[name=\"offline-copy\"]")
        .ok()
        .flatten()
        .is_some();
    if !listed
        || document
            .query_selector("script[src=\"offline.js\"]")
            .ok()
            .flatten()
            .is_some()
    {
        return;
    }
    let (Ok(script), Some(head)) = (document.create_element("script"), document.head()) else {
        return;
    };
    let _ = script.set_attribute("src", "offline.js");
    let _ = head.append_child(&script);
}

/// Lets the newer build in: the page reloads on it (`offline.js`).
pub fn take_update() {
    if let Ok(event) = web_sys::Event::new(TAKE_UPDATE) {
        let _ = window().dispatch_event(&event);
    }
}

/// Prints the handout alone: the print styles show only it while `<html>`
/// says so (the browser's own Print still prints the page).
pub fn print_handout() {
    mark_root("printing-handout", true);
    // Returns once the print dialog is done with.
    let _ = window().print();
    mark_root("printing-handout", false);
}

/// Sets or clears a class of `<html>`, which the styles lay the page out by.
fn mark_root(class: &str, on: bool) {
    if let Some(root) = document().document_element() {
        let _ = root.class_list().toggle_with_force(class, on);
    }
}

/// A `<details>`'s `toggle` handler that keeps `open` as the element is, so
/// the view (which may be rebuilt) opens it again as the person left it.
pub fn follow_details(open: leptos::prelude::RwSignal<bool>) -> impl Fn(leptos::ev::Event) + Copy {
    use leptos::prelude::Set;
    move |ev| {
        let details: web_sys::HtmlDetailsElement = leptos::prelude::event_target(&ev);
        open.set(details.open());
    }
}

/// Takes the keyboard focus off the field a key was pressed in, so the
/// page's own keys work again.
pub fn leave_field(ev: &web_sys::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    if let Some(field) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = field.blur();
    }
}

/// Whether a key press is Enter in a text field, which sends its form. The
/// page sends it itself rather than by the form's submission, which a
/// sandboxed frame without `allow-forms` blocks (with no event at all).
pub fn enter_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    if ev.key() != "Enter"
        || ev.is_composing()
        || ev.shift_key()
        || ev.ctrl_key()
        || ev.alt_key()
        || ev.meta_key()
    {
        return false;
    }
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|input| {
            matches!(
                input.type_().as_str(),
                "text" | "search" | "number" | "tel" | "url" | "email" | "password"
            )
        })
}
