//! At-least-once delivery: a queue that delivers a message twice, and the
//! choice of acknowledging a message before or after the work. The idempotent
//! consumer returns the receipt to a copy; the naive one grants again.

mod common;

use common::{idle, lab_of, row, send};
use idempotency_lab::lab::{Action, Invariant, Lab, Origin, Outcome, Setting};
use idempotency_lab::sim::{Acknowledge, StoreKind};
use idempotency_lab::CrashPoint;

const ACCOUNT: &str = "account-7";

fn naive_balance(lab: &Lab) -> i32 {
    lab.state()
        .naive_balances()
        .iter()
        .find(|(a, _)| a == ACCOUNT)
        .map_or(0, |(_, b)| *b)
}

#[test]
fn a_redelivered_message_gets_the_receipt_here_and_grants_again_beside() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Naive(true)),
        Action::SetRedeliver { on: true },
        send("order-1042", 100),
    ]));
    assert!(
        !lab.state().faults().redeliver_next,
        "armed for one message"
    );
    let copy = row(&lab, 2);
    assert_eq!(copy.attempt.redelivery_of, Some(1));
    assert_eq!(copy.attempt.origin, Origin::Redelivered);
    assert_eq!(copy.outcome(), Outcome::Redelivered);
    assert!(matches!(
        copy.handled.as_ref().unwrap().store,
        Ok(idempotency_lab::StoreOutcome::Replayed(_))
    ));
    assert_eq!(row(&lab, 1).outcome(), Outcome::Applied);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert_eq!(
        naive_balance(&lab),
        200,
        "the naive consumer grants the copy again"
    );
    // Nobody waits for the copy: it has no deadline.
    let sent_copy = lab
        .state()
        .world()
        .events()
        .iter()
        .find_map(|e| match &e.what {
            idempotency_lab::sim::Happening::Sent {
                attempt: 2,
                deadline,
                ..
            } => Some(*deadline),
            _ => None,
        });
    assert_eq!(sent_copy, Some(None));
    // The next attempt is numbered after the copy, and a retry resends the
    // person's request, not the queue's copy.
    let mut lab = lab;
    lab.dispatch(common::retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 3).attempt.origin, Origin::RetrySame);
    assert_eq!(row(&lab, 3).outcome(), Outcome::Replayed);
    assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
}

/// A crash before the writes, with the message in the consumer's hands.
fn crash_in_hand(ack: Acknowledge, kind: StoreKind, point: CrashPoint) -> Lab {
    idle(lab_of(&[
        Action::Set(Setting::Store(kind)),
        Action::Set(Setting::Acknowledge(ack)),
        Action::SetCrashPoint { point: Some(point) },
        send("order-1042", 100),
    ]))
}

#[test]
fn acknowledged_before_the_work_a_crash_loses_the_message() {
    let lab = crash_in_hand(
        Acknowledge::BeforeWork,
        StoreKind::OneTransaction,
        CrashPoint::BeforeWrites,
    );
    assert_eq!(lab.state().timeline().len(), 1, "no copy");
    assert_eq!(row(&lab, 1).outcome(), Outcome::ProcessEnded);
    assert_eq!(lab.state().store().balance(ACCOUNT), 0, "the work is lost");
}

#[test]
fn acknowledged_after_the_work_a_crash_redelivers_it_to_the_new_process() {
    let lab = crash_in_hand(
        Acknowledge::AfterWork,
        StoreKind::OneTransaction,
        CrashPoint::BeforeWrites,
    );
    let copy = row(&lab, 2);
    assert_eq!(copy.attempt.redelivery_of, Some(1));
    assert_eq!(copy.attempt.process, 2, "the process that took over");
    assert!(copy.handled.as_ref().unwrap().applied());
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    // Crashed after commit: the copy finds the committed receipt.
    let lab = crash_in_hand(
        Acknowledge::AfterWork,
        StoreKind::OneTransaction,
        CrashPoint::AfterCommit,
    );
    assert!(!row(&lab, 2).handled.as_ref().unwrap().applied());
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
    // Balance first, crashed between the writes: the copy grants again, as a
    // retry would; acknowledging late is only as safe as the store is.
    let lab = crash_in_hand(
        Acknowledge::AfterWork,
        StoreKind::BalanceFirst,
        CrashPoint::BetweenWrites,
    );
    assert_eq!(lab.state().store().balance(ACCOUNT), 200);
    assert!(!lab.state().invariants().holds(Invariant::AtMostOnce));
}

/// Two messages queued at a paused consumer, then a restart.
fn restart_with_two_queued(ack: Acknowledge) -> Lab {
    idle(lab_of(&[
        Action::Set(Setting::Acknowledge(ack)),
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Paused(true)),
        send("a", 1),
        send("b", 2),
        Action::Restart,
        Action::Set(Setting::Paused(false)),
    ]))
}

#[test]
fn acknowledged_after_the_work_a_restart_redelivers_everything_queued() {
    let lab = restart_with_two_queued(Acknowledge::AfterWork);
    let copies: Vec<(u64, Option<u64>)> = lab
        .state()
        .timeline()
        .iter()
        .filter(|r| r.attempt.redelivery_of.is_some())
        .map(|r| (r.attempt.id, r.attempt.redelivery_of))
        .collect();
    assert_eq!(copies, vec![(3, Some(1)), (4, Some(2))]);
    assert_eq!(lab.state().store().balance(ACCOUNT), 3);
    // Acknowledged before the work, the in-process queue forgets them.
    let lab = restart_with_two_queued(Acknowledge::BeforeWork);
    assert_eq!(lab.state().timeline().len(), 2);
    assert_eq!(lab.state().store().balance(ACCOUNT), 0);
}

#[test]
fn the_settings_are_part_of_the_history() {
    let json = serde_json::to_string(&[
        Action::SetRedeliver { on: true },
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
    ])
    .unwrap();
    assert_eq!(
        json,
        r#"[{"set-redeliver":{"on":true}},{"set":{"acknowledge":"after-work"}}]"#
    );
    for ack in Acknowledge::ALL {
        assert_eq!(Acknowledge::from_code(ack.code()), Some(ack));
    }
    assert_eq!(Acknowledge::from_code("never"), None);
    let lab = lab_of(&[
        Action::SetRedeliver { on: true },
        Action::SetRedeliver { on: false },
    ]);
    assert!(!lab.state().faults().redeliver_next);
}

// Found in review: messages of the queue's own that were lost, and copies
// judged by whoever signed in since.

#[test]
fn a_copy_still_on_its_way_is_delivered_again_when_its_process_ends() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        Action::Set(Setting::CallerTimeoutMs(600_000)),
        Action::Set(Setting::ProcessingMs(1_000)),
        // One in hand and sixteen queued.
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 17,
        },
        Action::Wait { ms: 10 },
        Action::Set(Setting::Paused(true)),
        // Seventeen copies: sixteen queued, one waiting for room ...
        Action::Restart,
        // ... which must not be lost with this process.
        Action::Restart,
        Action::Set(Setting::Paused(false)),
    ]));
    assert_eq!(lab.state().store().balance(ACCOUNT), 17);
}

#[test]
fn a_message_taken_after_the_work_stays_owed_when_the_setting_changes() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        Action::Set(Setting::ProcessingMs(1_000)),
        send("order-1042", 100),
        Action::Wait { ms: 10 },
        Action::Set(Setting::Acknowledge(Acknowledge::BeforeWork)),
        Action::Restart,
    ]));
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn a_copy_is_not_judged_by_whoever_signed_in_since() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        Action::SignIn {
            account_id: Some(ACCOUNT.into()),
        },
        Action::Set(Setting::Paused(true)),
        send("order-1042", 100),
        Action::SignIn {
            account_id: Some("account-8".into()),
        },
        Action::Restart,
        Action::Set(Setting::Paused(false)),
    ]));
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert!(row(&lab, 2).forbidden.is_none());
}

#[test]
fn a_request_refused_at_the_door_has_no_copy_and_leaves_the_fault_armed() {
    let lab = idle(lab_of(&[
        Action::SignIn {
            account_id: Some("account-8".into()),
        },
        Action::SetRedeliver { on: true },
        send("order-1042", 100),
    ]));
    assert_eq!(lab.state().timeline().len(), 1);
    assert_eq!(row(&lab, 1).outcome(), Outcome::Forbidden);
    assert!(lab.state().faults().redeliver_next);
}

// Asked for by the mutants: what the queue must not deliver again.

#[test]
fn a_message_acknowledged_after_the_work_is_not_delivered_again_by_a_later_restart() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        send("order-1042", 100),
    ]));
    let mut lab = lab;
    lab.dispatch(Action::Restart).unwrap();
    let lab = idle(lab);
    assert_eq!(
        lab.state().timeline().len(),
        1,
        "no copy of a finished message"
    );
}

#[test]
fn a_callers_message_still_waiting_for_room_is_its_callers_not_the_queues() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Acknowledge(Acknowledge::AfterWork)),
        Action::Set(Setting::CallerTimeoutMs(600_000)),
        Action::Set(Setting::Paused(true)),
        // Sixteen queued, and a seventeenth waiting for room.
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 17,
        },
        Action::Restart,
        Action::Set(Setting::Paused(false)),
    ]));
    let copies = lab
        .state()
        .timeline()
        .iter()
        .filter(|r| r.attempt.redelivery_of.is_some())
        .count();
    assert_eq!(
        copies, 16,
        "the one waiting for room hears the process ended"
    );
    assert_eq!(row(&lab, 17).outcome(), Outcome::ProcessEnded);
    assert_eq!(lab.state().store().balance(ACCOUNT), 16);
}
