#![cfg(not(target_arch = "wasm32"))]
//! The first paint in `index.html` is written from the app's own texts, so the
//! page shows the same words before and after the Wasm arrives, in both
//! languages. Run with `UPDATE_BOOT_FRAME=1` to rewrite it after a text changed.

use idempotency_lab::boot_frame::{render, rewrite, END, START};
use idempotency_lab::i18n::Lang;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/index.html");

#[test]
fn index_html_holds_the_frame_the_texts_make() {
    let page = std::fs::read_to_string(PAGE).expect("index.html");
    let expected = rewrite(&page).expect("index.html marks its boot frame");
    if std::env::var_os("UPDATE_BOOT_FRAME").is_some() {
        std::fs::write(PAGE, &expected).expect("write index.html");
        return;
    }
    assert!(
        page == expected,
        "index.html's boot frame is out of date with texts/*.json: run \
         `UPDATE_BOOT_FRAME=1 cargo test --test boot_frame`"
    );
}

#[test]
fn every_language_has_its_frame_with_its_own_words() {
    let html = render();
    for lang in Lang::ALL {
        let t = lang.texts();
        let open = format!(
            r#"data-boot="{}" lang="{}" dir="{}""#,
            lang.tag(),
            lang.tag(),
            lang.dir()
        );
        let start = html
            .find(&open)
            .unwrap_or_else(|| panic!("no frame for {}", lang.tag()));
        let frame = &html[start..start + html[start..].find("</main>").unwrap()];
        assert!(frame.contains(&format!("<h1>{}</h1>", t.title)));
        assert!(frame.contains(&format!(r#"aria-label="{}""#, t.language)));
        assert!(frame.contains(lang.walk().open));
        assert!(frame.contains(&format!(
            r#"<button class="reset" disabled>{}</button>"#,
            t.reset
        )));
        for (i, step) in t.how_to().iter().enumerate() {
            let button = t.how_to_do(i + 1);
            assert!(
                frame.contains(&format!(
                    r#"<li>{step} <button class="do-step" disabled>{button}</button></li>"#
                )),
                "{step}"
            );
        }
        // Its own language's button is the pressed one.
        assert!(frame.contains(&format!(
            r#"<button lang="{}" aria-pressed="true""#,
            lang.tag()
        )));
        assert_eq!(frame.matches(r#"aria-pressed="true""#).count(), 1);
    }
}

#[test]
fn the_frame_is_written_only_between_its_markers() {
    assert!(rewrite("<html></html>").is_none());
    let page = format!("a{START}the-old-frame{END}b");
    let new = rewrite(&page).unwrap();
    assert!(new.starts_with(&format!("a{START}\n")) && new.ends_with(&format!("{END}b")));
    assert!(!new.contains("the-old-frame"));
    assert!(!render().contains("<script"));
}

#[test]
fn the_page_reads_back_exactly_the_tags_the_boot_script_writes() {
    // index.html's script writes `en` or `fa` on <html lang>; the app reads it.
    for lang in Lang::ALL {
        assert_eq!(Lang::from_tag(lang.tag()), Some(lang));
    }
    // Anything else was never written by it: the app falls back to English.
    for other in ["", "fa-IR", "EN", "de"] {
        assert_eq!(Lang::from_tag(other), None, "{other}");
    }
}
