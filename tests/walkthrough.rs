//! The walkthrough's files run on the real lab: every scenario to its end, every
//! number its narration states read from the world, in both languages, and a
//! step reached by going back identical to the same step reached going forward.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{to_json, Action, FieldError, Lab, Setting};
use idempotency_lab::sim::StoreKind;
use idempotency_lab::walkthrough::{
    advance, answer, handout, has_time, judge, met, ops, question_text, render, reveal, run_step,
    Answer, Content, ContentError, Fact, FactError, Op, RowRef, TemplateError, Tour, Value,
};
use idempotency_lab::GrantPoints;

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");

/// The narration file of `lang`, as the page fetches it (every language of the list).
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

/// What makes two labs the same: the recorded history and the world's event log.
fn fingerprint(lab: &Lab) -> String {
    let events = serde_json::to_string(&*lab.state().world().events()).unwrap();
    format!("{}\n{events}", to_json(lab.history()))
}

/// Every step of every scenario runs on the lab, and every piece of its text is
/// filled from the world at that step, in both languages (printed, for a
/// translator to read with `--nocapture`). A question's answer is one of its
/// choices, and its text and explanation are filled from the step that
/// reveals it.
#[test]
fn every_step_runs_and_every_text_is_filled_from_the_world() {
    for lang in Lang::ALL {
        let content = content(lang);
        assert_eq!(content.scripts.scenarios.len(), 11, "one per section");
        for (i, scenario) in content.scripts.scenarios.iter().enumerate() {
            let text = &content.text.scenarios[&scenario.id];
            println!("== {} {}", scenario.id, text.title);
            for n in 0..scenario.steps.len() {
                let tour = Tour::open(&content.scripts, i, n).unwrap();
                assert_eq!((tour.scenario, tour.step), (i, n));
                let fill = |template: &str, lab: &Lab| {
                    render(template, lab.state(), number(lang)).unwrap_or_else(|e| {
                        panic!("{} {} step {}: {e}", lang.tag(), scenario.id, n + 1)
                    })
                };
                println!("  {}: {}", n + 1, fill(&text.steps[n].narration, &tour.lab));
                let Some((value, proof)) = answer(&content.scripts, i, n).unwrap() else {
                    assert!(scenario.steps[n].question.is_none());
                    continue;
                };
                let question = scenario.steps[n].question.as_ref().unwrap();
                match (&question.answer, &value) {
                    (Answer::Number { .. }, Value::Number(_)) => {}
                    (Answer::Choice { choices, .. }, Value::Code(code)) => {
                        assert!(
                            choices.contains(code),
                            "{}: {code} is no choice",
                            scenario.id
                        )
                    }
                    (answer, value) => panic!("{}: {answer:?} answered by {value:?}", scenario.id),
                }
                let revealed = Tour::open(&content.scripts, i, n + 1).unwrap();
                // One replay for the answer and its explanation: the same
                // answer, read from the same world as the next step's.
                let once = reveal(&content.scripts, i, n).unwrap().unwrap();
                assert_eq!((&once.value, once.proof), (&value, proof));
                assert_eq!(once.lab.history(), revealed.lab.history());
                assert_eq!(once.lab.state().now(), revealed.lab.state().now());
                if let Some(attempt) = proof {
                    assert!(
                        revealed
                            .lab
                            .state()
                            .timeline()
                            .iter()
                            .any(|r| r.attempt.id == attempt),
                        "the proof is a row the learner can see"
                    );
                }
                let explain = text.steps[n].explain.as_deref().unwrap();
                println!(
                    "     Q: {} -> {value:?}; {}",
                    fill(text.steps[n].question.as_deref().unwrap(), &revealed.lab),
                    fill(explain, &revealed.lab)
                );
            }
        }
    }
}

/// The numbers a question's answer and the narration state are the world's:
/// the same fact read the same way (the s1 retry doubles the naive balance).
#[test]
fn a_filled_number_is_the_worlds_number() {
    let content = content(Lang::En);
    let tour = Tour::open(&content.scripts, 0, 2).unwrap();
    let text = render(
        "{naive-balance:alice} vs {balance:alice}",
        tour.lab.state(),
        number(Lang::En),
    )
    .unwrap();
    let state = tour.lab.state();
    let naive = state
        .naive_balances()
        .iter()
        .find(|(a, _)| a == "alice")
        .unwrap()
        .1;
    assert_eq!(
        text,
        format!("{naive} vs {}", state.store().balance("alice"))
    );
    assert_eq!((naive, state.store().balance("alice")), (200, 100));
    let fa = render("{naive-balance:alice}", tour.lab.state(), number(Lang::Fa)).unwrap();
    assert_eq!(fa, "۲۰۰");
}

/// Back is a true step back: every step reached by going back is the very state
/// (history and event log, byte for byte) that going forward reached.
#[test]
fn every_step_is_the_same_reached_by_back_as_by_next() {
    let scripts = content(Lang::En).scripts;
    for (i, scenario) in scripts.scenarios.iter().enumerate() {
        let mut tour = Tour::open(&scripts, i, 0).unwrap();
        let mut forward = vec![fingerprint(&tour.lab)];
        while tour.next(&scripts).unwrap() {
            forward.push(fingerprint(&tour.lab));
        }
        assert_eq!(forward.len(), scenario.steps.len());
        assert_eq!(tour.step + 1, tour.steps(&scripts));
        for n in (0..forward.len()).rev() {
            assert_eq!(tour.step, n);
            assert_eq!(
                fingerprint(&tour.lab),
                forward[n],
                "{} step {}",
                scenario.id,
                n + 1
            );
            let moved = tour.back(&scripts).unwrap();
            assert_eq!(moved, n > 0);
        }
        // A deep link to a step lands on the same state too.
        for (n, expected) in forward.iter().enumerate() {
            assert_eq!(
                &fingerprint(&Tour::open(&scripts, i, n).unwrap().lab),
                expected
            );
        }
        // Steps past the end land on the last one.
        let past = Tour::open(&scripts, i, scenario.steps.len() + 5).unwrap();
        assert_eq!(past.step, scenario.steps.len() - 1);
    }
}

/// Each challenge starts in a new sandbox: it is not met there, and its solution
/// (what "show me" performs) meets it.
#[test]
fn every_challenge_is_unmet_at_first_and_met_by_its_solution() {
    let scripts = content(Lang::En).scripts;
    for scenario in &scripts.scenarios {
        let mut lab = Lab::new();
        assert!(!met(&scenario.challenge, lab.state()), "{}", scenario.id);
        let (last, before) = scenario.solution.split_last().unwrap();
        for step in before {
            run_step(&mut lab, step).unwrap();
        }
        assert!(
            !met(&scenario.challenge, lab.state()),
            "{} met too early",
            scenario.id
        );
        run_step(&mut lab, last).unwrap();
        assert!(met(&scenario.challenge, lab.state()), "{}", scenario.id);
    }
}

fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> Result<Content, ContentError> {
    let mut file: serde_json::Value = serde_json::from_str(language_file(Lang::En)).unwrap();
    edit(&mut file);
    Content::parse(SCRIPTS, &file.to_string(), "en")
}

/// A language file that misses a step, a question, a choice or any other piece
/// is refused, naming what is missing.
#[test]
fn a_language_missing_a_piece_is_refused() {
    assert!(edited(|_| {}).is_ok());
    assert!(matches!(
        edited(|f| { f["scenarios"]["s4"]["steps"].as_array_mut().unwrap().pop(); }),
        Err(ContentError::StepCount { scenario, script: 5, text: 4 }) if scenario == "s4"
    ));
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][0]
                .as_object_mut()
                .unwrap()
                .remove("question");
        }),
        Err(ContentError::MissingText {
            scenario: "s4".into(),
            step: Some(1),
            piece: "question"
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][0]["explain"] = " ".into();
        }),
        Err(ContentError::MissingText {
            scenario: "s4".into(),
            step: Some(1),
            piece: "explain"
        })
    );
    // A wrong answer's hint, written for each question.
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][0]
                .as_object_mut()
                .unwrap()
                .remove("hint");
        }),
        Err(ContentError::MissingText {
            scenario: "s4".into(),
            step: Some(1),
            piece: "hint"
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][0]["hint"] = "Think of 200.".into();
        }),
        Err(ContentError::HandWritten {
            scenario: "s4".into(),
            step: Some(1),
            piece: "hint"
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][2]["hint"] = "Look closer.".into();
        }),
        Err(ContentError::ExtraText {
            scenario: "s4".into(),
            step: 3,
            piece: "hint".into()
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][1]["choices"]
                .as_object_mut()
                .unwrap()
                .remove("replayed");
        }),
        Err(ContentError::MissingText {
            scenario: "s4".into(),
            step: Some(2),
            piece: "choice label"
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][1]["choices"]["maybe"] = "Maybe".into();
        }),
        Err(ContentError::ExtraText {
            scenario: "s4".into(),
            step: 2,
            piece: "maybe".into()
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s4"]["steps"][2]["question"] = "Why?".into();
        }),
        Err(ContentError::ExtraText {
            scenario: "s4".into(),
            step: 3,
            piece: "question".into()
        })
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s2"]["steps"][0]["narration"] = "".into();
        }),
        Err(ContentError::MissingText {
            scenario: "s2".into(),
            step: Some(1),
            piece: "narration"
        })
    );
    for piece in ["title", "challenge", "hint", "challenge_met"] {
        assert_eq!(
            edited(|f| {
                f["scenarios"]["s9"][piece] = "".into();
            }),
            Err(ContentError::MissingText {
                scenario: "s9".into(),
                step: None,
                piece
            })
        );
    }
    assert_eq!(
        edited(|f| {
            f["scenarios"].as_object_mut().unwrap().remove("s11");
        }),
        Err(ContentError::MissingScenario("s11".into()))
    );
    assert_eq!(
        edited(|f| {
            f["scenarios"]["s12"] = f["scenarios"]["s1"].clone();
        }),
        Err(ContentError::ExtraScenario("s12".into()))
    );
    assert!(matches!(
        edited(|f| { f["scenarios"]["s1"]["steps"][0].as_object_mut().unwrap().remove("narration"); }),
        Err(ContentError::Parse { file, .. }) if file == "en.json"
    ));
    assert_eq!(
        Content::parse(SCRIPTS, language_file(Lang::En), "fa"),
        Err(ContentError::Language {
            found: "en".into(),
            expected: "fa".into()
        })
    );
}

/// Scripts out of the article's order, or that end on a question, are refused.
#[test]
fn scripts_out_of_order_or_ending_on_a_question_are_refused() {
    let edit = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut scripts: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
        edit(&mut scripts);
        Content::parse(&scripts.to_string(), language_file(Lang::En), "en")
    };
    assert_eq!(
        edit(&|s| s["scenarios"].as_array_mut().unwrap().swap(0, 1)),
        Err(ContentError::ScenarioId {
            found: "s2".into(),
            expected: "s1".into()
        })
    );
    assert_eq!(
        edit(&|s| s["scenarios"][0]["steps"][2]["question"] =
            s["scenarios"][0]["steps"][1]["question"].clone()),
        Err(ContentError::QuestionOnLastStep("s1".into()))
    );
    assert!(matches!(
        edit(&|s| s["scenarios"][0]["challenge"][0]["fact"] = "luck".into()),
        Err(ContentError::Fact { .. })
    ));
    assert_eq!(
        edit(&|s| s["scenarios"][0]["challenge"] = serde_json::json!([])),
        Err(ContentError::NoChallenge("s1".into()))
    );
}

/// Text may not state a number of its own, nor read a fact the lab lacks.
#[test]
fn a_number_written_by_hand_or_an_unknown_fact_is_refused() {
    let content = content(Lang::En);
    let tour = Tour::open(&content.scripts, 0, 1).unwrap();
    let state = tour.lab.state();
    let fill = |t: &str| render(t, state, number(Lang::En));
    assert_eq!(fill("Alice has 100"), Err(TemplateError::Digit('1')));
    assert_eq!(fill("آلیس ۱۰۰ دارد"), Err(TemplateError::Digit('۱')));
    assert_eq!(
        fill("{balance:alice} and 5"),
        Err(TemplateError::Digit('5'))
    );
    assert!(matches!(
        fill("{luck}"),
        Err(TemplateError::Fact(FactError::Unknown(_)))
    ));
    assert!(matches!(
        fill("{balance:}"),
        Err(TemplateError::Fact(FactError::Unknown(_)))
    ));
    assert!(matches!(
        fill("{points:0}"),
        Err(TemplateError::Fact(FactError::Unknown(_)))
    ));
    assert!(matches!(
        fill("{rows:1}"),
        Err(TemplateError::Fact(FactError::Unknown(_)))
    ));
    assert!(matches!(
        fill("{points:2}"),
        Err(TemplateError::Fact(FactError::Missing(_)))
    ));
    assert!(matches!(
        fill("{read-balance}"),
        Err(TemplateError::Fact(FactError::Missing(_)))
    ));
    assert_eq!(
        fill("{outcome:last}"),
        Err(TemplateError::NotANumber("outcome:last".into()))
    );
    assert_eq!(fill("{balance:alice"), Err(TemplateError::Unbalanced));
    assert_eq!(fill("balance}"), Err(TemplateError::Unbalanced));
    assert_eq!(fill("{a{b}"), Err(TemplateError::Unbalanced));
    assert_eq!(
        fill("{points:1} then {points:last} of {rows}"),
        Ok("100 then 100 of 1".into())
    );
}

/// Rows are counted from the first (1-based) or back from the newest.
#[test]
fn facts_read_rows_from_either_end() {
    let content = content(Lang::En);
    // s4 at its last step: Alice's grant, its fresh-key retry, the refused
    // reuse, her second purchase of the same amount, and Bob's grant.
    let tour = Tour::open(&content.scripts, 3, 4).unwrap();
    let state = tour.lab.state();
    let read = |name: &str| Fact::parse(name).unwrap().read(state, name).unwrap();
    assert_eq!(read("rows"), Value::Number(5));
    assert_eq!(read("outcome:1"), Value::Code("timeout-applied".into()));
    assert_eq!(read("origin:2"), Value::Code("retry-fresh".into()));
    assert_eq!(read("outcome:last-2"), Value::Code("rejected".into()));
    assert_eq!(read("error:last-2"), Value::Code("payload-mismatch".into()));
    assert_eq!(read("outcome:last-1"), Value::Code("applied".into()));
    assert_eq!(read("attempt:last"), Value::Number(5));
    assert_eq!(read("points:last-2"), Value::Number(200));
    assert_eq!(read("account-balance:last"), Value::Number(100));
    assert_eq!(read("account-balance:1"), Value::Number(300));
    assert_eq!(read("store"), Value::Code("in-memory".into()));
    assert_eq!(read("holds:at-most-once"), Value::Code("yes".into()));
    assert!(matches!(
        Fact::parse("holds:luck"),
        Err(FactError::Unknown(_))
    ));
    assert!(matches!(
        Fact::parse("outcome:last-5").unwrap().read(state, "x"),
        Err(FactError::Missing(_))
    ));
    assert_eq!(
        read("outcome:last-4"),
        Value::Code("timeout-applied".into())
    );
    assert!(matches!(
        Fact::parse("outcome:6").unwrap().read(state, "x"),
        Err(FactError::Missing(_))
    ));
    assert_eq!(
        Fact::parse("truth:last").unwrap().row(),
        Some(RowRef::FromLast(0))
    );
    assert_eq!(Fact::parse("rows").unwrap().row(), None);
}

/// A typed answer is read in any digits; a choice is its code; a typed answer
/// that is no number is an error to fix, not a wrong answer.
#[test]
fn answers_are_judged_by_value_in_any_digits() {
    let hundred = Value::Number(100);
    assert_eq!(judge(&hundred, "100"), Ok(true));
    assert_eq!(judge(&hundred, " ۱۰۰ "), Ok(true));
    assert_eq!(judge(&hundred, "١٠٠"), Ok(true));
    assert_eq!(judge(&hundred, "200"), Ok(false));
    assert_eq!(judge(&Value::Number(0), "0"), Ok(true));
    assert_eq!(judge(&hundred, ""), Err(FieldError::Empty));
    assert_eq!(judge(&hundred, "a lot"), Err(FieldError::NotANumber));
    assert_eq!(judge(&hundred, "99999999999999999999999"), Ok(false));
    // A negative answer is a number: judged, not refused.
    assert_eq!(judge(&hundred, "-100"), Ok(false));
    assert_eq!(judge(&Value::Number(-5), "-5"), Ok(true));
    let applied = Value::Code("applied".into());
    assert_eq!(judge(&applied, "applied"), Ok(true));
    assert_eq!(judge(&applied, "replayed"), Ok(false));
}

/// Both languages fill the same facts at each step (narration, question and
/// explanation): a translator cannot state another number than the English
/// does, nor drop one.
#[test]
fn both_languages_state_the_same_facts_at_every_step() {
    let placeholders = |text: &str| {
        let mut found: Vec<String> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
            .collect();
        found.sort();
        found
    };
    let (en, fa) = (content(Lang::En), content(Lang::Fa));
    for (id, english) in &en.text.scenarios {
        let persian = &fa.text.scenarios[id];
        for (n, (e, f)) in english.steps.iter().zip(&persian.steps).enumerate() {
            assert_eq!(
                placeholders(&e.narration),
                placeholders(&f.narration),
                "{id} step {}",
                n + 1
            );
            assert_eq!(
                placeholders(e.explain.as_deref().unwrap_or("")),
                placeholders(f.explain.as_deref().unwrap_or("")),
                "{id} step {} explain",
                n + 1
            );
            assert_eq!(
                placeholders(e.question.as_deref().unwrap_or("")),
                placeholders(f.question.as_deref().unwrap_or("")),
                "{id} step {} question",
                n + 1
            );
        }
    }
}

/// Text shown as written (titles, questions, choices, challenges, hints) holds
/// no number of its own and no placeholder; a fact about an account nobody has
/// sent to is a slip, not a zero.
#[test]
fn hand_written_numbers_and_unknown_accounts_are_refused() {
    for (path, piece) in [
        (&["s2", "title"][..], "title"),
        (&["s2", "hint"][..], "hint"),
        (&["s2", "challenge"][..], "challenge"),
        (&["s2", "challenge_met"][..], "challenge_met"),
    ] {
        assert_eq!(
            edited(|f| f["scenarios"][path[0]][path[1]] = "Send 100 points".into()),
            Err(ContentError::HandWritten {
                scenario: "s2".into(),
                step: None,
                piece
            })
        );
    }
    assert_eq!(
        edited(|f| f["scenarios"]["s2"]["steps"][1]["question"] = "Was it 100?".into()),
        Err(ContentError::HandWritten {
            scenario: "s2".into(),
            step: Some(2),
            piece: "question"
        })
    );
    // A question reads only the facts of its premise (s2's: the processing
    // time and the caller's timeout).
    assert_eq!(
        edited(|f| f["scenarios"]["s2"]["steps"][1]["question"] = "Was it {balance:alice}?".into()),
        Err(ContentError::NotInPremise {
            scenario: "s2".into(),
            step: 2,
            fact: "balance:alice".into()
        })
    );
    assert!(edited(
        |f| f["scenarios"]["s2"]["steps"][1]["question"] = "After {processing-time} ms?".into()
    )
    .is_ok());
    assert_eq!(
        edited(
            |f| f["scenarios"]["s2"]["steps"][1]["choices"]["never-applied"] = "۰ points".into()
        ),
        Err(ContentError::HandWritten {
            scenario: "s2".into(),
            step: Some(2),
            piece: "choice label"
        })
    );
    let content = content(Lang::En);
    let tour = Tour::open(&content.scripts, 0, 2).unwrap();
    let fill = |t: &str| render(t, tour.lab.state(), number(Lang::En));
    assert!(matches!(
        fill("{balance:alcie}"),
        Err(TemplateError::Fact(FactError::Missing(_)))
    ));
    assert!(matches!(
        fill("{naive-balance:nobody}"),
        Err(TemplateError::Fact(FactError::Missing(_)))
    ));
    assert!(matches!(
        fill("{balance: alice}"),
        Err(TemplateError::Fact(FactError::Missing(_)))
    ));
    assert_eq!(
        fill("{balance:alice} {row-naive-balance:last}"),
        Ok("100 200".into())
    );
}

/// The challenges read what the learner's own rows did: a regrant's cause, the
/// row's own account.
#[test]
fn challenges_read_the_rows_that_did_it() {
    let scripts = content(Lang::En).scripts;
    let challenge = |id: &str| {
        scripts
            .scenarios
            .iter()
            .find(|s| s.id == id)
            .unwrap()
            .challenge
            .clone()
    };
    // s10: a grant twice in memory after a restart, then switching the store, is
    // not the balance-first crash the challenge asks for.
    let mut lab = Lab::new();
    let send = |lab: &mut Lab| {
        lab.dispatch(Action::Send {
            grant: GrantPoints::new("k", "bob", 100),
            lose_acknowledgement: true,
        })
        .unwrap();
        lab.skip_to_idle().unwrap();
    };
    send(&mut lab);
    lab.dispatch(Action::Restart).unwrap();
    send(&mut lab);
    lab.dispatch(Action::Set(Setting::Store(StoreKind::BalanceFirst)))
        .unwrap();
    assert!(!met(&challenge("s10"), lab.state()));
    assert!(!met(&challenge("s11"), lab.state()));
    // s1 with the learner's own account, not the form's default one.
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::Naive(true))).unwrap();
    send(&mut lab);
    assert!(!met(&challenge("s1"), lab.state()));
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert!(met(&challenge("s1"), lab.state()));
}

/// The code a step shows is the lab's own, line for line as it stands in its
/// file today: a change to the source that the excerpt no longer matches fails.
#[test]
fn every_code_excerpt_is_the_labs_own_source_as_it_stands() {
    let scripts = content(Lang::En).scripts;
    assert!(!scripts.code.is_empty());
    for (id, excerpt) in &scripts.code {
        let source =
            std::fs::read_to_string(format!("{}/{}", env!("CARGO_MANIFEST_DIR"), excerpt.file))
                .unwrap_or_else(|e| panic!("{id}: {}: {e}", excerpt.file));
        // Whole lines: the first and last may not be a piece of a longer one.
        let whole = format!("\n{}\n", excerpt.lines.join("\n"));
        assert!(
            format!("\n{source}\n").contains(&whole),
            "{id}: not as it stands in {}",
            excerpt.file
        );
        assert!(!excerpt.highlight.is_empty(), "{id} marks a line");
        let shown = excerpt.shown();
        assert_eq!(shown.len(), excerpt.lines.len());
        assert_eq!(
            shown.iter().filter(|(_, marked)| *marked).count(),
            excerpt.highlight.len()
        );
        // Shown without the indentation every line shares.
        assert!(shown.iter().any(|(line, _)| !line.starts_with(' ')));
        let used = scripts
            .scenarios
            .iter()
            .flat_map(|s| &s.steps)
            .any(|s| s.code.as_ref() == Some(id));
        assert!(used, "{id} is shown by some step");
    }
    let store = &scripts.code["store-lookup"];
    assert!(store
        .shown()
        .iter()
        .any(|(line, marked)| *marked && line.contains("if stored.points != grant.points")));
    // A step naming code the scripts lack, or an excerpt marking a line it lacks, is refused.
    let mut broken: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
    broken["scenarios"][5]["steps"][2]["code"] = "nowhere".into();
    assert_eq!(
        Content::parse(&broken.to_string(), language_file(Lang::En), "en"),
        Err(ContentError::Code {
            scenario: "s6".into(),
            id: "nowhere".into()
        })
    );
    let mut broken: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
    broken["code"]["authorize"]["highlight"] = serde_json::json!([99]);
    assert_eq!(
        Content::parse(&broken.to_string(), language_file(Lang::En), "en"),
        Err(ContentError::Code {
            scenario: "s11".into(),
            id: "authorize".into()
        })
    );
}

/// A step played a slice of time at a time (as the page plays it) lands on the
/// very lab running it at once does, whatever the slices.
#[test]
fn a_step_played_in_slices_lands_where_running_it_at_once_does() {
    let scripts = content(Lang::En).scripts;
    for (i, scenario) in scripts.scenarios.iter().enumerate() {
        for n in 1..scenario.steps.len() {
            let step = &scenario.steps[n];
            let at_once = Tour::open(&scripts, i, n).unwrap().lab;
            let end = at_once.state().now();
            for slice in [1, 37, 50, 999, u64::MAX] {
                if slice == 1 && end > 20_000 {
                    continue;
                }
                let mut lab = Tour::open(&scripts, i, n - 1).unwrap().lab;
                let mut left = ops(step);
                assert_eq!(
                    has_time(step),
                    left.iter().any(|op| !matches!(op, Op::Act(_)))
                );
                let mut slices = 0;
                while !left.is_empty() {
                    advance(&mut lab, &mut left, end, slice).unwrap();
                    slices += 1;
                    assert!(
                        slices < 100_000,
                        "{} step {} never ends",
                        scenario.id,
                        n + 1
                    );
                }
                assert_eq!(
                    fingerprint(&lab),
                    fingerprint(&at_once),
                    "{} step {} in slices of {slice} ms",
                    scenario.id,
                    n + 1
                );
            }
        }
    }
}

/// Errors say what is wrong in words a translator can act on.
#[test]
fn errors_name_the_piece_and_the_fact() {
    let content = content(Lang::En);
    let tour = Tour::open(&content.scripts, 0, 1).unwrap();
    let fill = |t: &str| {
        render(t, tour.lab.state(), number(Lang::En))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(fill("{luck}"), "unknown fact `luck`");
    assert_eq!(
        fill("{points:9}"),
        "the world has no `points:9` at this step"
    );
    assert_eq!(
        fill("Alice has 7"),
        "the digit `7` is written by hand; use a fact"
    );
    assert_eq!(fill("{outcome:1}"), "`outcome:1` is not a number");
    assert_eq!(fill("{x"), "a brace without its pair");
    let e = edited(|f| {
        f["scenarios"]["s4"]["steps"][0]
            .as_object_mut()
            .unwrap()
            .remove("question");
    })
    .unwrap_err();
    assert_eq!(e.to_string(), "s4 step 1: no question");
    let e = edited(|f| f["scenarios"]["s2"]["hint"] = "Press 2".into()).unwrap_err();
    assert_eq!(e.to_string(), "s2: a digit or brace in the hint");
    let e = edited(|f| {
        f["scenarios"]["s4"]["steps"].as_array_mut().unwrap().pop();
    })
    .unwrap_err();
    assert_eq!(e.to_string(), "s4: 5 steps in the script, 4 in the text");
}

/// Every fact the files may name reads what the world holds at that step.
#[test]
fn every_fact_reads_the_world() {
    let content = content(Lang::En);
    // s1 after the retry: a timed-out grant, then its replayed retry.
    let tour = Tour::open(&content.scripts, 0, 2).unwrap();
    let state = tour.lab.state();
    let read = |name: &str| Fact::parse(name).unwrap().read(state, name).unwrap();
    assert_eq!(read("row-balance:1"), Value::Number(100));
    assert_eq!(read("receipt-balance:last"), Value::Number(100));
    assert_eq!(
        read("truth:1"),
        Value::Code("applied-before-timeout".into())
    );
    assert_eq!(read("regrant-cause:1"), Value::Code("none".into()));
    assert_eq!(read("row-naive-balance:last"), Value::Number(200));
    assert_eq!(read("naive-balance:alice"), Value::Number(200));
    assert_eq!(read("queued"), Value::Number(0));
    assert_eq!(read("waiting-for-room"), Value::Number(0));
    assert_eq!(read("queue-capacity"), Value::Number(16));
    assert_eq!(read("caller-timeout"), Value::Number(3000));
    assert_eq!(read("processing-time"), Value::Number(100));
    assert_eq!(read("retention-hours"), Value::Number(24));
    assert_eq!(read("emails"), Value::Number(0));
    assert!(matches!(
        Fact::parse("receipt-balance:1").unwrap().read(state, "r"),
        Err(FactError::Missing(_))
    ));
    // A row sent and not yet handled has no balance to read, not a 0.
    let mut lab = Lab::new();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: false,
    })
    .unwrap();
    let row_balance = Fact::parse("row-balance:1").unwrap();
    assert!(matches!(
        row_balance.read(lab.state(), "b"),
        Err(FactError::Missing(_))
    ));
    // There (the transit), and the work.
    lab.dispatch(Action::Wait {
        ms: idempotency_lab::sim::DEFAULT_TRANSIT_MS + 100,
    })
    .unwrap();
    assert_eq!(
        row_balance.read(lab.state(), "b").unwrap(),
        Value::Number(100)
    );
    // s11 at its end: an email through the outbox, and a receipt that expired.
    let tour = Tour::open(&content.scripts, 10, 4).unwrap();
    let state = tour.lab.state();
    let read = |name: &str| Fact::parse(name).unwrap().read(state, name).unwrap();
    assert_eq!(read("emails"), Value::Number(1));
    assert_eq!(
        read("regrant-cause:2"),
        Value::Code("receipt-expired".into())
    );
    assert_eq!(read("store"), Value::Code("one-transaction".into()));
    // s9 at its end: the separate read.
    let tour = Tour::open(&content.scripts, 8, 3).unwrap();
    let read_balance = Fact::parse("read-balance").unwrap();
    assert_eq!(
        read_balance.read(tour.lab.state(), "r"),
        Ok(Value::Number(125))
    );
}

/// The newest burst's size: its callers sent at one moment, whether the queue
/// took them or they wait for room; a stress run's batch job is no burst.
#[test]
fn the_burst_size_counts_the_newest_bursts_callers() {
    let burst_size = Fact::parse("burst-size").unwrap();
    let read = |lab: &Lab| burst_size.read(lab.state(), "burst-size");
    assert!(matches!(
        Fact::parse("burst-size:1"),
        Err(FactError::Unknown(_))
    ));
    // s5: twenty callers, sixteen in the queue and four waiting for room.
    let content = content(Lang::En);
    let before = Tour::open(&content.scripts, 4, 0).unwrap();
    assert_eq!(
        read(&before.lab),
        Err(FactError::Missing("burst-size".into()))
    );
    let s5 = Tour::open(&content.scripts, 4, 1).unwrap();
    assert_eq!(read(&s5.lab), Ok(Value::Number(20)));
    // Still the same burst once the consumer has answered them all.
    let s5 = Tour::open(&content.scripts, 4, 2).unwrap();
    assert_eq!(read(&s5.lab), Ok(Value::Number(20)));
    // A later burst is the newest, a grant sent by hand changes nothing, and
    // a stress run is no burst.
    let mut lab = Lab::new();
    let burst = |count| Action::Burst {
        account_id: "alice".into(),
        points: 10,
        count,
    };
    lab.dispatch(burst(3)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(read(&lab), Ok(Value::Number(3)));
    lab.dispatch(burst(5)).unwrap();
    assert_eq!(read(&lab), Ok(Value::Number(5)));
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("k", "bob", 100),
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::Stress {
        account_id: "carol".into(),
        points: 10,
        count: 40,
        duplicate_percent: 0,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(read(&lab), Ok(Value::Number(5)));
    let mut stressed = Lab::new();
    stressed
        .dispatch(Action::Stress {
            account_id: "carol".into(),
            points: 10,
            count: 4,
            duplicate_percent: 0,
        })
        .unwrap();
    assert!(matches!(read(&stressed), Err(FactError::Missing(_))));
}

/// A slice moves the clock by exactly its length, across the step's waits.
#[test]
fn a_slice_moves_the_clock_by_exactly_its_length() {
    let step: idempotency_lab::walkthrough::Step = serde_json::from_value(serde_json::json!({
        "actions": [{ "wait": { "ms": 100 } }, { "wait": { "ms": 100 } }]
    }))
    .unwrap();
    let mut lab = Lab::new();
    let mut left = ops(&step);
    advance(&mut lab, &mut left, 200, 30).unwrap();
    assert_eq!(lab.state().now(), 30);
    advance(&mut lab, &mut left, 200, 150).unwrap();
    assert_eq!(lab.state().now(), 180);
    assert_eq!(left.len(), 1);
    advance(&mut lab, &mut left, 200, 1_000).unwrap();
    assert_eq!(lab.state().now(), 200);
    assert!(left.is_empty());
}

/// The excerpt is shown with the indentation all its lines share taken off,
/// and nothing else.
#[test]
fn an_excerpt_loses_only_its_shared_indentation() {
    let scripts = content(Lang::En).scripts;
    for excerpt in scripts.code.values() {
        for ((shown, _), line) in excerpt.shown().iter().zip(&excerpt.lines) {
            assert_eq!(shown.trim(), line.trim());
            assert!(line.ends_with(shown.as_str()));
        }
    }
    let store = scripts.code["store-lookup"].shown();
    assert!(store[0].0.starts_with("pub fn apply_detailed"));
    assert!(store[1].0.starts_with("    validate(grant)?;"));
}

#[test]
fn content_finds_a_scenario_by_place_and_by_id() {
    let content = content(Lang::En);
    let (script, text) = content.scenario(3).unwrap();
    assert_eq!(
        (script.id.as_str(), text.title.as_str()),
        ("s4", "One key per operation")
    );
    assert!(content.scenario(11).is_none());
    assert_eq!(content.find("s11"), Some(10));
    assert_eq!(content.find("s12"), None);
}

/// A step the lab refuses to play stops there and says why, never loops.
#[test]
fn a_refused_slice_stops_the_step_and_says_why() {
    let step: idempotency_lab::walkthrough::Step = serde_json::from_value(serde_json::json!({
        "actions": [{ "set": { "processes": 9 } }, { "wait": { "ms": 100 } }],
        "idle": true
    }))
    .unwrap();
    let mut lab = Lab::new();
    let mut left = ops(&step);
    assert!(advance(&mut lab, &mut left, 100, 1_000).is_err());
    assert!(left.is_empty(), "nothing more is played");
    assert_eq!(lab.state().now(), 0);
}

/// The handout says on paper what the player says on screen: each step's
/// narration and picture from the world at that step, each question's answer and its
/// explanation from the world after the next step.
#[test]
fn a_handout_prints_what_the_player_shows_and_the_answers_it_reveals() {
    for lang in [Lang::En, Lang::Fa] {
        let content = content(lang);
        for (index, script) in content.scripts.scenarios.iter().enumerate() {
            let paper = handout(&content, index, number(lang)).expect("every scenario prints");
            let text = &content.text.scenarios[&script.id];
            assert_eq!(paper.id, script.id);
            assert_eq!(paper.title, text.title);
            assert_eq!(paper.challenge, text.challenge);
            assert_eq!(paper.steps.len(), script.steps.len());
            for (n, printed) in paper.steps.iter().enumerate() {
                let tour = Tour::open(&content.scripts, index, n).unwrap();
                let said =
                    render(&text.steps[n].narration, tour.lab.state(), number(lang)).unwrap();
                assert_eq!(printed.narration, said, "{} step {}", script.id, n + 1);
                // The picture beside it is the stage the player draws then.
                assert_eq!(
                    printed.picture,
                    tour.lab.state().stage(),
                    "{} step {}",
                    script.id,
                    n + 1
                );
                let revealing = n > 0 && script.steps[n - 1].question.is_some();
                assert_eq!(printed.reveals, revealing);
                let asked = script.steps[n].question.as_ref();
                assert_eq!(printed.question.is_some(), asked.is_some());
                let (Some(question), Some(asked)) = (&printed.question, asked) else {
                    continue;
                };
                let words = &text.steps[n];
                // As the player asks it: its premise read from the world
                // after the next step.
                let told = question_text(script, text, n, number(lang)).unwrap();
                assert_eq!(Some(&question.text), told.as_ref());
                assert!(!question.text.contains('{'), "{}", question.text);
                let revealed = reveal(&content.scripts, index, n).unwrap().unwrap();
                let expected = match (&revealed.value, &asked.answer) {
                    (Value::Number(v), Answer::Number { .. }) => lang.number(*v),
                    (Value::Code(code), Answer::Choice { choices, .. }) => {
                        let labels: Vec<&String> =
                            choices.iter().map(|c| &words.choices[c]).collect();
                        assert_eq!(question.choices.iter().collect::<Vec<_>>(), labels);
                        words.choices[code].clone()
                    }
                    other => panic!("{other:?}"),
                };
                assert_eq!(question.answer, expected, "{} step {}", script.id, n + 1);
                let explain = words.explain.as_deref().unwrap();
                assert_eq!(
                    question.explain,
                    render(explain, revealed.lab.state(), number(lang)).unwrap()
                );
            }
        }
    }
    // One by hand: s4 asks for Alice's balance after a fresh-key retry (in
    // Persian digits in Persian), then what a changed payload gets.
    let s4 = handout(&content(Lang::Fa), 3, number(Lang::Fa)).unwrap();
    let questions: Vec<_> = s4
        .steps
        .iter()
        .filter_map(|s| s.question.as_ref())
        .collect();
    assert_eq!(questions.len(), 2);
    assert_eq!(questions[0].answer, "۲۰۰");
    assert!(questions[0].choices.is_empty());
    assert_eq!(questions[1].choices.len(), 3);
    assert_eq!(questions[1].answer, "رد می‌شود؛ چیزی تغییر نمی‌کند");
}

#[test]
fn a_handout_of_a_scenario_the_course_lacks_is_refused() {
    let content = content(Lang::En);
    let missing = content.scripts.scenarios.len();
    assert!(matches!(
        handout(&content, missing, number(Lang::En)),
        Err(ContentError::MissingScenario(_))
    ));
}

/// A handout that cannot be told whole is refused, naming the step.
#[test]
fn a_handout_names_the_step_it_cannot_print() {
    let broken = |edit: &dyn Fn(&mut Content)| {
        let mut content = content(Lang::En);
        edit(&mut content);
        handout(&content, 3, number(Lang::En)).unwrap_err()
    };
    let narration = broken(&|c| {
        c.text.scenarios.get_mut("s4").unwrap().steps[1].narration = "{nope}".to_string();
    });
    assert!(
        matches!(&narration, ContentError::Template { scenario, step: 2, .. } if scenario == "s4"),
        "{narration:?}"
    );
    let explain = broken(&|c| {
        c.text.scenarios.get_mut("s4").unwrap().steps[0].explain = Some("{nope}".to_string());
    });
    assert!(
        matches!(explain, ContentError::Template { step: 1, .. }),
        "{explain:?}"
    );
    let refused = broken(&|c| {
        c.scripts.scenarios[3].steps[1]
            .actions
            .insert(0, Action::Wait { ms: 0 });
    });
    assert!(
        matches!(refused, ContentError::Refused { step: 2, .. }),
        "{refused:?}"
    );
}
