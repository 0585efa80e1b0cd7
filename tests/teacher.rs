//! A teacher's own scenario: recorded from a sandbox, checked whole as a file
//! and as a link, played and told from the world like the course's, and
//! refused whole, with its reason, when anything in it is wrong.

use std::collections::BTreeMap;

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Action, FieldProblem, Lab, ReadError, Setting};
use idempotency_lab::walkthrough::{
    from_link, handout_of, offered, play_to, reveal_in, to_link, Answer, ContentError, LinkError,
    QuestionDraft, RecordError, Recording, StepDraft, TeacherError, TeacherScenario, Value,
    MAX_LINK_CHARS, MAX_TEACHER_BYTES,
};
use idempotency_lab::GrantPoints;

fn send(lab: &mut Lab, key: &str, lose: bool) {
    lab.dispatch(Action::Send {
        grant: GrantPoints::new(key, "alice", 100),
        lose_acknowledgement: lose,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
}

fn words(pairs: &[(Lang, &str)]) -> BTreeMap<Lang, String> {
    pairs.iter().map(|(l, t)| (*l, t.to_string())).collect()
}

fn said(en: &str, fa: &str) -> StepDraft {
    StepDraft {
        narration: words(&[(Lang::En, en), (Lang::Fa, fa)]),
        question: None,
    }
}

/// Two steps in both languages: a grant whose acknowledgement is lost, with a
/// question on the balance, then the retry that reveals it.
fn recorded() -> (Recording, Lab) {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    send(&mut lab, "order-1", true);
    let mut first = said(
        "Alice has {balance:alice} points; the answer was lost.",
        "آلیس {balance:alice} امتیاز دارد؛ پاسخ گم شد.",
    );
    first.question = Some(QuestionDraft {
        fact: "balance:alice".into(),
        text: words(&[
            (Lang::En, "After the retry, how many points?"),
            (Lang::Fa, "پس از تلاش دوباره، چند امتیاز؟"),
        ]),
        explain: words(&[(Lang::En, "Still {balance:alice}: the key was known.")]),
        // The page offers labels for a choice whatever is asked: a number keeps none.
        labels: BTreeMap::from([("yes".to_string(), words(&[(Lang::En, "Yes")]))]),
    });
    recording.mark(&lab, first).unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    recording
        .mark(
            &lab,
            said(
                "The retry got the first receipt: {balance:alice}.",
                "تلاش دوباره همان رسید را گرفت: {balance:alice}.",
            ),
        )
        .unwrap();
    (recording, lab)
}

fn titled() -> BTreeMap<Lang, String> {
    words(&[(Lang::En, "A lost answer"), (Lang::Fa, "پاسخ گم‌شده")])
}

#[test]
fn a_recorded_scenario_plays_from_a_new_lab_to_the_sandboxs_world_and_is_told_from_it() {
    let (recording, lab) = recorded();
    assert_eq!(recording.steps(), 2);
    assert_eq!(Recording::new().steps(), 0);
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    assert_eq!(scenario.languages(), vec![Lang::En, Lang::Fa]);
    let script = scenario.script();
    assert_eq!(script.steps.len(), 2);
    // Played from a new lab, the last step is the sandbox's world.
    let (_, played) = play_to(script, 1).unwrap();
    assert_eq!(played.history(), lab.history());
    // The question's answer is read from the world after the next step.
    assert!(matches!(
        &script.steps[0].question.as_ref().unwrap().answer,
        Answer::Number { fact } if fact == "balance:alice"
    ));
    let revealed = reveal_in(script, 0).unwrap().unwrap();
    assert_eq!(revealed.value, Value::Number(100));
    for lang in [Lang::En, Lang::Fa] {
        let (shown, text) = scenario.words(lang);
        assert_eq!(shown, lang);
        let paper = handout_of(script, text, |n| n.to_string()).unwrap();
        assert!(paper.steps[0].narration.contains("100"), "{paper:?}");
        assert_eq!(paper.steps[0].question.as_ref().unwrap().answer, "100");
    }
    // The English explanation is told; the Persian one was left out.
    let (_, en) = scenario.words(Lang::En);
    assert!(en.steps[0].explain.is_some());
    let (_, fa) = scenario.words(Lang::Fa);
    assert_eq!(fa.steps[0].explain, None);
}

#[test]
fn a_scenario_survives_its_file_and_its_link_unchanged() {
    let (recording, _) = recorded();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let file = scenario.to_json();
    assert!(file.contains("\"format\": \"idempotency-lab-scenario\""));
    assert!(file.contains("\"version\": 2"));
    assert_eq!(TeacherScenario::parse(&file).unwrap(), scenario);
    let token = to_link(&scenario).unwrap();
    assert!(token.len() < file.len(), "the link is packed");
    assert!(token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(from_link(&token).unwrap(), scenario);
}

#[test]
fn a_scenario_in_one_language_is_shown_in_it_whatever_the_page_speaks() {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    send(&mut lab, "k", false);
    let only = |t: &str| StepDraft {
        narration: words(&[(Lang::Fa, t)]),
        question: None,
    };
    recording
        .mark(&lab, only("آلیس {balance:alice} دارد."))
        .unwrap();
    // A step in another language than the first is refused, and changes nothing.
    assert_eq!(
        recording.mark(&lab, said("Again.", "دوباره.")),
        Err(RecordError::Languages {
            expected: vec![Lang::Fa]
        })
    );
    assert_eq!(recording.steps(), 1);
    let scenario = recording
        .finish(&words(&[(Lang::Fa, "فقط فارسی")]), &BTreeMap::new())
        .unwrap();
    assert_eq!(scenario.languages(), vec![Lang::Fa]);
    assert_eq!(scenario.words(Lang::En).0, Lang::Fa);
    assert_eq!(scenario.title(Lang::En), "فقط فارسی");
}

#[test]
fn a_refused_mark_says_why_and_records_nothing() {
    let mut lab = Lab::new();
    send(&mut lab, "k", false);
    let mut recording = Recording::new();
    let refused = |recording: &mut Recording, lab: &Lab, draft: StepDraft| {
        let before = recording.clone();
        let error = recording.mark(lab, draft).unwrap_err();
        assert_eq!(*recording, before, "{error}");
        error
    };
    assert_eq!(
        refused(&mut recording, &lab, said(" ", "")),
        RecordError::NoNarration
    );
    let error = refused(&mut recording, &lab, said("Alice has {balance:bob}.", "x"));
    assert!(
        error.to_string().contains("balance:bob"),
        "an account nobody sent to: {error}"
    );
    let error = refused(&mut recording, &lab, said("Alice has 100 points.", "x"));
    assert!(error.to_string().contains("digit"), "{error}");
    let error = refused(&mut recording, &lab, said("{no-such-fact}", "x"));
    assert!(error.to_string().contains("no-such-fact"), "{error}");
    let mut asked = said("Ready.", "آماده.");
    asked.question = Some(QuestionDraft {
        fact: "holds:at-most-once".into(),
        text: words(&[(Lang::En, "Does it hold?")]),
        ..QuestionDraft::default()
    });
    assert_eq!(
        refused(&mut recording, &lab, asked),
        RecordError::NoQuestionText(Lang::Fa)
    );
    let mut asked = said("Ready.", "آماده.");
    asked.question = Some(QuestionDraft {
        fact: "weather".into(),
        ..QuestionDraft::default()
    });
    assert_eq!(
        refused(&mut recording, &lab, asked),
        RecordError::Question("weather".into())
    );
    // Nothing to undo or finish yet.
    assert_eq!(recording.undo(), Err(RecordError::NoSteps));
    assert!(matches!(
        recording.finish(&titled(), &BTreeMap::new()),
        Err(RecordError::NoSteps)
    ));
}

#[test]
fn a_question_is_answered_at_the_next_mark_or_that_mark_is_refused() {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    let mut asked = said("Nothing yet.", "هنوز هیچ.");
    asked.question = Some(QuestionDraft {
        fact: "receipt-balance:last".into(),
        text: words(&[
            (Lang::En, "What will the receipt say?"),
            (Lang::Fa, "رسید؟"),
        ]),
        ..QuestionDraft::default()
    });
    recording.mark(&lab, asked).unwrap();
    // Finishing now would ask what nothing reveals.
    assert_eq!(
        recording.finish(&titled(), &BTreeMap::new()),
        Err(RecordError::QuestionLast)
    );
    // A preview leaves that question out, and names the scenario for now.
    let preview = recording
        .preview(&BTreeMap::new(), |l| format!("untitled {}", l.tag()))
        .unwrap();
    assert_eq!(preview.script().steps[0].question, None);
    assert_eq!(preview.title(Lang::Fa), "untitled fa");
    // A title given is the preview's, in its language; a blank one is none.
    let given = words(&[(Lang::En, "Given"), (Lang::Fa, "  ")]);
    let preview = recording
        .preview(&given, |l| format!("untitled {}", l.tag()))
        .unwrap();
    assert_eq!(preview.title(Lang::En), "Given");
    assert_eq!(preview.title(Lang::Fa), "untitled fa");
    // No receipt yet: the next mark cannot reveal the answer.
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    let error = recording
        .mark(&lab, said("Waiting.", "منتظر."))
        .unwrap_err();
    assert_eq!(
        error,
        RecordError::Unanswered {
            step: 1,
            fact: "receipt-balance:last".into()
        }
    );
    assert_eq!(recording.steps(), 1);
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    send(&mut lab, "k", false);
    recording
        .mark(
            &lab,
            said("{receipt-balance:last}.", "{receipt-balance:last}."),
        )
        .unwrap();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let revealed = reveal_in(scenario.script(), 0).unwrap().unwrap();
    assert_eq!(revealed.value, Value::Number(100));
}

#[test]
fn a_promise_is_asked_as_yes_or_no_with_the_labels_given() {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    lab.dispatch(Action::Set(Setting::Naive(true))).unwrap();
    send(&mut lab, "k", true);
    let labels = |yes: &str, no: &str| {
        BTreeMap::from([
            ("yes".to_string(), words(&[(Lang::En, yes)])),
            ("no".to_string(), words(&[(Lang::En, no)])),
        ])
    };
    let draft = StepDraft {
        narration: words(&[(Lang::En, "Sent once.")]),
        question: Some(QuestionDraft {
            fact: "holds:at-most-once".into(),
            text: words(&[(Lang::En, "After a retry, does the promise hold?")]),
            explain: BTreeMap::new(),
            labels: labels("Yes", "No"),
        }),
    };
    recording.mark(&lab, draft).unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let step = StepDraft {
        narration: words(&[(Lang::En, "Retried.")]),
        question: None,
    };
    recording.mark(&lab, step).unwrap();
    let scenario = recording
        .finish(&words(&[(Lang::En, "Yes or no")]), &BTreeMap::new())
        .unwrap();
    let question = scenario.script().steps[0].question.as_ref().unwrap();
    assert!(matches!(
        &question.answer,
        Answer::Choice { choices, .. } if choices == &["yes", "no"]
    ));
    assert_eq!(scenario.words(Lang::En).1.steps[0].choices["no"], "No");
    // The main worker keeps its promise through the retry.
    let revealed = reveal_in(scenario.script(), 0).unwrap().unwrap();
    assert_eq!(revealed.value, Value::Code("yes".into()));
}

#[test]
fn undo_gives_a_marks_words_back_and_its_actions_to_the_next_step() {
    let (mut recording, lab) = recorded();
    let words_back = recording.undo().unwrap();
    assert!(words_back.narration[&Lang::En].starts_with("The retry got"));
    assert_eq!(recording.steps(), 1);
    // The retry is again what the next mark records.
    let pending = recording.pending(&lab).unwrap();
    assert!(
        matches!(pending.first(), Some(Action::RetrySame { .. })),
        "{pending:?}"
    );
    recording.mark(&lab, words_back).unwrap();
    assert_eq!(recording, recorded().0);
}

#[test]
fn time_that_runs_on_past_a_mark_belongs_to_the_next_step() {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    lab.dispatch(Action::Wait { ms: 300 }).unwrap();
    recording.mark(&lab, said("Waited.", "صبر.")).unwrap();
    // The lab keeps a run of waits as one; the step after the mark is its rest.
    lab.dispatch(Action::Wait { ms: 200 }).unwrap();
    assert_eq!(lab.history().actions, vec![Action::Wait { ms: 500 }]);
    assert_eq!(
        recording.pending(&lab).unwrap(),
        vec![Action::Wait { ms: 200 }]
    );
    recording.mark(&lab, said("More.", "بیشتر.")).unwrap();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let (_, played) = play_to(scenario.script(), 1).unwrap();
    assert_eq!(played.state().now(), lab.state().now());
}

#[test]
fn a_shorter_wait_where_a_marked_one_was_is_the_history_changed_not_time_gone_on() {
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    let grant = || Action::Send {
        grant: GrantPoints::new("k", "alice", 100),
        lose_acknowledgement: false,
    };
    lab.dispatch(grant()).unwrap();
    lab.dispatch(Action::Wait { ms: 500 }).unwrap();
    recording.mark(&lab, said("Waited.", "صبر.")).unwrap();
    // Undone and done again with less time: as long a history, a shorter wait.
    while !lab.history().actions.is_empty() {
        lab.undo().unwrap();
    }
    lab.dispatch(grant()).unwrap();
    lab.dispatch(Action::Wait { ms: 200 }).unwrap();
    assert_eq!(
        lab.history().actions,
        vec![grant(), Action::Wait { ms: 200 }]
    );
    assert_eq!(recording.pending(&lab), Err(RecordError::HistoryChanged));
}

#[test]
fn a_sandbox_that_went_back_before_a_mark_is_refused_until_the_mark_is_undone() {
    let (mut recording, mut lab) = recorded();
    lab.undo().unwrap();
    assert_eq!(recording.pending(&lab), Err(RecordError::HistoryChanged));
    let before = recording.clone();
    assert_eq!(
        recording.mark(&lab, said("x", "x")),
        Err(RecordError::HistoryChanged)
    );
    assert_eq!(recording, before);
    recording.undo().unwrap();
    assert!(recording.pending(&lab).is_ok());
}

#[test]
fn a_scenario_opened_again_resumes_its_recording_and_its_sandbox() {
    let (recording, lab) = recorded();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let shared = TeacherScenario::parse(&scenario.to_json()).unwrap();
    let (resumed, sandbox) = Recording::resume(&shared).unwrap();
    assert_eq!(resumed, recording);
    assert_eq!(sandbox.history(), lab.history());
    assert_eq!(
        resumed.finish(&titled(), &BTreeMap::new()).unwrap(),
        scenario
    );
}

#[test]
fn the_picker_offers_what_the_world_has_with_its_values() {
    let mut lab = Lab::new();
    assert!(!offered(&lab).iter().any(|(n, _)| n.starts_with("balance:")));
    send(&mut lab, "k", false);
    let facts: BTreeMap<_, _> = offered(&lab).into_iter().collect();
    assert_eq!(facts["balance:alice"], Value::Number(100));
    assert_eq!(facts["rows"], Value::Number(1));
    assert_eq!(facts["holds:at-most-once"], Value::Code("yes".into()));
    assert!(!facts.contains_key("read-balance"), "nothing read yet");
    assert!(
        !facts.contains_key("naive-balance:alice"),
        "no naive worker"
    );
}

/// A file to tamper with: the recorded scenario as JSON.
fn file_json() -> serde_json::Value {
    let (recording, _) = recorded();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    serde_json::from_str(&scenario.to_json()).unwrap()
}

fn refused(edit: impl Fn(&mut serde_json::Value)) -> TeacherError {
    let mut file = file_json();
    edit(&mut file);
    TeacherScenario::parse(&file.to_string()).unwrap_err()
}

#[test]
fn a_hostile_file_is_refused_whole_with_its_reason() {
    let narration = "/languages/en/scenarios/teacher/steps/0/narration";
    let set = |pointer: &'static str, value: serde_json::Value| {
        move |f: &mut serde_json::Value| *f.pointer_mut(pointer).unwrap() = value.clone()
    };
    let markup = refused(set(narration, "<img src=x onerror=alert(1)>".into()));
    assert!(
        matches!(markup, TeacherError::Markup(ref p) if p.to_string().contains("step 1's narration"))
    );
    let title = refused(set(
        "/languages/fa/scenarios/teacher/title",
        "<b>bold</b>".into(),
    ));
    assert!(
        matches!(title, TeacherError::Markup(ref p) if p.to_string().starts_with("fa: the title"))
    );
    let unknown = refused(set(narration, "{password}".into()));
    assert!(unknown.to_string().contains("password"), "{unknown}");
    let long = refused(set(narration, "a".repeat(3_000).into()));
    assert!(matches!(long, TeacherError::TooLong { chars: 3_000, .. }));
    let version = refused(set("/version", 3.into()));
    assert_eq!(version, TeacherError::Version(3));
    let format = refused(set("/format", "something-else".into()));
    assert!(matches!(format, TeacherError::Format(_)));
    let id = refused(set("/scripts/scenarios/0/id", "s1".into()));
    assert_eq!(id, TeacherError::Id("s1".into()));
    let language = refused(|f| {
        let en = f["languages"]["en"].clone();
        f["languages"]["xx"] = en;
    });
    assert_eq!(language, TeacherError::Language("xx".into()));
    let none = refused(|f| f["languages"] = serde_json::json!({}));
    assert_eq!(none, TeacherError::NoLanguage);
    // An action the lab refuses: a retry before anything was sent.
    let action = refused(|f| {
        f["scripts"]["scenarios"][0]["steps"][0]["actions"] =
            serde_json::json!([{"retry-same": {}}]);
    });
    assert!(
        matches!(
            action,
            TeacherError::Content(_, ContentError::Refused { step: 1, .. })
        ),
        "{action:?}"
    );
    let field = refused(|f| f["scripts"]["scenarios"][0]["steps"][0]["eval"] = "x".into());
    assert!(
        matches!(
            field,
            TeacherError::Parse(ReadError::BadField { ref problem, .. })
                if **problem == FieldProblem::UnknownField("eval".into())
        ),
        "{field:?}"
    );
    let code = refused(|f| f["scripts"]["scenarios"][0]["steps"][0]["code"] = "worker".into());
    assert_eq!(code, TeacherError::Code);
    let two = refused(|f| {
        let scenario = f["scripts"]["scenarios"][0].clone();
        f["scripts"]["scenarios"]
            .as_array_mut()
            .unwrap()
            .push(scenario);
    });
    assert_eq!(two, TeacherError::Scenarios(2));
    let steps = refused(|f| {
        let step = f["scripts"]["scenarios"][0]["steps"][1].clone();
        f["scripts"]["scenarios"][0]["steps"]
            .as_array_mut()
            .unwrap()
            .push(step);
    });
    assert!(matches!(
        steps,
        TeacherError::Content(Some(_), ContentError::StepCount { .. })
    ));
    let big = "x".repeat(MAX_TEACHER_BYTES + 1);
    assert!(matches!(
        TeacherScenario::parse(&big),
        Err(TeacherError::TooLarge { .. })
    ));
    let message = TeacherScenario::parse(&"x".repeat(10 << 20))
        .unwrap_err()
        .to_string();
    assert!(message.contains("10240 KB"), "{message}");
}

/// The acts on the picture are a teacher's too: an answer lost half way back
/// and a process crashed by hand are recorded, checked and played from the
/// file; one that names no answer on its way, or no process, is refused whole.
#[test]
fn a_scenario_may_lose_an_answer_in_flight_and_crash_a_process_by_hand() {
    let mut lab = Lab::new();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1", "alice", 100),
        lose_acknowledgement: false,
    })
    .unwrap();
    // Out for 400 ms, 100 ms of work, then half way back.
    lab.dispatch(Action::Wait { ms: 700 }).unwrap();
    lab.dispatch(Action::LoseAnswer { attempt: 1 }).unwrap();
    lab.dispatch(Action::CrashProcess { process: 1 }).unwrap();
    lab.skip_to_idle().unwrap();
    let mut recording = Recording::new();
    recording
        .mark(
            &lab,
            said(
                "Alice has {balance:alice} points, and no answer came.",
                "آلیس {balance:alice} امتیاز دارد و پاسخی نیامد.",
            ),
        )
        .unwrap();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let text = scenario.to_json();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let actions = &file["scripts"]["scenarios"][0]["steps"][0]["actions"];
    let names: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_object()?.keys().next().map(String::as_str))
        .collect();
    assert!(names.contains(&"lose-answer"), "{names:?}");
    assert!(names.contains(&"crash-process"), "{names:?}");
    let read = TeacherScenario::parse(&text).expect("the file is accepted");
    let (_, played) = play_to(read.script(), 0).unwrap();
    assert_eq!(
        *played.state().world().events(),
        *lab.state().world().events(),
        "the file plays the sandbox's world again"
    );
    assert_eq!(
        played.state().process_number(),
        2,
        "a new process took over"
    );
    let rewrite = |from: &str, to: &str| {
        let mut changed = file.clone();
        for action in changed["scripts"]["scenarios"][0]["steps"][0]["actions"]
            .as_array_mut()
            .unwrap()
        {
            if let Some(inner) = action.get_mut(from) {
                *inner = serde_json::from_str(to).unwrap();
            }
        }
        TeacherScenario::parse(&changed.to_string()).unwrap_err()
    };
    for refused in [
        rewrite("lose-answer", r#"{"attempt": 9}"#),
        rewrite("crash-process", r#"{"process": 7}"#),
    ] {
        assert!(
            matches!(
                refused,
                TeacherError::Content(_, ContentError::Refused { step: 1, .. })
            ),
            "{refused:?}"
        );
    }
}

#[test]
fn a_damaged_or_oversized_link_is_refused_whole() {
    let (recording, _) = recorded();
    let token = to_link(&recording.finish(&titled(), &BTreeMap::new()).unwrap()).unwrap();
    assert_eq!(
        from_link(&token[..token.len() / 2]),
        Err(LinkError::Damaged)
    );
    assert_eq!(from_link("not base64 at all!"), Err(LinkError::Damaged));
    // A token of the most characters is read (this one is no scenario).
    assert_eq!(
        from_link(&"A".repeat(MAX_LINK_CHARS)),
        Err(LinkError::Damaged)
    );
    assert_eq!(
        from_link(&"A".repeat(MAX_LINK_CHARS + 1)),
        Err(LinkError::TooLong {
            chars: MAX_LINK_CHARS + 1
        })
    );
    // A small link that would unpack to far more than a file may hold.
    use base64::Engine;
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 4 << 20], 9);
    let bomb = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb);
    assert!(bomb.len() <= MAX_LINK_CHARS, "{}", bomb.len());
    assert_eq!(from_link(&bomb), Err(LinkError::Unpacks));
    // A well-packed link whose scenario is refused says why.
    let packed = |json: &str| {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
    };
    let mut file = file_json();
    file["version"] = 9.into();
    assert_eq!(
        from_link(&packed(&file.to_string())),
        Err(LinkError::Scenario(TeacherError::Version(9)))
    );
}

#[test]
fn the_list_keeps_each_scenario_once_and_reads_back_what_it_wrote() {
    use idempotency_lab::walkthrough::{read_scenarios, Shelf, ShelfError, MAX_SHELF};
    let (recording, _) = recorded();
    let first = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let other = recording
        .finish(
            &words(&[(Lang::En, "Another"), (Lang::Fa, "دیگری")]),
            &BTreeMap::new(),
        )
        .unwrap();
    let mut shelf = Shelf::default();
    assert_eq!(shelf.add(first.clone()), Ok(0));
    assert_eq!(shelf.add(other.clone()), Ok(1));
    assert_eq!(shelf.add(first.clone()), Ok(0), "the same scenario once");
    let json = shelf.to_json();
    assert_eq!(Shelf::from_kept(&json), (shelf.clone(), 0));
    // An exported list opens as its scenarios; a single file as itself.
    assert_eq!(
        read_scenarios(&json).unwrap(),
        vec![first.clone(), other.clone()]
    );
    assert_eq!(
        read_scenarios(&first.to_json()).unwrap(),
        vec![first.clone()]
    );
    // One bad scenario refuses the list whole, naming it.
    let mut list: serde_json::Value = serde_json::from_str(&json).unwrap();
    list["scenarios"][1]["version"] = 7.into();
    let refused = read_scenarios(&list.to_string()).unwrap_err();
    assert_eq!(
        refused,
        ShelfError::Scenario(Some(2), TeacherError::Version(7))
    );
    assert_eq!(
        refused.to_string(),
        "scenario 2: the file is version 7; this lab reads version 2"
    );
    // What the browser kept and this lab cannot read is left out and counted.
    assert_eq!(
        Shelf::from_kept(&list.to_string()).0.scenarios(),
        std::slice::from_ref(&first)
    );
    assert_eq!(Shelf::from_kept(&list.to_string()).1, 1);
    assert_eq!(Shelf::from_kept("garbage").1, 1);
    assert_eq!(Shelf::from_kept("").1, 0);
    // Editing puts the scenario back in its place; the list has a limit.
    assert_eq!(shelf.replace(0, other.clone()), Ok(0));
    assert_eq!(shelf.scenarios(), &[other.clone(), other.clone()]);
    assert_eq!(shelf.remove(1), Some(other.clone()));
    assert_eq!(shelf.remove(5), None);
    for n in 1..MAX_SHELF {
        let title = words(&[(Lang::En, &"x".repeat(n)), (Lang::Fa, "ی")]);
        shelf
            .add(recording.finish(&title, &BTreeMap::new()).unwrap())
            .unwrap();
    }
    assert_eq!(shelf.add(first), Err(ShelfError::Full));
    assert_eq!(shelf.scenarios().len(), MAX_SHELF);
    assert!(ShelfError::Full
        .to_string()
        .contains("50 scenarios are kept already"));
    // A full list is far larger than one scenario may be, and reads back whole.
    let full = shelf.to_json();
    assert!(full.len() > idempotency_lab::walkthrough::MAX_TEACHER_BYTES);
    assert_eq!(read_scenarios(&full).unwrap(), shelf.scenarios());
}

#[test]
fn the_limits_hold_at_their_edges() {
    use idempotency_lab::walkthrough::{read_scenarios, ShelfError, MAX_SHELF};
    use idempotency_lab::walkthrough::{MAX_TEACHER_STEPS, SHELF_FORMAT};
    let file = file_json();
    // A file of exactly the largest size is read; a byte more is not.
    let text = file.to_string();
    let padded = |len: usize| format!("{text}{}", " ".repeat(len - text.len()));
    assert!(TeacherScenario::parse(&padded(MAX_TEACHER_BYTES)).is_ok());
    assert!(matches!(
        TeacherScenario::parse(&padded(MAX_TEACHER_BYTES + 1)),
        Err(TeacherError::TooLarge { .. })
    ));
    // As many steps as a scenario may have, and one more.
    let with_steps = |n: usize| {
        let mut f = file.clone();
        let step = f["scripts"]["scenarios"][0]["steps"][1].clone();
        let steps = f["scripts"]["scenarios"][0]["steps"]
            .as_array_mut()
            .unwrap();
        steps.resize(n, step);
        for lang in ["en", "fa"] {
            let words = &mut f["languages"][lang]["scenarios"]["teacher"]["steps"];
            let last = words[1].clone();
            words.as_array_mut().unwrap().resize(n, last);
        }
        TeacherScenario::parse(&f.to_string())
    };
    assert!(with_steps(MAX_TEACHER_STEPS).is_ok());
    assert_eq!(
        with_steps(MAX_TEACHER_STEPS + 1),
        Err(TeacherError::TooManySteps(MAX_TEACHER_STEPS + 1))
    );
    // A list of as many scenarios as are kept, and one more.
    let list = |n: usize| {
        serde_json::json!({
            "format": SHELF_FORMAT,
            "version": 1,
            "scenarios": vec![file.clone(); n],
        })
        .to_string()
    };
    assert_eq!(read_scenarios(&list(MAX_SHELF)).unwrap().len(), MAX_SHELF);
    assert_eq!(read_scenarios(&list(MAX_SHELF + 1)), Err(ShelfError::Full));
    // A list far past what any list may be is refused before it is read as one.
    let huge = format!("{}{}", list(1), " ".repeat(MAX_SHELF * MAX_TEACHER_BYTES));
    assert!(matches!(
        read_scenarios(&huge),
        Err(ShelfError::Scenario(None, TeacherError::TooLarge { .. }))
    ));
}

#[test]
fn a_scenario_too_long_for_a_link_says_so_and_its_file_still_carries_it() {
    use idempotency_lab::walkthrough::MAX_PIECE_CHARS;
    let mut file = file_json();
    // Words that do not pack: letters in no pattern.
    let mut rng = fastrand::Rng::with_seed(7);
    let mut noise = |n: usize| -> String { (0..n).map(|_| rng.lowercase()).collect() };
    for lang in ["en", "fa"] {
        for step in 0..2 {
            let narration =
                &mut file["languages"][lang]["scenarios"]["teacher"]["steps"][step]["narration"];
            *narration = noise(MAX_PIECE_CHARS).into();
        }
        file["languages"][lang]["scenarios"]["teacher"]["challenge"] =
            noise(MAX_PIECE_CHARS).into();
        file["languages"][lang]["scenarios"]["teacher"]["hint"] = noise(MAX_PIECE_CHARS).into();
        file["languages"][lang]["scenarios"]["teacher"]["challenge_met"] =
            noise(MAX_PIECE_CHARS).into();
    }
    let scenario =
        TeacherScenario::parse(&file.to_string()).expect("a piece of the most characters is read");
    let error = to_link(&scenario).unwrap_err();
    let LinkError::TooLong { chars } = error else {
        panic!("{error:?}");
    };
    assert!(chars > MAX_LINK_CHARS, "{chars}");
    assert_eq!(
        error.to_string(),
        format!("the link's scenario is {chars} characters; a link holds at most 12000")
    );
    assert_eq!(
        TeacherScenario::parse(&scenario.to_json()).unwrap(),
        scenario
    );
    // One character more in a piece is refused.
    file["languages"]["en"]["scenarios"]["teacher"]["hint"] = noise(MAX_PIECE_CHARS + 1).into();
    assert!(matches!(
        TeacherScenario::parse(&file.to_string()),
        Err(TeacherError::TooLong { chars, .. }) if chars == MAX_PIECE_CHARS + 1
    ));
    // Each refusal of a link says what it is.
    assert_eq!(
        LinkError::Damaged.to_string(),
        "the link is damaged: it may have been cut short"
    );
    assert!(LinkError::Unpacks.to_string().contains("more than 64 KB"));
}

#[test]
fn a_version_1_file_opens_with_a_transit_of_0_set_first() {
    let (recording, _) = recorded();
    let scenario = recording.finish(&titled(), &BTreeMap::new()).unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&scenario.to_json()).unwrap();
    file["version"] = 1.into();
    let opened = TeacherScenario::parse(&file.to_string()).unwrap();
    let again: serde_json::Value = serde_json::from_str(&opened.to_json()).unwrap();
    assert_eq!(again["version"], 2);
    assert_eq!(
        again["scripts"]["scenarios"][0]["steps"][0]["actions"][0],
        serde_json::json!({"set": {"transit-ms": 0}})
    );
    assert_eq!(
        again["scripts"]["scenarios"][0]["steps"][0]["actions"][1],
        file["scripts"]["scenarios"][0]["steps"][0]["actions"][0]
    );
}
