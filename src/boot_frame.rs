//! The page's first paint, before the Wasm has arrived: the header and the
//! how-to steps, in both languages, written into `index.html` from the same
//! texts the app draws. The app mounts the very same markup in its first task
//! and removes this frame in it, so nothing moves (no layout shift).
//!
//! Native only: `tests/boot_frame.rs` fails when `index.html` no longer holds
//! exactly what [`render`] writes, and rewrites it when run with
//! `UPDATE_BOOT_FRAME=1`.

use crate::i18n::Lang;

/// Marks the generated part of `index.html`.
pub const START: &str =
    "<!-- boot frame: written by tests/boot_frame.rs from texts/<tag>.json; do not edit -->";
pub const END: &str = "<!-- end of boot frame -->";

/// Both languages' frames; the page's boot script picks one by `<html lang>`.
pub fn render() -> String {
    let mut html = String::new();
    for lang in Lang::ALL {
        html.push_str(&frame(lang));
    }
    html
}

/// One language's frame: the same elements and classes the app's header and
/// how-to list have, its buttons disabled until the app takes over. Embedded,
/// the header is the embed's (its "Open the full lab" where the app's will
/// be) and the lab's box says it is loading.
fn frame(lang: Lang) -> String {
    let t = lang.texts();
    let switch: String = Lang::ALL
        .into_iter()
        .map(|other| {
            format!(
                r#"<button lang="{}" aria-pressed="{}" disabled>{}</button>"#,
                other.tag(),
                other == lang,
                escape(other.name())
            )
        })
        .collect();
    let steps: String = t
        .how_to()
        .iter()
        .enumerate()
        .map(|(i, step)| {
            format!(
                r#"<li>{} <button class="do-step" disabled>{}</button></li>"#,
                escape(step),
                escape(&t.how_to_do(i + 1))
            )
        })
        .collect();
    format!(
        concat!(
            r#"    <div class="boot" data-boot="{tag}" lang="{tag}" dir="{dir}" aria-busy="true">"#,
            "\n      ",
            r#"<header class="top"><div class="brand"><h1>{title}</h1><p class="tagline">{tagline}</p></div>"#,
            r#"<div class="top-actions"><span class="open-full boot-embed">{open_full} ↗</span><button class="open-walk" disabled>{walk}</button>"#,
            r#"<div class="lang-switch" role="group" aria-label="{language}">{switch}</div>"#,
            r#"<button class="reset" disabled>{reset}</button></div></header>"#,
            "\n      ",
            r#"<main class="lab"><ol class="how-to">{steps}</ol><p class="boot-loading boot-embed">{loading}</p>"#,
            r#"<p class="boot-failed" role="alert" hidden>{failed}</p>"#,
            r#"<p class="boot-sandboxed" role="alert" hidden>{sandboxed}</p></main>"#,
            "\n    </div>\n"
        ),
        tag = lang.tag(),
        dir = lang.dir(),
        title = escape(t.title),
        tagline = escape(t.tagline),
        walk = escape(lang.walk().open),
        open_full = escape(t.open_full),
        loading = escape(t.boot_loading),
        language = escape(t.language),
        switch = switch,
        reset = escape(t.reset),
        steps = steps,
        failed = escape(t.boot_failed),
        sandboxed = escape(t.boot_sandboxed),
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `page` with its frame (between [`START`] and [`END`]) replaced by [`render`];
/// `None` if the markers are missing.
pub fn rewrite(page: &str) -> Option<String> {
    let start = page.find(START)? + START.len();
    let end = start + page[start..].find(END)?;
    Some(format!(
        "{}\n{}    {}",
        &page[..start],
        render(),
        &page[end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_in_a_text_is_shown_as_text() {
        assert_eq!(
            escape(r#"<b class="x">A & B</b>"#),
            "&lt;b class=&quot;x&quot;&gt;A &amp; B&lt;/b&gt;"
        );
        assert_eq!(escape("&lt;"), "&amp;lt;");
    }
}
