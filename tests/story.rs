#![cfg(not(target_arch = "wasm32"))]
//! The four numbered steps above the sandbox reach the article's numbers.

use idempotency_lab::lab::{story_step, Lab, Outcome, STORY_ACCOUNT, STORY_STEPS};

fn run(lab: &mut Lab, step: usize) {
    for action in story_step(step).unwrap() {
        lab.dispatch(action).unwrap();
    }
    lab.skip_to_idle().unwrap();
}

/// (outcome, receipt balance, current balance) of each row.
fn rows(lab: &Lab) -> Vec<(Outcome, Option<i32>, i32)> {
    lab.state()
        .timeline()
        .iter()
        .map(|r| {
            (
                r.outcome(),
                r.caller_receipt().map(|g| g.balance),
                r.balance_after,
            )
        })
        .collect()
}

#[test]
fn the_four_steps_reach_the_article_numbers_as_written() {
    let mut lab = Lab::new();
    run(&mut lab, 1);
    assert_eq!(rows(&lab), [(Outcome::TimeoutApplied, None, 100)]);
    assert_eq!(lab.state().store().balance(STORY_ACCOUNT), 100);

    run(&mut lab, 2);
    assert_eq!(rows(&lab)[1], (Outcome::Replayed, Some(100), 100));
    assert_eq!(lab.state().store().balance(STORY_ACCOUNT), 100);

    run(&mut lab, 3);
    assert_eq!(rows(&lab)[2], (Outcome::Rejected, None, 100));

    run(&mut lab, 4);
    assert_eq!(
        rows(&lab)[3..],
        [
            (Outcome::Applied, Some(125), 125),
            (Outcome::Replayed, Some(100), 125),
        ],
        "a later 25 makes 125; the first grant's receipt still says 100"
    );
    assert_eq!(lab.state().store().balance(STORY_ACCOUNT), 125);
}

#[test]
fn the_steps_are_numbered_one_to_four_and_nothing_else() {
    assert_eq!(STORY_STEPS, 4);
    for step in 1..=STORY_STEPS {
        assert!(!story_step(step).unwrap().is_empty(), "{step}");
    }
    assert!(story_step(0).is_none());
    assert!(story_step(STORY_STEPS + 1).is_none());
}
