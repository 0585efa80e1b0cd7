//! What the page reads from and writes to the browser around the app itself.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::Lang;

fn query_param(name: &str) -> Option<String> {
    let search = window().location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// `?lang=` first, then the browser's language, then English.
pub fn initial_lang() -> Lang {
    let browser: Vec<String> = window().navigator().language().into_iter().collect();
    Lang::choose(query_param("lang").as_deref(), &browser)
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
    let location = window().location();
    let (Ok(search), Ok(path), Ok(hash)) =
        (location.search(), location.pathname(), location.hash())
    else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    params.set("lang", lang.tag());
    let url = format!("{path}?{}{hash}", String::from(params.to_string()));
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Tells tests and embedding pages that the lab is interactive.
pub fn mark_ready() {
    if let Some(body) = document().body() {
        let _ = body.dataset().set("ready", "true");
    }
}
