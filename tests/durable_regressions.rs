//! Histories a review found wrong, kept so they stay right.

mod common;

use common::lab_of;
use idempotency_lab::lab::{Action, AttemptRow, Lab, Outcome, RegrantCause, Setting};
use idempotency_lab::sim::{Routing, StoreKind, HOUR_MS};
use idempotency_lab::GrantPoints;

fn send(key: &str) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, "account-7", 100),
        lose_acknowledgement: false,
    }
}

fn handled(lab: &Lab) -> usize {
    lab.state()
        .world()
        .events()
        .iter()
        .filter(|e| matches!(e.what, idempotency_lab::sim::Happening::Handled { .. }))
        .count()
}

#[test]
fn a_receipt_expiring_in_the_instant_a_timer_is_due_neither_panics_nor_skips_it() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::RetentionHours(1)),
        send("k1"),
        Action::Wait { ms: HOUR_MS },
        send("k2"),
        Action::Wait { ms: 1_000 },
    ]);
    lab.skip_to_idle().unwrap();
    assert_eq!(lab.state().invariants().expired, 1);
    assert_eq!(lab.state().store().balance("account-7"), 200);
}

#[test]
fn one_step_with_two_processes_lets_each_consumer_take_one_delivery() {
    let lab = lab_of(&[
        Action::Set(Setting::ProcessingMs(0)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Routing(Routing::Only(1))),
        Action::Set(Setting::Paused(true)),
        send("a"),
        send("b"),
        send("c"),
        Action::Step,
    ]);
    assert_eq!(
        handled(&lab),
        1,
        "process 1's consumer took one; process 2 had none"
    );
    assert_eq!(lab.state().queue().len(), 2);
}

#[test]
fn asking_for_the_processes_already_running_changes_nothing() {
    let lab = lab_of(&[
        Action::Set(Setting::Processes(2)),
        send("a"),
        Action::Set(Setting::Processes(2)),
        send("b"),
    ]);
    let processes: Vec<u32> = (1..=2)
        .map(|id| lab.state().attempt_by_id(id).unwrap().process)
        .collect();
    assert_eq!(processes, [1, 2], "the round robin goes on where it was");
}

#[test]
fn a_page_as_long_as_the_durable_receipts_holds_them_all_in_order() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        send("k10"),
        send("k2"),
    ]);
    lab.skip_to_idle().unwrap();
    let (page, total) = lab.state().world().durable_store().receipts_page(2);
    let keys: Vec<&str> = page.iter().map(|r| r.key.as_str()).collect();
    assert_eq!((keys, total), (vec!["k2", "k10"], 2));
    let (page, total) = lab.state().world().durable_store().receipts_page(1);
    assert_eq!((page[0].key.as_str(), page.len(), total), ("k2", 1, 2));
}

/// The cause the timeline gives for attempt 2 granting again.
fn cause(actions: &[Action]) -> Option<RegrantCause> {
    let mut lab = lab_of(actions);
    lab.skip_to_idle().unwrap();
    let row = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 2)
        .unwrap();
    row.handled.as_ref().unwrap().regrant_cause
}

#[test]
fn a_grant_made_again_is_told_by_its_cause() {
    let retry = Action::RetrySame {
        lose_acknowledgement: false,
    };
    let two = |kind| {
        vec![
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
            send("order-1042"),
            retry.clone(),
        ]
    };
    assert_eq!(
        cause(&two(StoreKind::InMemory)),
        Some(RegrantCause::OtherProcess)
    );
    assert_eq!(
        cause(&two(StoreKind::BalanceFirst)),
        Some(RegrantCause::Race)
    );
    let restarted = [
        send("order-1042"),
        Action::Wait { ms: 200 },
        Action::Restart,
        retry.clone(),
    ];
    assert_eq!(cause(&restarted), Some(RegrantCause::Restart));
    let expired = [
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        send("order-1042"),
        Action::MoveClock { ms: 25 * HOUR_MS },
        retry.clone(),
    ];
    assert_eq!(cause(&expired), Some(RegrantCause::ReceiptExpired));
    let crashed = [
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::SetCrashPoint {
            point: Some(idempotency_lab::CrashPoint::BetweenWrites),
        },
        send("order-1042"),
        Action::Wait { ms: 200 },
        retry,
    ];
    assert_eq!(cause(&crashed), Some(RegrantCause::CrashLeftNoReceipt));
}

/// Two processes race one operation on `kind`, each attempt taking 1 s: the
/// lab once both are done, and the loser's row (attempt 2).
fn race_on(kind: StoreKind) -> (Lab, AttemptRow) {
    let mut lab = lab_of(&[
        Action::Set(Setting::Store(kind)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::ProcessingMs(1_000)),
        send("order-1042"),
        Action::RetrySame {
            lose_acknowledgement: false,
        },
    ]);
    lab.skip_to_idle().unwrap();
    let loser = lab.state().timeline()[1].clone();
    assert_eq!(loser.attempt.id, 2);
    (lab, loser)
}

/// Two processes race one operation on a store written balance first: the loser
/// adds its points, then its receipt loses to the winner's and it returns that
/// receipt. Its row says what the store did (applied: the balance went from 100
/// to 200), not only what the caller got (the stored receipt, 100).
#[test]
fn a_race_lost_after_the_balance_was_written_reads_as_applied() {
    let (lab, loser) = race_on(StoreKind::BalanceFirst);
    let handled = loser.handled.as_ref().unwrap();
    assert!(handled.conflict, "its receipt lost to the winner's");
    assert!(matches!(
        handled.store,
        Ok(idempotency_lab::StoreOutcome::Replayed(_))
    ));
    assert!(handled.points_added && handled.applied());
    assert_eq!(loser.outcome(), Outcome::Applied);
    assert_eq!(loser.caller_receipt().unwrap().balance, 100);
    assert_eq!(lab.state().store().balance("account-7"), 200);

    // On one transaction the loser's staged writes roll back: it added nothing.
    let (lab, loser) = race_on(StoreKind::OneTransaction);
    assert!(loser.handled.as_ref().unwrap().conflict);
    assert!(!loser.handled.as_ref().unwrap().points_added);
    assert_eq!(loser.outcome(), Outcome::Replayed);
    assert_eq!(lab.state().store().balance("account-7"), 100);
}
