#![cfg(not(target_arch = "wasm32"))]
//! Sessions as files and links, and the stress run: bad input is refused whole.

mod common;
use common::instant_lab;

use idempotency_lab::lab::{
    before_transit, from_json, from_link_token, to_compact_json, to_json, to_link_token, Action,
    Expected, FieldProblem, Found, History, Lab, LabError, Outcome, SessionError, Setting,
    SettingError, MAX_ACTIONS, MAX_FIELD_CHARS, MAX_SESSION_BYTES, SESSION_VERSION,
    STRESS_CONCURRENCY,
};
use idempotency_lab::sim::Happening;
use idempotency_lab::GrantPoints;

fn event_log(lab: &Lab) -> String {
    serde_json::to_string(&*lab.state().world().events()).unwrap()
}

fn walked_lab() -> Lab {
    let mut lab = instant_lab();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("<img src=x onerror=alert(1)>", "account-7", 100),
        lose_acknowledgement: true,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    lab.dispatch(Action::RetrySame {
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.dispatch(Action::Stress {
        account_id: "account-9".into(),
        points: 2,
        count: 50,
        duplicate_percent: 30,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    lab
}

#[test]
fn a_session_round_trips_through_a_file_and_a_link() {
    let lab = walked_lab();
    for copy in [
        from_json(&to_json(lab.history())).unwrap(),
        from_link_token(&to_link_token(lab.history())).unwrap(),
    ] {
        assert_eq!(copy.history(), lab.history());
        assert_eq!(copy.state().timeline(), lab.state().timeline());
        assert_eq!(
            copy.state().store().balances(),
            lab.state().store().balances()
        );
        assert_eq!(event_log(&copy), event_log(&lab));
    }
    assert_eq!(
        lab.state().store().balances(),
        [("account-7".to_owned(), 100), ("account-9".to_owned(), 80)]
    );
    let token = to_link_token(lab.history());
    assert!(token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
}

#[test]
fn malformed_and_hostile_sessions_are_refused_with_a_reason() {
    type Expect = fn(&SessionError) -> bool;
    let cases: Vec<(String, Expect)> = vec![
        ("not json".into(), |e| matches!(e, SessionError::NotJson(_))),
        ("{}".into(), |e| {
            matches!(e, SessionError::BadField { problem: FieldProblem::Missing(f), .. } if f == "format")
        }),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[]} x"#.into(),
            |e| matches!(e, SessionError::NotJson(_)),
        ),
        (
            r#"{"format":"other","version":1,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::WrongFormat),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":9,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::UnsupportedVersion(9)),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":5,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::UnsupportedVersion(5)),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":0,"actions":[]}"#.into(),
            |e| matches!(e, SessionError::UnsupportedVersion(0)),
        ),
        (
            // "advance" was a version 1 action: a version 2 file cannot hold it.
            r#"{"format":"idempotency-lab/session","version":2,"actions":[{"advance":{"steps":1}}]}"#.into(),
            |e| matches!(e, SessionError::BadField { path, problem: FieldProblem::UnknownName(n) } if path == "actions[0]" && n == "advance"),
        ),
        (
            // And version 1 knew no clock.
            r#"{"format":"idempotency-lab/session","version":1,"actions":[{"wait":{"ms":1}}]}"#.into(),
            |e| matches!(e, SessionError::BadField { problem: FieldProblem::UnknownName(n), .. } if n == "wait"),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[],"extra":1}"#.into(),
            |e| matches!(e, SessionError::BadField { problem: FieldProblem::UnknownField(n), .. } if n == "extra"),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":["restart",{"wait":{"ms":0}}]}"#.into(),
            |e| matches!(e, SessionError::Replay(r) if r.index == 1 && r.error == LabError::WaitLength(0)),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[{"set-caller-timeout":{"ms":0}}]}"#.into(),
            |e| matches!(e, SessionError::Replay(r) if r.index == 0 && r.error == LabError::Setting(SettingError::CallerTimeout(0))),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[{"retry-fresh":{}}]}"#.into(),
            |e| matches!(e, SessionError::Replay(r) if r.index == 0 && r.error == LabError::NothingToRetry),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":1,"actions":[{"explode":{}}]}"#.into(),
            |e| matches!(e, SessionError::BadField { problem: FieldProblem::UnknownName(n), .. } if n == "explode"),
        ),
        (
            r#"{"format":"idempotency-lab/session","version":1,"actions":[{"retry-same":{}}]}"#
                .into(),
            |e| matches!(e, SessionError::Replay(r) if r.index == 0 && r.error == LabError::NothingToRetry),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{{"check-balance":{{"account_id":"{}"}}}}]}}"#,
                "a".repeat(81)
            ),
            |e| matches!(e, SessionError::TextTooLong { index: 0 }),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{}]}}"#,
                [r#"{"burst":{"account_id":"a","points":1,"count":10000}}"#; 6].join(",")
            ),
            |e| matches!(e, SessionError::TooManySends(60_000)),
        ),
        (
            format!(
                r#"{{"format":"idempotency-lab/session","version":1,"actions":[{}]}}"#,
                vec![r#"{"set-paused":{"paused":true}}"#; MAX_ACTIONS + 1].join(",")
            ),
            |e| matches!(e, SessionError::TooManyActions(_)),
        ),
        (" ".repeat(MAX_SESSION_BYTES + 1), |e| {
            matches!(e, SessionError::TooLarge { .. })
        }),
    ];
    for (text, expected) in cases {
        let error = from_json(&text).unwrap_err();
        assert!(
            expected(&error),
            "{error:?} for {}",
            &text[..text.len().min(80)]
        );
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(from_link_token("%%%").unwrap_err(), SessionError::BadLink);
    assert!(matches!(
        from_link_token(&"A".repeat(MAX_SESSION_BYTES * 2)).unwrap_err(),
        SessionError::TooLarge { .. }
    ));
}

/// What the seeded chooser picks for the first stress run of 10,000 at 30 %.
const REPLAYED: usize = 3_077;

#[test]
fn a_stress_run_with_duplicates_grants_each_distinct_key_once() {
    let mut lab = instant_lab();
    lab.dispatch(Action::Stress {
        account_id: "a".into(),
        points: 3,
        count: 10_000,
        duplicate_percent: 30,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    let rows = lab.state().timeline();
    assert_eq!(rows.len(), 10_000, "every grant answered");
    let applied = rows
        .iter()
        .filter(|r| r.outcome() == Outcome::Applied)
        .count();
    let replayed = rows
        .iter()
        .filter(|r| r.outcome() == Outcome::Replayed)
        .count();
    assert_eq!(applied + replayed, 10_000);
    assert_eq!(
        replayed, REPLAYED,
        "about 30% duplicates, the same every run"
    );
    // A batch job with no deadline: nobody times out. It keeps
    // STRESS_CONCURRENCY calls open, making the next as an answer comes back.
    assert!(rows.iter().all(|r| r.truth().is_none()));
    assert_eq!(
        rows.iter().filter(|r| r.attempt.sent_at == 0).count(),
        STRESS_CONCURRENCY
    );
    let mut open: i64 = 0;
    let mut most_open = 0;
    for event in lab.state().world().events().iter() {
        match event.what {
            Happening::Sent { deadline, .. } => {
                assert_eq!(deadline, None);
                open += 1;
            }
            Happening::Answered { .. } => open -= 1,
            Happening::TimedOut { .. } => panic!("a batch job does not time out"),
            _ => {}
        }
        most_open = most_open.max(open);
    }
    assert_eq!(most_open, STRESS_CONCURRENCY as i64);
    assert_eq!(open, 0);
    assert_eq!(
        lab.state().now(),
        10_000 * 100,
        "one after another, 100 ms each"
    );
    assert_eq!(lab.state().store().balance("a"), 3 * applied as i32);
    assert_eq!(lab.state().store().receipts().len(), applied);

    let again = Lab::replay(lab.history()).unwrap();
    assert_eq!(
        again.state().timeline(),
        rows,
        "the same run picks the same duplicates"
    );
    assert_eq!(event_log(&again), event_log(&lab));
}

#[test]
fn a_stress_run_outside_its_limits_is_refused() {
    let mut lab = Lab::new();
    let stress = |count, duplicate_percent| Action::Stress {
        account_id: "a".into(),
        points: 1,
        count,
        duplicate_percent,
    };
    assert_eq!(lab.dispatch(stress(0, 30)), Err(LabError::BurstSize(0)));
    assert_eq!(
        lab.dispatch(stress(10, 101)),
        Err(LabError::DuplicatePercent(101))
    );
    assert!(lab.history().actions.is_empty());
}

#[test]
fn the_lab_refuses_to_grow_past_what_a_session_file_may_hold() {
    use idempotency_lab::lab::{MAX_BURST, MAX_SENDS};
    let mut lab = instant_lab();
    let burst = || Action::Burst {
        account_id: "a".into(),
        points: 1,
        count: MAX_BURST,
    };
    let mut accepted = 0u64;
    while lab.dispatch(burst()).is_ok() {
        accepted += u64::from(MAX_BURST);
    }
    assert_eq!(
        accepted,
        MAX_SENDS / u64::from(MAX_BURST) * u64::from(MAX_BURST)
    );
    assert_eq!(lab.dispatch(burst()), Err(LabError::SessionFull));
    // Time can still pass, so work already queued finishes, and the full session
    // still round-trips.
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().in_flight(), 0);
    let rows = lab.state().timeline();
    assert_eq!(rows.len() as u64, accepted, "every caller heard something");
    // One delivery every 100 ms against callers who all sent at 0 ms and wait
    // 3,000 ms: 29 answered in time, then every caller times out; the 17 queued
    // or in hand are applied afterwards, the rest gave up waiting for room.
    let count = |outcome| rows.iter().filter(|r| r.outcome() == outcome).count();
    assert_eq!(count(Outcome::Applied), 29);
    assert_eq!(count(Outcome::TimeoutApplied), 17);
    assert_eq!(count(Outcome::Timeout) as u64, accepted - 29 - 17);
    assert_eq!(lab.state().store().balance("a"), 29 + 17);
    let copy = from_json(&to_json(lab.history())).unwrap();
    assert_eq!(copy.state().timeline().len() as u64, accepted);
    assert_eq!(copy.state().timeline(), lab.state().timeline());

    let mut lab = Lab::new();
    let mut sent = 0;
    while lab
        .dispatch(Action::CheckBalance {
            account_id: "a".into(),
        })
        .is_ok()
    {
        sent += 1;
    }
    assert_eq!(
        sent,
        MAX_ACTIONS - 1,
        "the last place is kept for time to pass"
    );
    assert_eq!(lab.dispatch(Action::Restart), Err(LabError::SessionFull));
    assert_eq!(lab.dispatch(Action::Wait { ms: 10 }), Ok(()));
    assert_eq!(
        lab.dispatch(Action::Wait { ms: 5 }),
        Ok(()),
        "joins the last wait"
    );
    assert_eq!(lab.history().actions.len(), MAX_ACTIONS);
    assert_eq!(lab.history().actions.last(), Some(&Action::Wait { ms: 15 }));
    assert_eq!(
        lab.dispatch(Action::CheckBalance {
            account_id: "a".into()
        }),
        Err(LabError::SessionFull)
    );
    let copy = from_json(&to_json(lab.history())).unwrap();
    assert_eq!(copy.history(), lab.history());
    assert_eq!(copy.state().now(), 15);
}

#[test]
fn every_kind_of_action_round_trips_through_a_version_3_file() {
    let mut lab = instant_lab();
    let actions = vec![
        Action::Set(Setting::Naive(true)),
        Action::Set(Setting::CallerTimeoutMs(500)),
        Action::Set(Setting::ProcessingMs(250)),
        Action::Send {
            grant: GrantPoints::new("order-1042", "account-7", 100),
            lose_acknowledgement: true,
        },
        Action::Wait { ms: 100 },
        Action::RetrySame {
            lose_acknowledgement: false,
        },
        Action::RetryFresh {
            lose_acknowledgement: true,
        },
        Action::Set(Setting::Paused(true)),
        Action::Burst {
            account_id: "account-7".into(),
            points: 2,
            count: 3,
        },
        Action::Stress {
            account_id: "account-9".into(),
            points: 1,
            count: 5,
            duplicate_percent: 40,
        },
        Action::Wait { ms: 1_000 },
        Action::Restart,
        Action::Set(Setting::Paused(false)),
        Action::CheckBalance {
            account_id: "account-7".into(),
        },
        Action::Set(Setting::Naive(false)),
    ];
    for action in &actions {
        lab.dispatch(action.clone()).unwrap();
    }
    // (After the lab's first action, a transit of 0.)
    assert_eq!(lab.history().actions[1..], actions);
    let text = to_json(lab.history());
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file["format"], "idempotency-lab/session");
    assert_eq!(file["version"], 4);
    assert_eq!(SESSION_VERSION, 4);
    assert_eq!(file["actions"][12], serde_json::json!("restart"));
    assert_eq!(file["actions"][5], serde_json::json!({"wait": {"ms": 100}}));
    for copy in [
        from_json(&text).unwrap(),
        from_json(&to_compact_json(lab.history())).unwrap(),
        from_link_token(&to_link_token(lab.history())).unwrap(),
    ] {
        assert_eq!(copy.history(), lab.history());
        assert_eq!(event_log(&copy), event_log(&lab));
        assert_eq!(copy.state().timeline(), lab.state().timeline());
        assert_eq!(copy.state().process_number(), 2);
        assert_eq!(copy.state().last_read(), lab.state().last_read());
    }
    let history: History =
        serde_json::from_str(&serde_json::to_string(lab.history()).unwrap()).unwrap();
    assert_eq!(&history, lab.history());
}

#[test]
fn a_session_whose_texts_are_at_the_form_limit_opens() {
    let text = format!(
        r#"{{"format":"idempotency-lab/session","version":2,"actions":[{{"check-balance":{{"account_id":"{}"}}}}]}}"#,
        "a".repeat(MAX_FIELD_CHARS)
    );
    let lab = from_json(&text).expect("80 characters is within the limit");
    // (The transit of 0 that a file from before transit opens with, then it.)
    assert_eq!(lab.history().actions.len(), 2);
}

/// A file that is JSON but breaks a field's rule is told by that field and rule,
/// not as "cannot be read as JSON".
#[test]
fn a_wrong_field_is_named_with_its_rule() {
    let file = |actions: &str| {
        format!(r#"{{"format":"idempotency-lab/session","version":2,"actions":[{actions}]}}"#)
    };
    let whole = |min: i128, max: i128| Expected::Whole { min, max };
    let cases: Vec<(String, &str, FieldProblem)> = vec![
        (
            file(
                r#""restart",{"send":{"grant":{"key":"k","account_id":"a","points":2147483648}}}"#,
            ),
            "actions[1].send.grant.points",
            FieldProblem::Wrong {
                found: Found::Whole(2_147_483_648),
                expected: whole(i32::MIN.into(), i32::MAX.into()),
            },
        ),
        (
            r#"{"format":"idempotency-lab/session","version":"2","actions":[]}"#.into(),
            "version",
            FieldProblem::Wrong {
                found: Found::Text("2".into()),
                expected: whole(0, u32::MAX.into()),
            },
        ),
        (
            file(r#"{"wait":{"ms":-5}}"#),
            "actions[0].wait.ms",
            FieldProblem::Wrong {
                found: Found::Whole(-5),
                expected: whole(0, u64::MAX.into()),
            },
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[],"by":"me"}"#.into(),
            "by",
            FieldProblem::UnknownField("by".into()),
        ),
        (
            file(r#""restart","explode""#),
            "actions[1]",
            FieldProblem::UnknownName("explode".into()),
        ),
        (
            file(r#"{"set-naive":{"on":"yes"}}"#),
            "actions[0].set-naive.on",
            FieldProblem::Wrong {
                found: Found::Text("yes".into()),
                expected: Expected::YesNo,
            },
        ),
    ];
    for (text, path, problem) in cases {
        let error = from_json(&text).unwrap_err();
        assert_eq!(
            error,
            SessionError::BadField {
                path: path.into(),
                problem
            },
            "{text}"
        );
        assert!(!error.to_string().contains("line"), "{error}");
    }
    // In words (the English fallback, beside the page's own texts).
    let said = |text: &str| from_json(text).unwrap_err().to_string();
    assert_eq!(
        said(&file(r#"{"wait":{"ms":-5}}"#)),
        format!(
            "actions[0].wait.ms: -5 does not fit: it must be a whole number from 0 to {}",
            u64::MAX
        )
    );
    assert_eq!(
        said(&file(r#"{"set-naive":{"on":"yes"}}"#)),
        "actions[0].set-naive.on: \"yes\" does not fit: it must be true or false"
    );
    assert_eq!(
        said(&file(r#""explode""#)),
        "actions[0]: explode is not a name the lab knows"
    );
    assert_eq!(
        said(r#"{"format":"idempotency-lab/session","version":2,"actions":[],"by":"me"}"#),
        "by: there is no field by here"
    );
    assert_eq!(
        said(&file(r#"{"send":{"grant":{"key":"k","account_id":"a"}}}"#)),
        "actions[0].send.grant: the field points is missing"
    );
    assert_eq!(
        idempotency_lab::lab::field_place("actions[1].send.grant.points"),
        (Some(2), "send.grant.points")
    );
    assert_eq!(
        idempotency_lab::lab::field_place("version"),
        (None, "version")
    );
    assert_eq!(idempotency_lab::lab::field_place("."), (None, ""));
    assert_eq!(
        idempotency_lab::lab::field_place("actions[0]"),
        (Some(1), "")
    );
}

/// A session of exactly the most actions a session may hold opens when its last
/// action is a wait (as every full session the lab builds is), and is refused,
/// for that reason, when it is not.
#[test]
fn a_session_of_exactly_the_most_actions_opens_when_its_last_is_a_wait() {
    let check = r#"{"check-balance":{"account_id":"a"}}"#;
    let file = |last: &str| {
        let mut actions = vec![check; MAX_ACTIONS - 1];
        actions.push(last);
        format!(
            r#"{{"format":"idempotency-lab/session","version":4,"actions":[{}]}}"#,
            actions.join(",")
        )
    };
    let lab = from_json(&file(r#"{"wait":{"ms":10}}"#)).unwrap();
    assert_eq!(lab.history().actions.len(), MAX_ACTIONS);
    assert_eq!(lab.state().now(), 10);
    assert_eq!(
        from_json(&file(check)).unwrap_err(),
        SessionError::NoRoomForTime
    );
}

/// The page says a file's broken rule in each language, naming the action and
/// the field.
#[test]
fn a_wrong_field_is_told_in_english_and_in_persian() {
    use idempotency_lab::i18n::Lang;
    let file = |actions: &str| {
        format!(r#"{{"format":"idempotency-lab/session","version":2,"actions":[{actions}]}}"#)
    };
    let cases = [
        (
            file(r#""restart",{"wait":{"ms":-5}}"#),
            [
                "action 2, field",
                "does not fit there, which takes a whole number from 0 to",
            ],
            ["کنش ۲", "آنجا جا نمی‌شود؛ آنجا عددی درست از ۰ تا"],
        ),
        (
            file(r#"{"set-naive":{"on":"yes"}}"#),
            ["action 1, field", "which takes true or false"],
            ["کنش ۱", "true یا false"],
        ),
        (
            file(r#""explode""#),
            ["action 1 breaks a rule", "is not a name the lab knows"],
            ["کنش ۱", "نامی نیست که آزمایشگاه بشناسد"],
        ),
        (
            file(r#"{"send":{"grant":{"key":"k","account_id":"a"}}}"#),
            ["action 1, field", "is missing"],
            ["کنش ۱", "نیامده است"],
        ),
        (
            r#"{"format":"idempotency-lab/session","version":2,"actions":[],"by":"me"}"#.into(),
            ["the field", "there is no field"],
            ["فیلد", "آنجا نیست"],
        ),
    ];
    for (text, en_parts, fa_parts) in cases {
        let error = from_json(&text).unwrap_err();
        let en = Lang::En.texts().session_error(&error);
        let fa = Lang::Fa.texts().session_error(&error);
        assert!(en.starts_with("the file is JSON, but "), "{en}");
        assert!(fa.starts_with("پرونده JSON است، اما "), "{fa}");
        for part in en_parts {
            assert!(en.contains(part), "{en} lacks {part}");
        }
        for part in fa_parts {
            assert!(fa.contains(part), "{fa} lacks {part}");
        }
    }
}

/// Format 3 names a setting inside `set`: a wrong value or an unknown setting
/// is told by its place and rule, as every other field is.
#[test]
fn a_wrong_setting_in_a_version_3_file_is_named_with_its_rule() {
    let file = |actions: &str| {
        format!(r#"{{"format":"idempotency-lab/session","version":3,"actions":[{actions}]}}"#)
    };
    let cases = [
        (
            file(r#"{"set":{"naive":"yes"}}"#),
            "actions[0].set.naive",
            FieldProblem::Wrong {
                found: Found::Text("yes".into()),
                expected: Expected::YesNo,
            },
        ),
        (
            file(r#""restart",{"set":{"colour":"red"}}"#),
            "actions[1].set",
            FieldProblem::UnknownName("colour".into()),
        ),
        (
            file(r#"{"set":{"processes":-1}}"#),
            "actions[0].set.processes",
            FieldProblem::Wrong {
                found: Found::Whole(-1),
                expected: Expected::Whole {
                    min: 0,
                    max: u8::MAX.into(),
                },
            },
        ),
        // A setting of format 2 is not a setting of format 3.
        (
            file(r#"{"set-naive":{"on":true}}"#),
            "actions[0]",
            FieldProblem::UnknownName("set-naive".into()),
        ),
    ];
    for (text, path, problem) in cases {
        assert_eq!(
            from_json(&text).unwrap_err(),
            SessionError::BadField {
                path: path.into(),
                problem
            },
            "{text}"
        );
    }
    // A value out of range is the lab's to refuse, while replaying.
    assert!(matches!(
        from_json(&file(r#"{"set":{"processes":3}}"#)).unwrap_err(),
        SessionError::Replay(r) if r.index == 0 && r.error == LabError::Setting(SettingError::Processes(3))
    ));
}

/// Every action format 2 could hold opens as today's action, in today's format.
#[test]
fn every_action_of_a_version_2_file_opens_as_todays_action() {
    use idempotency_lab::sim::{Acknowledge, Routing, StoreKind};
    use idempotency_lab::{CrashPoint, EmailVia, InFlightPolicy, Language, RetryPolicy};
    let policy = RetryPolicy {
        max_attempts: 3,
        seed: 7,
    };
    let pairs: Vec<(&str, Action)> = vec![
        (
            r#"{"set-paused":{"paused":true}}"#,
            Action::Set(Setting::Paused(true)),
        ),
        (
            r#"{"send":{"grant":{"key":"k","account_id":"account-7","points":5}}}"#,
            Action::Send {
                grant: GrantPoints::new("k", "account-7", 5),
                lose_acknowledgement: false,
            },
        ),
        (
            r#"{"retry-same":{"lose_acknowledgement":true}}"#,
            Action::RetrySame {
                lose_acknowledgement: true,
            },
        ),
        (
            r#"{"retry-fresh":{}}"#,
            Action::RetryFresh {
                lose_acknowledgement: false,
            },
        ),
        (
            r#"{"burst":{"account_id":"account-8","points":2,"count":3}}"#,
            Action::Burst {
                account_id: "account-8".into(),
                points: 2,
                count: 3,
            },
        ),
        (
            r#"{"stress":{"account_id":"account-9","points":1,"count":4,"duplicate_percent":50}}"#,
            Action::Stress {
                account_id: "account-9".into(),
                points: 1,
                count: 4,
                duplicate_percent: 50,
            },
        ),
        (r#""step""#, Action::Step),
        (
            r#"{"set-paused":{"paused":false}}"#,
            Action::Set(Setting::Paused(false)),
        ),
        (r#"{"wait":{"ms":10}}"#, Action::Wait { ms: 10 }),
        (
            r#"{"check-balance":{"account_id":"account-7"}}"#,
            Action::CheckBalance {
                account_id: "account-7".into(),
            },
        ),
        (r#""restart""#, Action::Restart),
        (
            r#"{"set-caller-timeout":{"ms":700}}"#,
            Action::Set(Setting::CallerTimeoutMs(700)),
        ),
        (
            r#"{"set-processing-time":{"ms":30}}"#,
            Action::Set(Setting::ProcessingMs(30)),
        ),
        (
            r#"{"set-naive":{"on":true}}"#,
            Action::Set(Setting::Naive(true)),
        ),
        (
            r#"{"set-store":{"kind":"balance-first"}}"#,
            Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        ),
        (
            r#"{"set-crash-point":{"point":"between-writes"}}"#,
            Action::SetCrashPoint {
                point: Some(CrashPoint::BetweenWrites),
            },
        ),
        (
            r#"{"set-processes":{"count":2}}"#,
            Action::Set(Setting::Processes(2)),
        ),
        (
            r#"{"set-routing":{"routing":{"by":"only","slot":2}}}"#,
            Action::Set(Setting::Routing(Routing::Only(2))),
        ),
        (
            r#"{"set-retention":{"hours":5}}"#,
            Action::Set(Setting::RetentionHours(5)),
        ),
        (
            r#"{"set-ledger-check":{"on":true}}"#,
            Action::Set(Setting::LedgerCheck(true)),
        ),
        (
            r#"{"move-clock":{"ms":1000}}"#,
            Action::MoveClock { ms: 1000 },
        ),
        (
            r#"{"set-in-flight":{"policy":"retry-later"}}"#,
            Action::Set(Setting::InFlight(InFlightPolicy::RetryLater)),
        ),
        (
            r#"{"set-redeliver":{"on":true}}"#,
            Action::SetRedeliver { on: true },
        ),
        (
            r#"{"set-acknowledge":{"when":"after-work"}}"#,
            Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        ),
        (
            r#"{"set-auto-retry":{"policy":{"max_attempts":3,"seed":7}}}"#,
            Action::Set(Setting::AutoRetry(Some(policy))),
        ),
        (
            r#"{"set-email":{"on":true}}"#,
            Action::Set(Setting::Email(true)),
        ),
        (
            r#"{"set-email-via":{"via":"outbox"}}"#,
            Action::Set(Setting::EmailVia(EmailVia::Outbox)),
        ),
        (
            r#"{"sign-in":{"account_id":"account-7"}}"#,
            Action::SignIn {
                account_id: Some("account-7".into()),
            },
        ),
        (
            r#"{"set-preferred-language":{"account_id":"account-7","language":"persian"}}"#,
            Action::SetPreferredLanguage {
                account_id: "account-7".into(),
                language: Language::Persian,
            },
        ),
    ];
    let (old, today): (Vec<&str>, Vec<Action>) = pairs.into_iter().unzip();
    let text = format!(
        r#"{{"format":"idempotency-lab/session","version":2,"actions":[{}]}}"#,
        old.join(",")
    );
    let opened = from_json(&text).unwrap();
    // A file from before transit opens with a transit of 0 set first.
    assert_eq!(opened.history().actions[0], before_transit());
    assert_eq!(opened.history().actions[1..], today);
    let again = from_json(&to_json(opened.history())).unwrap();
    assert_eq!(again.history(), opened.history());
    assert_eq!(event_log(&again), event_log(&opened));
    assert!(to_json(opened.history()).contains("\"version\": 4"));
}

#[test]
fn an_imported_file_counts_its_own_actions_not_the_conversions() {
    use idempotency_lab::lab::from_json_counted;
    let one = r#"{"check-balance":{"account_id":"account-7"}}"#;
    for (version, added) in [(4, 0), (3, 1), (2, 1), (1, 2)] {
        let text = format!(
            r#"{{"format":"idempotency-lab/session","version":{version},"actions":[{one}]}}"#
        );
        let (lab, count) = from_json_counted(&text).unwrap();
        assert_eq!(count, 1, "version {version}: the person did one thing");
        assert_eq!(
            lab.history().actions.len(),
            1 + added,
            "version {version}: the conversion's own actions come first"
        );
    }
    // A refused file is refused the same way as by from_json.
    let bad = r#"{"format":"idempotency-lab/session","version":3,"actions":[{"wait":{}}]}"#;
    assert_eq!(
        from_json_counted(bad).map(|(_, n)| n).unwrap_err(),
        from_json(bad).unwrap_err()
    );
}

/// A version 3 file opens with one action of the conversion's own first, so
/// it holds one action fewer than today's at most: the bound counts it.
#[test]
fn an_older_session_leaves_room_for_the_action_its_conversion_adds() {
    let check = r#"{"check-balance":{"account_id":"a"}}"#;
    let wait = r#"{"wait":{"ms":10}}"#;
    let file = |n: usize| {
        let mut actions = vec![check; n - 1];
        actions.push(wait);
        format!(
            r#"{{"format":"idempotency-lab/session","version":3,"actions":[{}]}}"#,
            actions.join(",")
        )
    };
    let lab = from_json(&file(MAX_ACTIONS - 1)).unwrap();
    assert_eq!(lab.history().actions.len(), MAX_ACTIONS);
    assert_eq!(
        from_json(&file(MAX_ACTIONS)).unwrap_err(),
        SessionError::TooManyActions(MAX_ACTIONS + 1)
    );
}
