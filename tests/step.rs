#![cfg(not(target_arch = "wasm32"))]
//! Stepping a paused consumer: `Action::Step` lets it take the delivery at the
//! head of the queue now, apply it after the processing time, and then it is held
//! again. The naive worker beside steps with it, one delivery each, and a step it
//! could not use lets nothing by later. Refused steps change nothing, and a
//! history with steps replays, undoes and redoes exactly.
//!
//! Default caller timeout 3,000 ms, processing 100 ms. The number of property
//! cases comes from `PROPTEST_CASES` (default 10,000).

mod common;
use common::instant_lab;
use common::{event_log, lab_of};

use std::collections::VecDeque;

use idempotency_lab::lab::{from_json, to_json, Action, Lab, LabError, Outcome, Setting, Truth};
use idempotency_lab::sim::{AttemptId, Happening, Millis};
use idempotency_lab::{GrantError, GrantPoints, StoreOutcome};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const ACCOUNT: &str = "account-7";
const PROCESSING_MS: Millis = 100;
const CALLER_TIMEOUT_MS: Millis = 3_000;

fn send(key: &str, points: i32) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, ACCOUNT, points),
        lose_acknowledgement: false,
    }
}

fn pause(on: bool) -> Action {
    Action::Set(Setting::Paused(on))
}

/// The attempts of every event of one kind, in log order.
fn attempts_where(lab: &Lab, kind: impl Fn(&Happening) -> bool) -> Vec<AttemptId> {
    lab.state()
        .world()
        .events()
        .iter()
        .filter(|e| kind(&e.what))
        .filter_map(|e| e.what.attempt())
        .collect()
}

fn taken(lab: &Lab) -> Vec<AttemptId> {
    attempts_where(lab, |h| matches!(h, Happening::Taken { .. }))
}

fn handled(lab: &Lab) -> Vec<AttemptId> {
    attempts_where(lab, |h| matches!(h, Happening::Handled { .. }))
}

fn naive_handled(lab: &Lab) -> Vec<AttemptId> {
    attempts_where(lab, |h| matches!(h, Happening::NaiveHandled { .. }))
}

fn queue_ids(lab: &Lab) -> Vec<AttemptId> {
    lab.state().queue().iter().map(|a| a.id).collect()
}

fn in_hand_id(lab: &Lab) -> Option<AttemptId> {
    lab.state().in_hand().map(|a| a.id)
}

/// When each attempt was handled by the idempotent store.
fn handled_at(lab: &Lab, attempt: AttemptId) -> Option<Millis> {
    lab.state()
        .world()
        .events()
        .iter()
        .find(|e| matches!(e.what, Happening::Handled { attempt: a, .. } if a == attempt))
        .map(|e| e.at)
}

/// Everything a refused action must leave as it was.
fn fingerprint(
    lab: &Lab,
) -> (
    String,
    String,
    Millis,
    Vec<AttemptId>,
    Option<AttemptId>,
    bool,
) {
    (
        event_log(lab),
        serde_json::to_string(lab.history()).unwrap(),
        lab.state().now(),
        queue_ids(lab),
        in_hand_id(lab),
        lab.state().settings().paused,
    )
}

fn assert_refused(lab: &mut Lab, expected: LabError) {
    let before = fingerprint(lab);
    let length = lab.history().actions.len();
    assert_eq!(lab.dispatch(Action::Step), Err(expected));
    assert_eq!(lab.history().actions.len(), length);
    assert_eq!(fingerprint(lab), before, "a refused step changes nothing");
}

/// Paused, then three grants of 100, 20 and 3 points (each amount names its
/// grant, so balances show which were applied).
fn three_queued() -> Lab {
    lab_of(&[
        pause(true),
        send("order-1", 100),
        send("order-2", 20),
        send("order-3", 3),
    ])
}

// ---------------------------------------------------------------------------------
// One step, one delivery
// ---------------------------------------------------------------------------------

#[test]
fn a_step_takes_the_head_of_the_queue_now_and_applies_it_after_the_processing_time() {
    let mut lab = three_queued();
    assert_eq!(queue_ids(&lab), [1, 2, 3]);
    assert_eq!(in_hand_id(&lab), None);
    assert!(taken(&lab).is_empty(), "a paused consumer takes nothing");

    lab.dispatch(Action::Step).unwrap();
    // Taken now, not applied yet.
    assert_eq!(lab.state().now(), 0);
    assert_eq!(in_hand_id(&lab), Some(1));
    assert_eq!(lab.state().in_hand().unwrap().grant.key, "order-1");
    assert_eq!(queue_ids(&lab), [2, 3]);
    assert_eq!(taken(&lab), [1]);
    assert!(handled(&lab).is_empty());
    assert_eq!(lab.state().store().balance(ACCOUNT), 0);
    assert!(lab.state().settings().paused);

    lab.skip_to_idle().unwrap();
    // Exactly one handled, the first sent, after the processing time.
    assert_eq!(taken(&lab), [1]);
    assert_eq!(handled(&lab), [1]);
    assert_eq!(handled_at(&lab, 1), Some(PROCESSING_MS));
    assert_eq!(in_hand_id(&lab), None);
    assert_eq!(queue_ids(&lab), [2, 3], "the others stay queued");
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert!(lab.state().settings().paused);
    // The stepped caller got its receipt; the others timed out, still queued.
    let timeline = lab.state().timeline();
    assert_eq!(timeline.len(), 3);
    let first = timeline.iter().find(|r| r.attempt.id == 1).unwrap();
    assert_eq!(first.outcome(), Outcome::Applied);
    assert_eq!(first.answered_at, Some(PROCESSING_MS));
    assert_eq!(first.caller_receipt().unwrap().balance, 100);
    for id in [2, 3] {
        let row = timeline.iter().find(|r| r.attempt.id == id).unwrap();
        assert_eq!(row.caller, Some(Err(GrantError::Timeout)));
        assert_eq!(row.answered_at, Some(CALLER_TIMEOUT_MS));
        assert_eq!(row.truth(), Some(Truth::Pending), "attempt {id}");
        assert_eq!(row.handled, None);
    }
}

#[test]
fn three_steps_apply_all_three_in_the_order_sent() {
    let mut lab = three_queued();
    let mut expected_balance = 0;
    for (id, points) in [(1, 100), (2, 20), (3, 3)] {
        assert_eq!(queue_ids(&lab).first(), Some(&id), "head before the step");
        let at = lab.state().now();
        lab.dispatch(Action::Step).unwrap();
        assert_eq!(in_hand_id(&lab), Some(id));
        lab.skip_to_idle().unwrap();
        expected_balance += points;
        assert_eq!(handled(&lab), (1..=id).collect::<Vec<_>>());
        assert_eq!(handled_at(&lab, id), Some(at + PROCESSING_MS));
        assert_eq!(lab.state().store().balance(ACCOUNT), expected_balance);
        assert!(
            lab.state().settings().paused,
            "a step does not release the consumer"
        );
    }
    assert_eq!(taken(&lab), [1, 2, 3]);
    assert!(queue_ids(&lab).is_empty());
    assert_eq!(lab.state().store().balance(ACCOUNT), 123);
    // Each receipt holds the balance its own grant made.
    for (key, points, balance) in [
        ("order-1", 100, 100),
        ("order-2", 20, 120),
        ("order-3", 3, 123),
    ] {
        let receipt = lab.state().store().receipt(ACCOUNT, key).unwrap();
        assert_eq!(
            (receipt.points, receipt.balance),
            (points, balance),
            "{key}"
        );
    }
    // The two that timed out while queued were applied later.
    for id in [2, 3] {
        let row = lab
            .state()
            .timeline()
            .iter()
            .find(|r| r.attempt.id == id)
            .unwrap();
        assert_eq!(row.outcome(), Outcome::TimeoutApplied);
        assert_eq!(
            row.truth(),
            Some(Truth::AppliedAfterTimeout),
            "attempt {id}"
        );
    }
    // Nothing left to step.
    assert_refused(&mut lab, LabError::NothingToStep);
}

#[test]
fn after_a_step_the_consumer_is_held_again() {
    let mut lab = three_queued();
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    lab.dispatch(send("order-4", 4000)).unwrap();
    lab.dispatch(Action::Wait { ms: 10_000 }).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(taken(&lab), [1], "nothing else is taken without a step");
    assert_eq!(queue_ids(&lab), [2, 3, 4]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    // Releasing the consumer takes the rest, in order.
    lab.dispatch(pause(false)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1, 2, 3, 4]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 4123);
}

#[test]
fn a_step_with_no_processing_time_applies_at_once() {
    let mut lab = lab_of(&[
        Action::Set(Setting::ProcessingMs(0)),
        pause(true),
        send("order-1", 100),
        send("order-2", 20),
    ]);
    lab.dispatch(Action::Step).unwrap();
    assert_eq!(handled(&lab), [1]);
    assert_eq!(in_hand_id(&lab), None);
    assert_eq!(queue_ids(&lab), [2], "and only the one");
    assert_eq!(lab.state().now(), 0);
    lab.dispatch(Action::Step).unwrap();
    assert_eq!(handled(&lab), [1, 2]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 120);
}

// ---------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------

#[test]
fn a_step_is_refused_unless_paused() {
    let mut lab = instant_lab();
    // Not paused, queue empty: not paused is the reason.
    assert_refused(&mut lab, LabError::StepNotPaused);
    lab.dispatch(send("order-1", 100)).unwrap();
    assert_refused(&mut lab, LabError::StepNotPaused);
    lab.skip_to_idle().unwrap();
    assert_refused(&mut lab, LabError::StepNotPaused);
    // Paused and released again.
    let mut lab = three_queued();
    lab.dispatch(Action::Step).unwrap();
    lab.dispatch(pause(false)).unwrap();
    assert_refused(&mut lab, LabError::StepNotPaused);
}

#[test]
fn a_step_is_refused_with_nothing_queued_or_a_delivery_in_hand() {
    let mut lab = lab_of(&[pause(true)]);
    assert_refused(&mut lab, LabError::NothingToStep);
    lab.dispatch(Action::Wait { ms: 500 }).unwrap();
    assert_refused(&mut lab, LabError::NothingToStep);

    let mut lab = three_queued();
    lab.dispatch(Action::Step).unwrap();
    // Still applying the first: no second step until it is done.
    assert_refused(&mut lab, LabError::NothingToStep);
    lab.dispatch(Action::Wait {
        ms: PROCESSING_MS - 1,
    })
    .unwrap();
    assert_eq!(in_hand_id(&lab), Some(1));
    assert_refused(&mut lab, LabError::NothingToStep);
    lab.dispatch(Action::Wait { ms: 1 }).unwrap();
    assert_eq!(in_hand_id(&lab), None);
    lab.dispatch(Action::Step).unwrap();
    assert_eq!(in_hand_id(&lab), Some(2));
    assert_eq!(taken(&lab), [1, 2]);
}

#[test]
fn a_refused_step_after_a_restart_and_a_step_in_the_new_process() {
    let mut lab = three_queued();
    lab.dispatch(Action::Step).unwrap();
    lab.dispatch(Action::Restart).unwrap();
    // The queue and the delivery in hand went with the old process.
    assert_eq!(in_hand_id(&lab), None);
    assert!(queue_ids(&lab).is_empty());
    assert!(
        lab.state().settings().paused,
        "the new process is paused too"
    );
    assert_refused(&mut lab, LabError::NothingToStep);
    lab.dispatch(send("order-4", 4)).unwrap();
    lab.dispatch(Action::Step).unwrap();
    assert_eq!(in_hand_id(&lab), Some(4));
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [4]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 4);
}

// ---------------------------------------------------------------------------------
// The naive worker beside
// ---------------------------------------------------------------------------------

#[test]
fn with_the_naive_worker_beside_each_consumer_takes_one_per_step() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Naive(true)),
        pause(true),
        send("order-1", 100),
        send("order-2", 20),
    ]);
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1]);
    assert_eq!(
        naive_handled(&lab),
        [1],
        "the naive side takes one, not both"
    );
    assert_eq!(lab.state().world().naive_store().balance(ACCOUNT), 100);
    assert_eq!(lab.state().naive_balances(), [(ACCOUNT.to_owned(), 100)]);
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1, 2]);
    assert_eq!(naive_handled(&lab), [1, 2]);
    assert_eq!(lab.state().world().naive_store().balance(ACCOUNT), 120);
    assert!(lab.state().settings().paused);
}

#[test]
fn each_consumer_takes_the_head_of_its_own_queue() {
    // The first grant goes to the idempotent worker only; the second to both.
    let mut lab = lab_of(&[
        pause(true),
        send("order-1", 100),
        Action::Set(Setting::Naive(true)),
        send("order-2", 20),
    ]);
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1]);
    assert_eq!(naive_handled(&lab), [2], "the head of the naive queue is 2");
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1, 2]);
    assert_eq!(naive_handled(&lab), [2], "the naive queue was empty");
}

#[test]
fn a_step_the_naive_consumer_could_not_use_lets_nothing_by_later() {
    let mut lab = lab_of(&[
        pause(true),
        send("order-1", 100),
        Action::Set(Setting::Naive(true)),
    ]);
    // The naive queue is empty at this step.
    lab.dispatch(Action::Step).unwrap();
    lab.dispatch(send("order-2", 20)).unwrap();
    lab.dispatch(send("order-3", 3)).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1]);
    assert!(
        naive_handled(&lab).is_empty(),
        "the naive consumer must stay held: {:?}",
        naive_handled(&lab)
    );
    assert_eq!(lab.state().world().naive_store().balance(ACCOUNT), 0);
    // The same while the idempotent consumer is still applying the first.
    let mut lab = lab_of(&[
        pause(true),
        send("order-1", 100),
        Action::Set(Setting::Naive(true)),
    ]);
    lab.dispatch(Action::Step).unwrap();
    lab.dispatch(Action::Wait { ms: 10 }).unwrap();
    lab.dispatch(send("order-2", 20)).unwrap();
    lab.skip_to_idle().unwrap();
    assert!(naive_handled(&lab).is_empty(), "{:?}", naive_handled(&lab));
    // The next step lets each take one.
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    assert_eq!(handled(&lab), [1, 2]);
    assert_eq!(naive_handled(&lab), [2]);
}

// ---------------------------------------------------------------------------------
// Undo, redo and replay
// ---------------------------------------------------------------------------------

fn stepped_history() -> Vec<Action> {
    vec![
        Action::Set(Setting::Naive(true)),
        pause(true),
        send("order-1", 100),
        send("order-2", 20),
        Action::Step,
        Action::Wait { ms: 250 },
        send("order-3", 3),
        Action::Step,
        Action::Wait { ms: 40 },
        Action::Set(Setting::ProcessingMs(30)),
        Action::Wait { ms: 4_000 },
        Action::Step,
        Action::Wait { ms: 100 },
    ]
}

#[test]
fn undo_and_redo_of_a_step_are_exact() {
    let mut lab = lab_of(&stepped_history());
    let full = (event_log(&lab), lab.state().timeline().to_vec());
    assert_eq!(handled(&lab), [1, 2, 3]);
    assert_eq!(handled_at(&lab, 3), Some(250 + 40 + 4_000 + 30));

    // Undo takes back the last step with the time after it.
    lab.undo().unwrap();
    let history = stepped_history();
    let without_last_step = lab_of(&history[..history.len() - 2]);
    assert_eq!(lab.history(), without_last_step.history());
    assert_eq!(event_log(&lab), event_log(&without_last_step));
    assert_eq!(lab.state().timeline(), without_last_step.state().timeline());
    assert_eq!(handled(&lab), [1, 2]);
    assert_eq!(queue_ids(&lab), [3]);

    lab.redo().unwrap();
    // (After the transit of 0 the test's lab starts with.)
    assert_eq!(lab.history().actions[1..], stepped_history());
    assert_eq!((event_log(&lab), lab.state().timeline().to_vec()), full);

    // Undo back past every step, then redo all of it.
    let mut undone = 0;
    while lab.can_undo() {
        lab.undo().unwrap();
        undone += 1;
    }
    // Every action, the lab's first (a transit of 0) included.
    assert_eq!(undone, 10);
    assert!(taken(&lab).is_empty());
    while lab.can_redo() {
        lab.redo().unwrap();
    }
    assert_eq!(lab.history().actions[1..], stepped_history());
    assert_eq!((event_log(&lab), lab.state().timeline().to_vec()), full);
}

#[test]
fn a_session_with_steps_replays_to_the_same_timeline() {
    let lab = lab_of(&stepped_history());
    let json = to_json(lab.history());
    assert!(json.contains("\"step\""), "a step is saved by name: {json}");
    let copy = from_json(&json).unwrap();
    assert_eq!(copy.history(), lab.history());
    assert_eq!(copy.state().timeline(), lab.state().timeline());
    assert_eq!(event_log(&copy), event_log(&lab));
    assert_eq!(
        copy.state().store().balances(),
        lab.state().store().balances()
    );
    assert_eq!(copy.state().naive_balances(), lab.state().naive_balances());
    let replayed = Lab::replay(lab.history()).unwrap();
    assert_eq!(event_log(&replayed), event_log(&lab));
    // A step saved where it would be refused makes the whole session refused.
    let bad = to_json(&idempotency_lab::lab::History {
        actions: vec![Action::Step],
    });
    assert!(from_json(&bad).is_err());
    let replay = Lab::replay(&idempotency_lab::lab::History {
        actions: vec![pause(true), Action::Step],
    });
    let error = replay.unwrap_err();
    assert_eq!((error.index, error.error), (1, LabError::NothingToStep));
}

// ---------------------------------------------------------------------------------
// Property: each accepted step takes exactly one delivery
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Op {
    Send(i32),
    Step,
    Wait(Millis),
    Processing(Millis),
    Naive(bool),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1..50i32).prop_map(Op::Send),
        5 => Just(Op::Step),
        3 => prop_oneof![1..120u64, Just(PROCESSING_MS), 100..5_000u64].prop_map(Op::Wait),
        1 => prop::sample::select(vec![0u64, 1, 50, PROCESSING_MS, 250]).prop_map(Op::Processing),
        1 => any::<bool>().prop_map(Op::Naive),
    ]
}

/// Sends beyond this are left out, so every send fits in the queue (16).
const MAX_SENDS: u64 = 14;

/// What the rule says a paused world with steps does: one consumer on each side,
/// each taking the head of its own queue when a step is accepted and its hands
/// are free, and done with it once the processing time has passed.
#[derive(Debug, Default)]
struct Model {
    now: Millis,
    processing: Millis,
    sent: AttemptId,
    naive_on: bool,
    /// Taken on the idempotent side: attempts 1..=taken, and when each is done.
    taken: AttemptId,
    done_at: Vec<Millis>,
    naive_queue: VecDeque<AttemptId>,
    /// Taken on the naive side: (attempt, done at).
    naive_taken: Vec<(AttemptId, Millis)>,
    accepted_steps: u64,
}

impl Model {
    fn busy(&self) -> bool {
        self.done_at.last().is_some_and(|&at| at > self.now)
    }

    fn naive_busy(&self) -> bool {
        self.naive_taken
            .last()
            .is_some_and(|&(_, at)| at > self.now)
    }

    fn handled(&self) -> Vec<AttemptId> {
        (1..=self.taken)
            .filter(|&id| self.done_at[(id - 1) as usize] <= self.now)
            .collect()
    }

    fn naive_handled(&self) -> Vec<AttemptId> {
        self.naive_taken
            .iter()
            .filter(|&&(_, at)| at <= self.now)
            .map(|&(id, _)| id)
            .collect()
    }

    fn step_allowed(&self) -> bool {
        self.taken < self.sent && !self.busy()
    }

    fn step(&mut self) {
        self.accepted_steps += 1;
        self.taken += 1;
        self.done_at.push(self.now + self.processing);
        if !self.naive_busy() {
            if let Some(id) = self.naive_queue.pop_front() {
                self.naive_taken.push((id, self.now + self.processing));
            }
        }
    }
}

fn check(lab: &Lab, model: &Model) -> Result<(), TestCaseError> {
    prop_assert!(lab.state().settings().paused);
    prop_assert_eq!(lab.state().now(), model.now);
    prop_assert_eq!(taken(lab), (1..=model.taken).collect::<Vec<_>>());
    prop_assert_eq!(taken(lab).len() as u64, model.accepted_steps);
    prop_assert_eq!(handled(lab), model.handled());
    prop_assert_eq!(naive_handled(lab), model.naive_handled());
    prop_assert_eq!(in_hand_id(lab), model.busy().then_some(model.taken));
    prop_assert_eq!(
        queue_ids(lab),
        (model.taken + 1..=model.sent).collect::<Vec<_>>()
    );
    Ok(())
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut lab = lab_of(&[pause(true)]);
    let mut model = Model {
        processing: PROCESSING_MS,
        ..Model::default()
    };
    for op in ops {
        let action = match op {
            Op::Send(_) if model.sent >= MAX_SENDS => continue,
            Op::Send(points) => send(&format!("k-{}", model.sent + 1), *points),
            Op::Step => Action::Step,
            Op::Wait(ms) => Action::Wait { ms: *ms },
            Op::Processing(ms) => Action::Set(Setting::ProcessingMs(*ms)),
            Op::Naive(on) => Action::Set(Setting::Naive(*on)),
        };
        let before = (event_log(&lab), lab.history().actions.len());
        let result = lab.dispatch(action);
        match op {
            Op::Step if model.step_allowed() => {
                prop_assert_eq!(result, Ok(()));
                model.step();
            }
            Op::Step => {
                prop_assert_eq!(result, Err(LabError::NothingToStep));
                prop_assert_eq!((event_log(&lab), lab.history().actions.len()), before);
            }
            _ => prop_assert_eq!(result, Ok(())),
        }
        match op {
            Op::Send(_) => {
                model.sent += 1;
                if model.naive_on {
                    model.naive_queue.push_back(model.sent);
                }
            }
            Op::Wait(ms) => model.now += ms,
            Op::Processing(ms) => model.processing = *ms,
            Op::Naive(on) => model.naive_on = *on,
            Op::Step => {}
        }
        check(&lab, &model)?;
    }
    // Let everything run out: each accepted step was exactly one delivery applied.
    lab.skip_to_idle().unwrap();
    model.now = lab.state().now();
    check(&lab, &model)?;
    prop_assert_eq!(handled(&lab).len() as u64, model.accepted_steps);
    prop_assert_eq!(taken(&lab).len() as u64, model.accepted_steps);
    prop_assert!(in_hand_id(&lab).is_none());
    let expected_balance: i32 = ops
        .iter()
        .filter_map(|op| match op {
            Op::Send(points) => Some(*points),
            _ => None,
        })
        .take(MAX_SENDS as usize)
        .take(model.accepted_steps as usize)
        .sum();
    prop_assert_eq!(lab.state().store().balance(ACCOUNT), expected_balance);
    // The history replays to the same world, steps and refusals alike.
    let replayed = Lab::replay(lab.history()).unwrap();
    prop_assert_eq!(event_log(&replayed), event_log(&lab));
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn each_accepted_step_takes_exactly_one_delivery(ops in vec(op(), 0..40)) {
        run(&ops)?;
    }
}

/// The generator reaches what the property is about: accepted and refused steps,
/// steps with the naive queue empty, and deliveries left queued at the end.
#[test]
fn the_generator_reaches_accepted_and_refused_steps() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut accepted, mut refused, mut left) = (0, 0, 0);
    for _ in 0..200 {
        let ops = vec(op(), 0..40).new_tree(&mut runner).unwrap().current();
        let mut lab = lab_of(&[pause(true)]);
        let mut sent = 0;
        for op in &ops {
            let action = match op {
                Op::Send(_) if sent >= MAX_SENDS => continue,
                Op::Send(p) => {
                    sent += 1;
                    send(&format!("k-{sent}"), *p)
                }
                Op::Step => Action::Step,
                Op::Wait(ms) => Action::Wait { ms: *ms },
                Op::Processing(ms) => Action::Set(Setting::ProcessingMs(*ms)),
                Op::Naive(on) => Action::Set(Setting::Naive(*on)),
            };
            match (op, lab.dispatch(action)) {
                (Op::Step, Ok(())) => accepted += 1,
                (Op::Step, Err(_)) => refused += 1,
                _ => {}
            }
        }
        left += lab.state().queue().len();
    }
    assert!(accepted > 200, "accepted steps: {accepted}");
    assert!(refused > 200, "refused steps: {refused}");
    assert!(left > 100, "deliveries left queued: {left}");
}

#[test]
fn a_stepped_receipt_is_the_one_the_store_made() {
    let mut lab = three_queued();
    lab.dispatch(Action::Step).unwrap();
    lab.skip_to_idle().unwrap();
    let row = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 1)
        .unwrap();
    let handling = row.handled.as_ref().unwrap();
    let Ok(StoreOutcome::Applied(receipt)) = &handling.store else {
        panic!("applied: {handling:?}");
    };
    assert_eq!(Some(receipt), row.caller_receipt());
    assert_eq!(receipt.balance, 100);
}
