#![cfg(not(target_arch = "wasm32"))]
//! Every question has its premise on the screen before it is asked: each fact
//! its answer needs (`premise` in `walkthrough/scenarios.json`) is stated by
//! the narration of its step or an earlier one of the section, marked on the
//! stage at or before its step, or read into the question's own text. In both
//! languages, for every section. And a question's text reads only the facts of
//! its premise, never its answer's, from the world after the next step.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::Lab;
use idempotency_lab::walkthrough::{
    handout, placeholders, question_text, question_text_in, reveal, Content, ContentError, Fact,
    RowRef, TeacherError, TeacherScenario, Tour,
};

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");

fn language_file(lang: Lang) -> &'static str {
    let path = format!(
        "{}/walkthrough/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        lang.tag()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Box::leak(text.into_boxed_str())
}

fn content(lang: Lang) -> Content {
    Content::parse(SCRIPTS, language_file(lang), lang.tag())
        .unwrap_or_else(|e| panic!("{}: {e}", lang.tag()))
}

fn number(lang: Lang) -> impl Fn(i64) -> String {
    move |n| lang.number(n)
}

/// The attempt a row fact reads in `lab`, if it reads a row the lab has.
fn row_of(at: RowRef, lab: &Lab) -> Option<u64> {
    let rows = lab.state().timeline();
    at.index(rows.len()).map(|i| rows[i].attempt.id)
}

/// Every premise fact of every question in `content` that is not on the
/// screen when its question is asked, as `s5 step 1: ...`.
///
/// A fact counts as shown when the question's own text reads it, or when the
/// narration of its step or an earlier one of the section names it as a
/// placeholder, or that step marks it on the stage (a mark names a fact). A
/// fact that reads a row (`points:last`) counts only where it read the very
/// row it reads when the question is asked: `last` then was another attempt.
fn unseen(content: &Content) -> Vec<String> {
    let mut found = Vec::new();
    for (i, script) in content.scripts.scenarios.iter().enumerate() {
        let text = &content.text.scenarios[&script.id];
        let labs: Vec<Lab> = (0..script.steps.len())
            .map(|n| Tour::open(&content.scripts, i, n).unwrap().lab)
            .collect();
        for (n, step) in script.steps.iter().enumerate() {
            let Some(question) = &step.question else {
                continue;
            };
            let asked = text.steps[n].question.as_deref().unwrap_or_default();
            let same = |a: &str, b: &str| {
                Fact::parse(a).is_ok_and(|a| Fact::parse(b).is_ok_and(|b| a == b))
            };
            for name in question.premise() {
                let fact = Fact::parse(name).unwrap();
                let in_question = placeholders(asked).unwrap().iter().any(|p| same(p, name));
                // Shown at step k: named by its narration or its marks, and,
                // for a row, the same row as at the question's step.
                let shown_at = |k: usize| {
                    let named = placeholders(&text.steps[k].narration)
                        .unwrap()
                        .iter()
                        .any(|p| same(p, name))
                        || script.steps[k].marks.iter().any(|m| same(m, name));
                    let same_row = fact.row().is_none_or(|at| {
                        let then = row_of(at, &labs[k]);
                        then.is_some() && then == row_of(at, &labs[n])
                    });
                    named && same_row
                };
                if !in_question && !(0..=n).any(shown_at) {
                    found.push(format!(
                        "{} {} step {}: the premise `{name}` is not on the screen when the \
                         question is asked (named by no narration up to this step, marked by \
                         no step up to it, not read into the question)",
                        content.text.language,
                        script.id,
                        n + 1
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn every_question_has_its_premise_on_the_screen_before_it_is_asked() {
    let mut found = Vec::new();
    let mut premises = 0;
    for lang in Lang::ALL {
        let content = content(lang);
        assert_eq!(content.scripts.scenarios.len(), 11, "every section");
        found.extend(unseen(&content));
        premises += content
            .scripts
            .scenarios
            .iter()
            .flat_map(|s| &s.steps)
            .filter_map(|s| s.question.as_ref())
            .map(|q| q.premise().len())
            .sum::<usize>();
    }
    assert!(found.is_empty(), "\n{}", found.join("\n"));
    assert!(premises >= 2 * 11, "only {premises} premise facts");
}

/// The check finds a premise the screen does not show: the crowd's size
/// taken out of the s5 question, the grant's points out of the s8 one, and a
/// row that was another attempt when it was shown.
#[test]
fn a_premise_not_on_the_screen_is_found() {
    let mut content = content(Lang::En);
    assert!(unseen(&content).is_empty());
    let s5 = &mut content.text.scenarios.get_mut("s5").unwrap().steps[0];
    s5.question = Some("How many callers will wait for room?".into());
    let s8 = &mut content.text.scenarios.get_mut("s8").unwrap().steps[4];
    s8.question = Some("What will Carol's balance be?".into());
    let found = unseen(&content);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("en s5 step 1: the premise `burst-size`"));
    assert!(found[1].starts_with("en s8 step 5: the premise `points:last`"));
    // s4 step 4 names `points:last`, Alice's second purchase; at step 5 the
    // last row is Bob's grant: a premise `points:last` there is not shown.
    let asking_points_at = |step: usize| {
        let mut content = self::content(Lang::En);
        let s4 = &mut content.scripts.scenarios[3];
        let mut question = s4.steps[0].question.clone().unwrap();
        question.premise = Some(vec!["points:last".into()]);
        s4.steps[step].question = Some(question);
        content
    };
    assert!(
        unseen(&asking_points_at(3)).is_empty(),
        "the same row, named at step 4"
    );
    let found = unseen(&asking_points_at(4));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with("en s4 step 5: the premise `points:last`"));
}

/// A question's text is told from the world after the next step, in the
/// language's digits: the crowd about to call in s5, the grant about to be
/// sent in s8; a step that asks nothing has no question.
#[test]
fn a_question_states_its_premise_from_the_world_after_the_next_step() {
    let ask = |lang: Lang, section: usize, step: usize| {
        let content = content(lang);
        let (script, text) = content.scenario(section).unwrap();
        question_text(script, text, step, number(lang)).unwrap()
    };
    let s5 = ask(Lang::En, 4, 0).unwrap();
    assert!(s5.contains("20"), "{s5}");
    let s5 = ask(Lang::Fa, 4, 0).unwrap();
    assert!(s5.contains("۲۰"), "{s5}");
    let s8 = ask(Lang::En, 7, 4).unwrap();
    assert!(s8.contains("10"), "{s8}");
    assert!(ask(Lang::Fa, 7, 4).unwrap().contains("۱۰"));
    assert_eq!(ask(Lang::En, 4, 1), None);
    // Without a placeholder, the text as written.
    let content = content(Lang::En);
    let (script, text) = content.scenario(3).unwrap();
    assert_eq!(
        question_text(script, text, 1, number(Lang::En)).unwrap(),
        text.steps[1].question
    );
    // From a world at hand: the one the answer was read from.
    let revealed = reveal(&content.scripts, 4, 0).unwrap().unwrap();
    let (script, text) = content.scenario(4).unwrap();
    assert_eq!(
        question_text_in(script, text, 0, revealed.lab.state(), number(Lang::En)).unwrap(),
        Some(ask(Lang::En, 4, 0).unwrap())
    );
    // The handout prints the question as the player asks it.
    let paper = handout(&content, 7, number(Lang::En)).unwrap();
    assert_eq!(
        paper.steps[4].question.as_ref().unwrap().text,
        ask(Lang::En, 7, 4).unwrap()
    );
}

fn with_question(section: &str, step: usize, words: &str) -> Result<Content, ContentError> {
    let mut file: serde_json::Value = serde_json::from_str(language_file(Lang::En)).unwrap();
    file["scenarios"][section]["steps"][step]["question"] = words.into();
    Content::parse(SCRIPTS, &file.to_string(), "en")
}

fn with_script(edit: impl FnOnce(&mut serde_json::Value)) -> Result<Content, ContentError> {
    let mut scripts: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
    edit(&mut scripts);
    Content::parse(&scripts.to_string(), language_file(Lang::En), "en")
}

/// A question reads only the facts of its premise, never its answer's, and
/// writes no number by hand; every course question names its premise.
#[test]
fn a_question_reads_only_its_premise() {
    // s5 step 1's premise is the queue's capacity and the crowd's size.
    assert!(with_question("s5", 0, "{queue-capacity} and {burst-size}?").is_ok());
    assert_eq!(
        with_question("s5", 0, "{queue-capacity} and {waiting-for-room}?").unwrap_err(),
        ContentError::ReadsAnswer {
            scenario: "s5".into(),
            step: 1,
            fact: "waiting-for-room".into()
        }
    );
    assert_eq!(
        with_question("s5", 0, "How many of {queued}?").unwrap_err(),
        ContentError::NotInPremise {
            scenario: "s5".into(),
            step: 1,
            fact: "queued".into()
        }
    );
    // s4 step 1 names Alice's balance as its premise, which is also its
    // answer's fact: the narration states it before; the question may not.
    assert!(matches!(
        with_question("s4", 0, "From {balance:alice}?"),
        Err(ContentError::ReadsAnswer { step: 1, .. })
    ));
    assert_eq!(
        with_question("s5", 0, "A crowd of 20?").unwrap_err(),
        ContentError::HandWritten {
            scenario: "s5".into(),
            step: Some(1),
            piece: "question"
        }
    );
    assert!(matches!(
        with_question("s5", 0, "A crowd of {burst-size?"),
        Err(ContentError::Template { step: 1, .. })
    ));
    assert!(matches!(
        with_question("s5", 0, "A crowd of {crowd}?"),
        Err(ContentError::Fact { .. })
    ));
    let e = with_question("s5", 0, "How many of {queued}?").unwrap_err();
    assert_eq!(
        e.to_string(),
        "s5 step 1: the question reads `queued`, which its premise does not name"
    );
    // Every course question names its premise, if only as none.
    let e = with_script(|s| {
        s["scenarios"][4]["steps"][0]["question"]
            .as_object_mut()
            .unwrap()
            .remove("premise");
    })
    .unwrap_err();
    assert_eq!(
        e,
        ContentError::NoPremise {
            scenario: "s5".into(),
            step: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "s5 step 1: the question names no premise (the facts its answer needs)"
    );
    assert!(matches!(
        with_script(
            |s| s["scenarios"][4]["steps"][0]["question"]["premise"] = serde_json::json!(["luck"])
        ),
        Err(ContentError::Fact { .. })
    ));
}

/// A teacher's question may leave its premise out; then its words read no
/// fact at all, as before.
#[test]
fn a_teachers_question_without_a_premise_reads_no_fact() {
    let file = |question: &str, premise: Option<&[&str]>| {
        let mut q = serde_json::json!({ "answer": { "number": { "fact": "balance:alice" } } });
        if let Some(premise) = premise {
            q["premise"] = serde_json::json!(premise);
        }
        serde_json::json!({
            "format": "idempotency-lab-scenario",
            "version": 1,
            "scripts": { "scenarios": [{
                "id": "teacher",
                "steps": [
                    { "actions": [{ "send": { "grant": { "key": "k", "account_id": "alice", "points": 100 }, "lose_acknowledgement": false } }], "idle": true, "question": q },
                    { "actions": [{ "retry-fresh": {} }], "idle": true }
                ],
                "challenge": [],
                "solution": []
            }] },
            "languages": { "en": { "language": "en", "scenarios": { "teacher": {
                "title": "Mine",
                "steps": [
                    { "narration": "Alice has {balance:alice}.", "question": question },
                    { "narration": "Now {balance:alice}." }
                ],
                "challenge": "", "hint": "", "challenge_met": ""
            } } } }
        })
        .to_string()
    };
    assert!(TeacherScenario::parse(&file("And after a fresh retry?", None)).is_ok());
    assert!(matches!(
        TeacherScenario::parse(&file("Sent {points:last} again?", None)),
        Err(TeacherError::Content(_, ContentError::NotInPremise { .. }))
    ));
    let scenario =
        TeacherScenario::parse(&file("Sent {points:last} again?", Some(&["points:last"]))).unwrap();
    let (_, words) = scenario.words(Lang::En);
    assert_eq!(
        question_text(scenario.script(), words, 0, number(Lang::En)).unwrap(),
        Some("Sent 100 again?".into())
    );
    // A file without premises is written back without one.
    let plain = TeacherScenario::parse(&file("And after a fresh retry?", None)).unwrap();
    assert!(!plain.to_json().contains("premise"));
}

/// A question the course's files cannot tell is refused, naming its step from one.
#[test]
fn a_question_without_its_words_or_with_an_unreadable_fact_names_its_step() {
    let content = content(Lang::En);
    let (index, script) = content
        .scripts
        .scenarios
        .iter()
        .enumerate()
        .find(|(_, s)| s.steps.iter().any(|step| step.question.is_some()))
        .unwrap();
    let n = script
        .steps
        .iter()
        .position(|s| s.question.is_some())
        .unwrap();
    let lab = Tour::open(&content.scripts, index, n + 1).unwrap().lab;
    let mut words = content.text.scenarios[&script.id].clone();
    words.steps[n].question = None;
    match question_text_in(script, &words, n, lab.state(), number(Lang::En)) {
        Err(ContentError::MissingText { step, .. }) => assert_eq!(step, Some(n + 1)),
        other => panic!("{other:?}"),
    }
    // A row no world at that step has.
    words.steps[n].question = Some("How much did {points:99} add?".into());
    let mut script = script.clone();
    if let Some(q) = script.steps[n].question.as_mut() {
        q.premise = Some(vec!["points:99".into()]);
    }
    match question_text_in(&script, &words, n, lab.state(), number(Lang::En)) {
        Err(ContentError::Template { step, .. }) => assert_eq!(step, n + 1),
        other => panic!("{other:?}"),
    }
}
