#![cfg(not(target_arch = "wasm32"))]
//! Every refusal the page can show is said by the page's own texts, in each
//! language (the texts match every case, with no fallback to a Rust `Display`,
//! which is English whatever the page's language), and no two read the same.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{
    FieldError, FieldProblem, LabError, ReadError, ReplayError, SessionError, SettingError,
};
use idempotency_lab::walkthrough::{
    ContentError, FactError, LinkError, Piece, RecordError, ShelfError, TeacherError, TemplateError,
};
use idempotency_lab::{GrantError, GrantPoints, GrantResult};

fn lab_errors() -> Vec<LabError> {
    vec![
        LabError::NothingToRetry,
        LabError::BurstSize(0),
        LabError::WaitLength(0),
        LabError::Setting(SettingError::CallerTimeout(0)),
        LabError::Setting(SettingError::ProcessingTime(700_000)),
        LabError::Setting(SettingError::Processes(3)),
        LabError::Setting(SettingError::RoutingSlot(3)),
        LabError::Setting(SettingError::Retention(0)),
        LabError::Setting(SettingError::MaxAttempts(0)),
        LabError::DuplicatePercent(101),
        LabError::SessionFull,
        LabError::NothingToUndo,
        LabError::NothingToRedo,
        LabError::StepNotPaused,
        LabError::NothingToStep,
        LabError::ClockMove(0),
        LabError::Account(FieldError::Empty),
    ]
}

fn grant_errors() -> Vec<GrantError> {
    let stored = GrantResult {
        key: "k".into(),
        account_id: "a".into(),
        points: 1,
        balance: 1,
    };
    vec![
        GrantError::EmptyKey,
        GrantError::EmptyAccount,
        GrantError::NonPositivePoints,
        GrantError::Overflow,
        GrantError::Timeout,
        GrantError::WorkerStopped,
        GrantError::InProgress,
        GrantError::Forbidden {
            signed_in: "a".into(),
            named: "b".into(),
        },
        GrantError::PayloadMismatch {
            stored,
            rejected: GrantPoints::new("k", "a", 2),
        },
    ]
}

fn session_errors() -> Vec<SessionError> {
    vec![
        SessionError::TooLarge { bytes: 9 },
        SessionError::BadLink,
        SessionError::NotJson("x".into()),
        SessionError::WrongFormat,
        SessionError::UnsupportedVersion(9),
        SessionError::TooManyActions(9),
        SessionError::NoRoomForTime,
        SessionError::TooManySends(9),
        SessionError::TextTooLong { index: 0 },
        SessionError::Replay(ReplayError {
            index: 0,
            error: LabError::NothingToRetry,
        }),
    ]
}

/// Each text is not empty and unlike every other text of the list; in a
/// language other than English, it is not the English `Display` either.
fn record_errors() -> Vec<RecordError> {
    let template = |error| RecordError::Template {
        lang: Lang::Fa,
        piece: "narration",
        error,
    };
    vec![
        RecordError::NoNarration,
        RecordError::Languages {
            expected: vec![Lang::En, Lang::Fa],
        },
        template(TemplateError::Unbalanced),
        template(TemplateError::Digit('7')),
        template(TemplateError::NotANumber("store".into())),
        template(TemplateError::Fact(FactError::Missing(
            "balance:bob".into(),
        ))),
        template(TemplateError::Fact(FactError::Unknown("weather".into()))),
        RecordError::Template {
            lang: Lang::En,
            piece: "explanation",
            error: TemplateError::Unbalanced,
        },
        RecordError::Question("weather".into()),
        RecordError::NoQuestionText(Lang::Fa),
        RecordError::Unanswered {
            step: 2,
            fact: "outcome:last".into(),
        },
        RecordError::HistoryChanged,
        RecordError::TooManySteps,
        RecordError::NoSteps,
        RecordError::QuestionLast,
        RecordError::Scenario(TeacherError::NoLanguage),
        RecordError::Title {
            lang: Lang::Fa,
            error: FieldError::Invisible,
        },
    ]
}

fn check(texts: Vec<(String, String)>, english: bool, what: &str) {
    for (i, (said, display)) in texts.iter().enumerate() {
        assert!(!said.trim().is_empty(), "{what} {i}");
        assert!(english || said != display, "{what} {i}: in English");
        for (other, _) in &texts[i + 1..] {
            assert_ne!(said, other, "{what} {i}: said twice");
        }
    }
}

#[test]
fn every_refusal_is_said_by_the_pages_texts_in_each_language() {
    for lang in Lang::ALL {
        let t = lang.texts();
        check(
            lab_errors()
                .iter()
                .map(|e| (t.lab_error(e), e.to_string()))
                .collect(),
            lang == Lang::En,
            &format!("{lang:?} lab"),
        );
        check(
            grant_errors()
                .iter()
                .map(|e| (t.grant_error(e), e.to_string()))
                .collect(),
            lang == Lang::En,
            &format!("{lang:?} grant"),
        );
        check(
            session_errors()
                .iter()
                .map(|e| (t.session_error(e), e.to_string()))
                .collect(),
            lang == Lang::En,
            &format!("{lang:?} session"),
        );
        check(
            record_errors()
                .iter()
                .map(|e| (t.teacher.record_error(e), e.to_string()))
                .collect(),
            lang == Lang::En,
            &format!("{lang:?} recorder"),
        );
    }
    // What a refusal names is in it: the step, the fact, the digit, the language.
    let said = |lang: Lang, i: usize| lang.texts().teacher.record_error(&record_errors()[i]);
    assert!(said(Lang::En, 3).contains("“7”"), "{}", said(Lang::En, 3));
    assert!(
        said(Lang::En, 3).starts_with("Persian narration"),
        "{}",
        said(Lang::En, 3)
    );
    assert!(
        said(Lang::Fa, 5).contains("«balance:bob»"),
        "{}",
        said(Lang::Fa, 5)
    );
    assert!(
        said(Lang::En, 10).contains("Step 2 asks about “outcome:last”"),
        "{}",
        said(Lang::En, 10)
    );
    assert!(
        said(Lang::Fa, 10).contains("گام ۲"),
        "{}",
        said(Lang::Fa, 10)
    );
    assert!(
        said(Lang::En, 12).contains("at most 40 steps"),
        "{}",
        said(Lang::En, 12)
    );
    // A scenario's refusal inside is said in the page's language too.
    assert!(
        said(Lang::Fa, 15).contains("سناریو به هیچ زبانی متنی ندارد"),
        "{}",
        said(Lang::Fa, 15)
    );
    assert!(
        said(Lang::En, 15).contains("no words in any language"),
        "{}",
        said(Lang::En, 15)
    );
}

fn teacher_errors() -> Vec<TeacherError> {
    let piece = |step| Piece {
        lang: Lang::Fa,
        step,
        field: "narration".into(),
    };
    vec![
        TeacherError::TooLarge {
            bytes: 70_000,
            limit: 65_536,
        },
        TeacherError::Parse(ReadError::NotJson("EOF".into())),
        TeacherError::Parse(ReadError::BadField {
            path: "version".into(),
            problem: Box::new(FieldProblem::Unreadable),
        }),
        TeacherError::Format("x".into()),
        TeacherError::Version(2),
        TeacherError::Scenarios(2),
        TeacherError::Id("s1".into()),
        TeacherError::TooManySteps(41),
        TeacherError::NoLanguage,
        TeacherError::Language("xx".into()),
        TeacherError::Code,
        TeacherError::TooLong {
            piece: piece(Some(1)),
            chars: 3_000,
        },
        TeacherError::Markup(piece(None)),
        TeacherError::Content(Some(Lang::En), ContentError::NoSteps("teacher".into())),
    ]
}

fn content_errors() -> Vec<ContentError> {
    let s = || "s1".to_string();
    vec![
        ContentError::Parse {
            file: "en.json".into(),
            error: ReadError::NotJson("EOF".into()),
        },
        ContentError::ScenarioId {
            found: "s2".into(),
            expected: s(),
        },
        ContentError::NoSteps(s()),
        ContentError::Language {
            found: "fa".into(),
            expected: "en".into(),
        },
        ContentError::MissingScenario(s()),
        ContentError::ExtraScenario(s()),
        ContentError::StepCount {
            scenario: s(),
            script: 3,
            text: 2,
        },
        ContentError::MissingText {
            scenario: s(),
            step: Some(1),
            piece: "hint",
        },
        ContentError::MissingText {
            scenario: s(),
            step: None,
            piece: "title",
        },
        ContentError::ExtraText {
            scenario: s(),
            step: 1,
            piece: "explain".into(),
        },
        ContentError::Code {
            scenario: s(),
            id: "worker".into(),
        },
        ContentError::NoChallenge(s()),
        ContentError::HandWritten {
            scenario: s(),
            step: Some(2),
            piece: "hint",
        },
        ContentError::HandWritten {
            scenario: s(),
            step: None,
            piece: "title",
        },
        ContentError::QuestionOnLastStep(s()),
        ContentError::NoPremise {
            scenario: s(),
            step: 1,
        },
        ContentError::NotInPremise {
            scenario: s(),
            step: 1,
            fact: "balance:alice".into(),
        },
        ContentError::ReadsAnswer {
            scenario: s(),
            step: 1,
            fact: "balance:alice".into(),
        },
        ContentError::Fact {
            scenario: s(),
            error: FactError::NotDrawn("weather".into()),
        },
        ContentError::Refused {
            scenario: s(),
            step: 1,
            error: LabError::WaitLength(0),
        },
        ContentError::Template {
            scenario: s(),
            step: 1,
            error: TemplateError::Digit('7'),
        },
    ]
}

/// A teacher's file, a `#teach=` link, a list of scenarios and the course's
/// files are refused in the page's words too, each case its own sentence.
#[test]
fn every_file_and_link_refusal_is_said_by_the_pages_texts_in_each_language() {
    for lang in Lang::ALL {
        let t = lang.texts();
        let english = lang == Lang::En;
        let teacher = teacher_errors();
        let mut said: Vec<(String, String)> = teacher
            .iter()
            .map(|e| (t.teacher_error(e), e.to_string()))
            .collect();
        said.extend(
            [
                LinkError::TooLong { chars: 12_001 },
                LinkError::Damaged,
                LinkError::Unpacks,
            ]
            .iter()
            .map(|e| (t.link_error(e), e.to_string())),
        );
        said.extend(
            [
                ShelfError::Full,
                ShelfError::Scenario(Some(2), TeacherError::Code),
            ]
            .iter()
            .map(|e| (t.shelf_error(e), e.to_string())),
        );
        check(said, english, &format!("{lang:?} teacher"));
        check(
            content_errors()
                .iter()
                .map(|e| (t.content_error(e), e.to_string()))
                .collect(),
            english,
            &format!("{lang:?} content"),
        );
    }
}
