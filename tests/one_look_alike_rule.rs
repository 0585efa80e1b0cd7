#![cfg(not(target_arch = "wasm32"))]
//! One rule for text the lab did not write, wherever it comes from: typed
//! into a field (a key, an account, a scenario's title), it is refused with the
//! reason; arriving in a session, a link, a teacher's scenario or the course's
//! files, it is shown with each character that cannot be seen, or that turns
//! the text around, as its code (`⟨U+202E⟩`), so saved sessions keep opening.

mod common;
use common::instant_lab;

use std::collections::BTreeMap;

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{from_json, read_request, Action, FieldError};
use idempotency_lab::walkthrough::{
    read_scenarios, RecordError, Recording, StepDraft, TeacherScenario,
};
use idempotency_lab::GrantPoints;

const TURNED: &str = "acc\u{202E}ount-7";
const SHOWN: &str = "acc⟨U+202E⟩ount-7";

fn english(text: &str) -> BTreeMap<Lang, String> {
    BTreeMap::from([(Lang::En, text.to_string())])
}

/// A one-step recording, ready to be finished under a title.
fn recording() -> Recording {
    let mut lab = instant_lab();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("k", "alice", 5),
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let mut recording = Recording::new();
    let step = StepDraft {
        narration: english("One."),
        question: None,
    };
    recording.mark(&lab, step).unwrap();
    recording
}

/// A teacher's file whose English title is `title`, as a file would hold it.
fn teacher_file(title: &str) -> String {
    let scenario = recording()
        .finish(&english("Plain"), &BTreeMap::new())
        .unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&scenario.to_json()).unwrap();
    file["languages"]["en"]["scenarios"]["teacher"]["title"] = title.into();
    file.to_string()
}

#[test]
fn typed_it_is_refused_with_the_reason() {
    let form = read_request(TURNED, "order-1", "5").unwrap_err();
    assert_eq!(form.account, Some(FieldError::Invisible));
    let form = read_request("alice", "order\u{200B}-1", "5").unwrap_err();
    assert_eq!(form.key, Some(FieldError::Invisible));
    let typed = recording().finish(&english("A \u{202E}title"), &BTreeMap::new());
    let Err(refused) = typed else {
        panic!("a typed title that turns around was kept");
    };
    assert_eq!(
        refused,
        RecordError::Title {
            lang: Lang::En,
            error: FieldError::Invisible
        }
    );
    let said = Lang::En.texts().teacher.record_error(&refused);
    assert!(said.contains("cannot be seen"), "{said}");
}

#[test]
fn in_a_teachers_file_the_title_is_shown_by_its_codes() {
    let scenario = &read_scenarios(&teacher_file("Lost \u{202E}answer")).unwrap()[0];
    assert_eq!(scenario.title(Lang::En), "Lost \u{202E}answer");
    assert_eq!(scenario.shown_title(Lang::En), "Lost ⟨U+202E⟩answer");
    for lang in Lang::ALL {
        let t = &lang.texts().teacher;
        for said in [
            t.player_title(&scenario.shown_title(lang)),
            t.opened(&scenario.shown_title(lang)),
        ] {
            assert!(said.contains("⟨U+202E⟩answer"), "{said}");
            assert!(!said.contains('\u{202E}'), "{said}");
        }
    }
    // And so in its handout.
    let (_, text) = scenario.words(Lang::En);
    let handout =
        idempotency_lab::walkthrough::handout_of(scenario.script(), text, |n| n.to_string())
            .unwrap();
    assert_eq!(handout.title, "Lost ⟨U+202E⟩answer");
}

#[test]
fn in_a_teachers_link_the_title_is_shown_by_its_codes() {
    let scenario = TeacherScenario::parse(&teacher_file("\u{200B}Hidden")).unwrap();
    let token = idempotency_lab::walkthrough::to_link(&scenario).unwrap();
    let opened = idempotency_lab::walkthrough::from_link(&token).unwrap();
    assert_eq!(opened.shown_title(Lang::En), "⟨U+200B⟩Hidden");
}

#[test]
fn in_a_session_the_account_is_shown_by_its_codes() {
    let file = format!(
        r#"{{"format":"idempotency-lab/session","version":3,"actions":[{{"send":{{"grant":{{"key":"k","account_id":"{}","points":5}}}}}}]}}"#,
        TURNED.replace('\u{202E}', "\\u202e")
    );
    let lab = from_json(&file).expect("a saved session keeps opening");
    // (After the transit of 0 that a file from before transit opens with.)
    let Action::Send { grant, .. } = &lab.history().actions[1] else {
        panic!("the session's send");
    };
    let account = grant.account_id.clone();
    assert_eq!(account, TURNED);
    for lang in Lang::ALL {
        let said = lang.texts().email_line(&account, "k", 5);
        assert!(said.contains(SHOWN), "{said}");
        assert!(!said.contains('\u{202E}'), "{said}");
    }
}

#[test]
fn in_the_courses_files_a_title_is_shown_by_its_codes() {
    let read = |json: &str| -> idempotency_lab::walkthrough::LanguageFile {
        serde_json::from_str(json).unwrap()
    };
    let files = [
        read(include_str!("../walkthrough/en.json")),
        read(include_str!("../walkthrough/fa.json")),
    ];
    // The course's own titles (Persian's joiners between letters too) look as written.
    for text in files.iter().flat_map(|f| f.scenarios.values()) {
        assert_eq!(text.shown_title(), text.title);
    }
    let mut first = files[0].scenarios["s1"].clone();
    first.title = "Keys \u{2066}x\u{2069}".into();
    assert_eq!(first.shown_title(), "Keys ⟨U+2066⟩x⟨U+2069⟩");
}
