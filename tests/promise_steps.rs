#![cfg(not(target_arch = "wasm32"))]
//! A lecturer's screen tells a promise broken at an earlier step from one the
//! step on show breaks: the steps at which each promise broke, in a section.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Invariant, Lab};
use idempotency_lab::walkthrough::{promise_steps, run_step, Content, PromiseSteps, Scenario};

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");
const ENGLISH: &str = include_str!("../walkthrough/en.json");

fn section(id: &str) -> Scenario {
    let content = Content::parse(SCRIPTS, ENGLISH, Lang::En.tag()).unwrap();
    content
        .scripts
        .scenarios
        .into_iter()
        .find(|s| s.id == id)
        .unwrap()
}

fn at_most_once(id: &str, step: usize) -> PromiseSteps {
    promise_steps(&section(id), step).unwrap()[Invariant::AtMostOnce as usize]
}

#[test]
fn a_promise_broken_before_the_fix_is_told_by_its_step() {
    // s10: the in-memory store grants twice at step 2, balance-first again at
    // step 6; the transaction of steps 7 to 9 breaks nothing.
    let fixed = at_most_once("s10", 8);
    assert_eq!(fixed.first, Some(1));
    assert_eq!(fixed.latest, Some(5));
    assert_eq!(fixed.broken_before(8), Some(5));
    // At step 6 itself the break is the step's own.
    assert_eq!(at_most_once("s10", 5).broken_before(5), None);
    assert_eq!(at_most_once("s10", 5).latest, Some(5));
    // Before step 2 nothing broke.
    assert_eq!(at_most_once("s10", 0), PromiseSteps::default());
    // Receipt first, crash between the writes: a receipt without its grant at
    // step 3, and again when step 4's retry ends on that receipt.
    let receipt =
        |step| promise_steps(&section("s10"), step).unwrap()[Invariant::ReceiptHasGrant as usize];
    assert_eq!((receipt(2).first, receipt(2).latest), (Some(2), Some(2)));
    assert_eq!((receipt(3).first, receipt(3).latest), (Some(2), Some(3)));
    assert_eq!(receipt(3).broken_before(3), None);
    assert_eq!(receipt(6).broken_before(6), Some(3));
}

#[test]
fn a_late_retry_after_the_receipt_was_swept_is_why_at_most_once_broke() {
    // s11 step 2: the retry came after the receipt was deleted.
    assert_eq!(at_most_once("s11", 1).latest, Some(1));
    assert_eq!(at_most_once("s11", 1).broken_before(1), None);
    assert_eq!(at_most_once("s11", 6).broken_before(6), Some(1));
    let regranted = |id: &str, upto: usize| {
        let script = section(id);
        let mut lab = Lab::new();
        for step in &script.steps[..=upto] {
            run_step(&mut lab, step).unwrap();
        }
        lab.state().invariants().regranted_after_expiry
    };
    assert_eq!(regranted("s11", 0), 0);
    assert_eq!(regranted("s11", 1), 1);
    // The ledger catches the next late retry: no grant again.
    assert_eq!(regranted("s11", 2), 1);
    // A break of another cause is not one after expiry.
    assert_eq!(regranted("s10", 8), 0);
}

#[test]
fn a_promise_never_broken_has_no_step() {
    for id in ["s1", "s5"] {
        let script = section(id);
        let last = script.steps.len() - 1;
        for steps in promise_steps(&script, last).unwrap() {
            assert_eq!(steps, PromiseSteps::default(), "{id}");
        }
    }
}

#[test]
fn a_step_the_lab_refuses_is_named_by_its_number_from_one() {
    use idempotency_lab::lab::Action;
    use idempotency_lab::walkthrough::ContentError;
    let mut script = section("s10");
    // A step of one delivery while the consumer runs: the lab refuses step 2.
    script.steps[1].actions = vec![Action::Step];
    match promise_steps(&script, 3) {
        Err(ContentError::Refused { scenario, step, .. }) => {
            assert_eq!((scenario.as_str(), step), ("s10", 2));
        }
        other => panic!("{other:?}"),
    }
}
