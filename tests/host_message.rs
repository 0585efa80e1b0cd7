//! The `postMessage` conversation with a host page: what the lab takes (a
//! theme, a language, a walkthrough step, each only with a value the lab has)
//! and what it tells (its events, each a plain object with its `type`).

use idempotency_lab::address::Address;
use idempotency_lab::host_message::{
    target_origin, HostMessage, LabEvent, Theme, GO_TO_STEP_MESSAGE, LANG_MESSAGE, MEASURE_MESSAGE,
    THEME_MESSAGE,
};
use idempotency_lab::i18n::Lang;
use serde_json::json;

#[test]
fn a_theme_message_sets_one_of_three_themes_and_nothing_else_is_taken() {
    for theme in Theme::ALL {
        assert_eq!(
            HostMessage::read(&json!({"type": THEME_MESSAGE, "theme": theme.code()})),
            Some(HostMessage::Theme(theme))
        );
    }
    assert_eq!(THEME_MESSAGE, "idempotency-lab:theme");
    for refused in [
        json!({"type": THEME_MESSAGE, "theme": "Dark"}),
        json!({"type": THEME_MESSAGE, "theme": "sepia"}),
        json!({"type": THEME_MESSAGE, "theme": 1}),
        json!({"type": THEME_MESSAGE}),
        json!({"type": "idempotency-lab:colour", "theme": "dark"}),
        json!({"theme": "dark"}),
        json!("idempotency-lab:theme dark"),
        json!(null),
    ] {
        assert_eq!(HostMessage::read(&refused), None, "{refused}");
    }
}

#[test]
fn a_language_message_takes_only_a_language_the_lab_has() {
    assert_eq!(LANG_MESSAGE, "idempotency-lab:lang");
    for lang in Lang::ALL {
        assert_eq!(
            HostMessage::read(&json!({"type": LANG_MESSAGE, "lang": lang.tag()})),
            Some(HostMessage::Lang(lang))
        );
    }
    for refused in [
        json!({"type": LANG_MESSAGE, "lang": "de"}),
        json!({"type": LANG_MESSAGE, "lang": "dark"}),
        json!({"type": LANG_MESSAGE}),
        json!({"type": THEME_MESSAGE, "lang": "fa"}),
    ] {
        assert_eq!(HostMessage::read(&refused), None, "{refused}");
    }
}

#[test]
fn a_go_to_step_message_takes_a_step_from_one_and_maybe_a_scenario() {
    assert_eq!(GO_TO_STEP_MESSAGE, "idempotency-lab:go-to-step");
    assert_eq!(
        HostMessage::read(&json!({"type": GO_TO_STEP_MESSAGE, "step": 2})),
        Some(HostMessage::GoToStep {
            scenario: None,
            step: 2
        })
    );
    assert_eq!(
        HostMessage::read(&json!({"type": GO_TO_STEP_MESSAGE, "step": 1, "scenario": "s4"})),
        Some(HostMessage::GoToStep {
            scenario: Some("s4".into()),
            step: 1
        })
    );
    assert_eq!(
        HostMessage::read(&json!({"type": GO_TO_STEP_MESSAGE, "step": 3, "scenario": null})),
        Some(HostMessage::GoToStep {
            scenario: None,
            step: 3
        })
    );
    // The walkthrough checks the scenario and the step's range, as a deep
    // link's; here only their kinds.
    for refused in [
        json!({"type": GO_TO_STEP_MESSAGE, "step": 0}),
        json!({"type": GO_TO_STEP_MESSAGE, "step": -1}),
        json!({"type": GO_TO_STEP_MESSAGE, "step": 1.5}),
        json!({"type": GO_TO_STEP_MESSAGE, "step": "2"}),
        json!({"type": GO_TO_STEP_MESSAGE}),
        json!({"type": GO_TO_STEP_MESSAGE, "step": 2, "scenario": 4}),
    ] {
        assert_eq!(HostMessage::read(&refused), None, "{refused}");
    }
}

#[test]
fn every_event_is_an_object_with_its_type_its_fields_and_the_frames_id() {
    let events = [
        (LabEvent::Ready, json!({"type": "idempotency-lab:ready"})),
        (
            LabEvent::Resize { height: 640 },
            json!({"type": "idempotency-lab:resize", "height": 640}),
        ),
        (
            LabEvent::Step {
                scenario: "s4".into(),
                step: 2,
            },
            json!({"type": "idempotency-lab:step", "scenario": "s4", "step": 2}),
        ),
        (
            LabEvent::Answered {
                scenario: "s2".into(),
                step: 3,
                correct: false,
            },
            json!({"type": "idempotency-lab:answered", "scenario": "s2", "step": 3, "correct": false}),
        ),
        (
            LabEvent::ChallengeMet {
                scenario: "s1".into(),
            },
            json!({"type": "idempotency-lab:challenge-met", "scenario": "s1"}),
        ),
    ];
    for (event, expected) in events {
        assert_eq!(event.message(None), expected);
        let mut with_id = expected.clone();
        with_id["id"] = json!("intro");
        assert_eq!(event.message(Some("intro")), with_id);
    }
}

#[test]
fn events_go_to_the_parents_origin_when_the_browser_says_it() {
    assert_eq!(
        target_origin(
            Some("https://docs.example.org"),
            Some("https://other.example/x")
        ),
        "https://docs.example.org"
    );
    assert_eq!(
        target_origin(
            None,
            Some("https://docs.example.org:8443/guide/retries?x=1#y")
        ),
        "https://docs.example.org:8443"
    );
    assert_eq!(
        target_origin(Some("null"), Some("http://localhost:8080/")),
        "http://localhost:8080"
    );
    // Unknown, opaque or not a web page's: to whoever the parent is.
    for (ancestor, referrer) in [
        (None, None),
        (None, Some("")),
        (Some("null"), Some("")),
        (None, Some("about:blank")),
        (None, Some("file:///home/docs/index.html")),
        (None, Some("https://")),
    ] {
        assert_eq!(
            target_origin(ancestor, referrer),
            "*",
            "{ancestor:?} {referrer:?}"
        );
    }
}

#[test]
fn each_embed_keeps_its_own_session_by_its_id_or_else_its_address() {
    let scope =
        |search: &str, hash: &str| Address::parse(search, hash).session_scope(search, hash, None);
    // The full page has one, whatever its address.
    assert_eq!(scope("", ""), "page");
    assert_eq!(scope("?lang=fa&scenario=s2", "#state=abc"), "page");
    // Embeds: apart from the page, and from each other by address.
    let sandbox = scope("?embed=1", "");
    let scenario = scope("?embed=1&scenario=s4&step=2", "");
    let shared = scope("?embed=1", "#state=abc");
    let other_shared = scope("?embed=1", "#state=abd");
    let all = [&sandbox, &scenario, &shared, &other_shared];
    for (i, a) in all.iter().enumerate() {
        assert!(a.starts_with("embed:"), "{a}");
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // The same address, the same session (a reload).
    assert_eq!(scope("?embed=1", "#state=abc"), shared);
    // An id names it, whatever else the address says; two ids, two sessions.
    let named = scope("?embed=1&id=intro", "");
    assert_eq!(scope("?embed=1&id=intro&lang=fa", "#state=abc"), named);
    assert_ne!(scope("?embed=1&id=outro", ""), named);
    assert_ne!(named, sandbox);
    // An empty id is none.
    assert_eq!(Address::parse("?embed=1&id=", "").id, None);
    // The names are FNV-1a's, 64 bits, in hex: saved sessions are found
    // under them, so they must not change from one release to the next.
    assert_eq!(scope("?embed=1&id=a", ""), "embed:id:af63dc4c8601ec8c");
    assert_eq!(scope("", ""), "page");
    assert_eq!(
        scope("?embed=1", ""),
        format!("embed:at:{:016x}", 0x8686_e120_b2d1_9ca1_u64)
    );
    // However long the address, the name is short.
    let long = format!("#state={}", "a".repeat(20_000));
    assert!(scope("?embed=1", &long).len() < 40);
    assert!(scope(&format!("?embed=1&id={}", "b".repeat(5_000)), "").len() < 40);
}

#[test]
fn frames_with_one_address_and_no_id_keep_apart_by_their_place_on_the_page() {
    let at = |place| Address::parse("?embed=1", "").session_scope("?embed=1", "", place);
    assert_ne!(at(Some(0)), at(Some(1)));
    assert_ne!(at(Some(1)), at(None));
    // The same place again (a reload), the same session.
    assert_eq!(at(Some(1)), at(Some(1)));
    // An id names the session wherever the frame stands.
    let named =
        |place| Address::parse("?embed=1&id=a", "").session_scope("?embed=1&id=a", "", place);
    assert_eq!(named(Some(0)), named(Some(3)));
    assert_eq!(named(Some(3)), named(None));
    // The full page has one, framed or not.
    assert_eq!(
        Address::parse("", "").session_scope("", "", Some(2)),
        "page"
    );
}

#[test]
fn only_light_and_dark_fix_the_colours() {
    assert_eq!(Theme::Auto.class(), None);
    assert_eq!(Theme::Light.class(), Some("theme-light"));
    assert_eq!(Theme::Dark.class(), Some("theme-dark"));
    assert_eq!(Theme::default(), Theme::Auto);
    // The boot script and the styles name the same classes.
    let boot = include_str!("../index.html");
    let styles = include_str!("../style/main.css");
    for class in ["theme-light", "theme-dark"] {
        assert!(
            styles.contains(&format!("html.{class}")),
            "{class} in main.css"
        );
    }
    assert!(boot.contains("'theme-' + theme") || boot.contains("`theme-${theme}`"));
}

#[test]
fn the_host_may_ask_for_the_height() {
    assert_eq!(
        HostMessage::read(&json!({"type": MEASURE_MESSAGE})),
        Some(HostMessage::Measure)
    );
    assert_eq!(
        HostMessage::read(&json!({"type": "idempotency-lab:measured"})),
        None
    );
}
