#![cfg(not(target_arch = "wasm32"))]
//! Each step of the walkthrough says which panels it needs and marks what
//! proves its point: every mark is a fact the picture draws at that step.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Invariant, StagePart};
use idempotency_lab::walkthrough::{mark, Content, ContentError, FactError, Panel, Tour};

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");
const ENGLISH: &str = include_str!("../walkthrough/en.json");

fn content() -> Content {
    Content::parse(SCRIPTS, ENGLISH, Lang::En.tag()).unwrap()
}

#[test]
fn every_step_names_its_panels_and_marks_only_what_the_picture_draws() {
    let content = content();
    let mut marked = 0;
    for (i, scenario) in content.scripts.scenarios.iter().enumerate() {
        for (n, step) in scenario.steps.iter().enumerate() {
            let at = format!("{} step {}", scenario.id, n + 1);
            assert!(
                step.shows.is_some(),
                "{at} does not say which panels it needs"
            );
            let tour = Tour::open(&content.scripts, i, n).unwrap();
            let state = tour.lab.state();
            let stage = state.stage();
            for name in &step.marks {
                let part = mark(name, state).unwrap_or_else(|e| panic!("{at}: {e}"));
                assert!(stage.draws(&part), "{at}: `{name}` ({part:?}) is not drawn");
                if matches!(part, StagePart::Promise(_)) {
                    assert!(
                        step.shows(Panel::Promises),
                        "{at}: `{name}` needs the promises panel"
                    );
                }
                if part == StagePart::Timeline {
                    assert!(
                        step.shows(Panel::Timeline),
                        "{at}: `{name}` needs the timeline"
                    );
                }
                marked += 1;
            }
        }
    }
    assert!(marked > 60, "only {marked} marks");
}

#[test]
fn a_mark_is_read_as_the_part_that_draws_its_fact() {
    let content = content();
    // s1 step 2: a grant to alice, applied by both workers, its answer lost.
    let s1 = Tour::open(&content.scripts, 0, 1).unwrap();
    let state = s1.lab.state();
    let read = |name: &str| mark(name, state);
    assert_eq!(
        read("balance:alice"),
        Ok(StagePart::Balance("alice".into()))
    );
    assert_eq!(
        read("naive-balance:alice"),
        Ok(StagePart::NaiveBalance("alice".into()))
    );
    assert_eq!(read("outcome:last"), Ok(StagePart::Attempt(1)));
    assert_eq!(
        read("account-balance:1"),
        Ok(StagePart::Balance("alice".into()))
    );
    assert_eq!(
        read("row-naive-balance:last"),
        Ok(StagePart::NaiveBalance("alice".into()))
    );
    assert_eq!(
        read("holds:at-most-once"),
        Ok(StagePart::Promise(Invariant::AtMostOnce))
    );
    assert_eq!(read("queued"), Ok(StagePart::Queue));
    assert_eq!(read("waiting-for-room"), Ok(StagePart::Waiting));
    assert_eq!(read("caller-timeout"), Ok(StagePart::Callers));
    assert_eq!(read("processing-time"), Ok(StagePart::Consumer));
    assert_eq!(read("store"), Ok(StagePart::Store));
    assert_eq!(read("emails"), Ok(StagePart::Mail));
    assert_eq!(
        read("outcome:2"),
        Err(FactError::Missing("outcome:2".into()))
    );
    assert_eq!(read("rows"), Ok(StagePart::Timeline));
    assert_eq!(read("read-balance"), Ok(StagePart::Read));
    assert!(matches!(read("luck"), Err(FactError::Unknown(_))));

    let stage = state.stage();
    assert!(stage.draws(&StagePart::Balance("alice".into())));
    assert!(stage.draws(&StagePart::NaiveBalance("alice".into())));
    assert!(stage.draws(&StagePart::Attempt(1)));
    assert!(stage.draws(&StagePart::Callers));
    for absent in [
        StagePart::Balance("bob".into()),
        StagePart::NaiveBalance("bob".into()),
        StagePart::Attempt(2),
        StagePart::Waiting,
        StagePart::Mail,
    ] {
        assert!(!stage.draws(&absent), "{absent:?}");
    }
    // Before anything is sent: no balance and no read; the queue is there,
    // and the callers' column with their deadline.
    let first = Tour::open(&content.scripts, 0, 0).unwrap();
    let stage = first.lab.state().stage();
    assert!(stage.draws(&StagePart::Callers));
    assert!(!stage.draws(&StagePart::Read));
    assert!(!stage.draws(&StagePart::Balance("alice".into())));
    assert!(stage.draws(&StagePart::Queue));
    assert!(stage.draws(&StagePart::Promise(Invariant::ReceiptHasGrant)));
}

#[test]
fn a_mark_that_is_no_fact_or_in_no_part_of_the_picture_is_refused() {
    let with_mark = |name: &str| {
        let mut scripts: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
        scripts["scenarios"][0]["steps"][1]["marks"] = serde_json::json!([name]);
        Content::parse(&scripts.to_string(), ENGLISH, "en")
    };
    assert!(with_mark("balance:alice").is_ok());
    let refused = |name: &str| match with_mark(name) {
        Err(e @ ContentError::Fact { .. }) => e.to_string(),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(refused("luck"), "s1: unknown fact `luck`");
    // A panel the lab does not have is no script at all.
    let mut scripts: serde_json::Value = serde_json::from_str(SCRIPTS).unwrap();
    scripts["scenarios"][0]["steps"][0]["shows"] = serde_json::json!(["inbox"]);
    assert!(matches!(
        Content::parse(&scripts.to_string(), ENGLISH, "en"),
        Err(ContentError::Parse { .. })
    ));
}

#[test]
fn a_step_shows_the_panels_it_names_and_all_when_it_names_none() {
    use idempotency_lab::walkthrough::Step;
    for panel in Panel::ALL {
        // The names in `data-panel` are the scripts' own.
        assert_eq!(
            serde_json::to_string(&panel).unwrap(),
            format!("\"{}\"", panel.code())
        );
    }
    let codes: Vec<_> = Panel::ALL.iter().map(|p| p.code()).collect();
    assert_eq!(codes, ["promises", "chart", "timeline"]);
    let any = Step::default();
    assert!(Panel::ALL.iter().all(|p| any.shows(*p)));
    let timeline_only = Step {
        shows: Some(vec![Panel::Timeline]),
        ..Step::default()
    };
    assert!(timeline_only.shows(Panel::Timeline));
    assert!(!timeline_only.shows(Panel::Chart));
    assert!(!timeline_only.shows(Panel::Promises));
    let none = Step {
        shows: Some(vec![]),
        ..Step::default()
    };
    assert!(Panel::ALL.iter().all(|p| !none.shows(*p)));
}

#[test]
fn an_attempt_is_drawn_wherever_it_is_in_the_queue_in_hand_or_on_its_way() {
    use idempotency_lab::lab::{Action, Lab, Setting, MAX_CALLERS};
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::Paused(true))).unwrap();
    lab.dispatch(Action::Burst {
        account_id: "alice".into(),
        points: 10,
        count: 20,
    })
    .unwrap();
    // They arrive (the transit) and wait in the paused queue.
    lab.dispatch(Action::Wait {
        ms: idempotency_lab::sim::DEFAULT_TRANSIT_MS,
    })
    .unwrap();
    let stage = lab.state().stage();
    assert_eq!(stage.callers.len(), MAX_CALLERS);
    // Attempt 1 is no caller drawn, and waits in the queue.
    assert!(stage.caller(1).is_none());
    assert!(stage.draws(&StagePart::Attempt(1)));
    // The consumer takes it: in hand, out of the queue.
    lab.dispatch(Action::Step).unwrap();
    let stage = lab.state().stage();
    let process = stage.running().next().unwrap();
    assert_eq!(process.in_hand, Some(1));
    assert!(!process.queue.contains(&1));
    assert!(stage.draws(&StagePart::Attempt(1)));
    // Neither queued nor in hand nor a caller nor on its way: not drawn.
    assert!(stage.tokens.iter().all(|t| t.attempt != Some(1)));
    lab.dispatch(Action::Wait { ms: 60_000 }).unwrap();
    let stage = lab.state().stage();
    assert!(stage.running().next().unwrap().in_hand != Some(1));
    let on_its_way = stage.tokens.iter().any(|t| t.attempt == Some(1));
    assert_eq!(
        stage.draws(&StagePart::Attempt(1)),
        on_its_way || stage.caller(1).is_some()
    );
    // On its way only: its answer travels back while newer callers are drawn.
    let mut lab = Lab::new();
    for n in 0..6 {
        lab.dispatch(Action::Send {
            grant: idempotency_lab::GrantPoints::new(format!("k-{n}"), "bob", 1),
            lose_acknowledgement: false,
        })
        .unwrap();
    }
    let mut seen_on_its_way = false;
    for _ in 0..200 {
        lab.dispatch(Action::Wait { ms: 10 }).unwrap();
        let stage = lab.state().stage();
        let busy = stage
            .running()
            .any(|p| p.queue.contains(&1) || p.in_hand == Some(1));
        let token = stage.tokens.iter().any(|t| t.attempt == Some(1));
        if stage.caller(1).is_none() && !busy && token {
            assert!(stage.draws(&StagePart::Attempt(1)));
            seen_on_its_way = true;
            break;
        }
    }
    assert!(
        seen_on_its_way,
        "attempt 1's answer was never seen on its way alone"
    );
}
