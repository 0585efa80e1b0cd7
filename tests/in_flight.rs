//! A duplicate sent while the first attempt is still in flight: with no
//! in-progress record it goes on to the store; with one, it waits for the first
//! and gets its receipt, or is told at once to retry later. Neither grants twice.

mod common;

use common::{idle, lab_of, retry, row, send};
use idempotency_lab::lab::{Action, Invariant, Lab, MetInProgress, Outcome, Setting};
use idempotency_lab::sim::{Routing, StoreKind};
use idempotency_lab::{CrashPoint, GrantError, GrantPoints, InFlightPolicy};

const ACCOUNT: &str = "account-7";

/// Slow work, the policy set, order-1042 sent and at once sent again.
fn duplicate_in_flight(policy: InFlightPolicy, setup: &[Action]) -> Lab {
    let mut actions = vec![
        Action::Set(Setting::ProcessingMs(1_000)),
        Action::Set(Setting::InFlight(policy)),
    ];
    actions.extend_from_slice(setup);
    actions.push(send("order-1042", 100));
    actions.push(retry());
    lab_of(&actions)
}

#[test]
fn retry_later_answers_the_duplicate_at_once_and_the_store_never_sees_it() {
    let lab = duplicate_in_flight(InFlightPolicy::RetryLater, &[]);
    // Told before the first is done: it has a row already, at the moment it was sent.
    let second = row(&lab, 2);
    assert_eq!(second.caller, Some(Err(GrantError::InProgress)));
    assert_eq!(second.outcome(), Outcome::InProgress);
    assert_eq!(second.answered_at, Some(0));
    assert_eq!(
        second.met_in_progress,
        Some(MetInProgress {
            holder: 1,
            waited: false
        })
    );
    assert!(second.never_handled && second.handled.is_none());
    // The record is the first attempt's, in process 1's memory, until it is handled.
    let records = lab.state().world().in_progress_records();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (
            records[0].0.key.as_str(),
            records[0].0.holder.attempt,
            records[0].1
        ),
        ("order-1042", 1, false)
    );
    let lab = idle(lab);
    assert!(lab.state().world().in_progress_records().is_empty());
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
    assert_eq!(row(&lab, 1).outcome(), Outcome::Applied);
    // Retried later, as it was told: the record is gone and the receipt is back.
    let mut lab = lab;
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 3).outcome(), Outcome::Replayed);
    assert_eq!(row(&lab, 3).met_in_progress, None);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn wait_holds_the_duplicate_until_the_first_is_done_then_returns_its_receipt() {
    let lab = idle(duplicate_in_flight(InFlightPolicy::Wait, &[]));
    let (first, second) = (row(&lab, 1), row(&lab, 2));
    assert_eq!(first.outcome(), Outcome::Applied);
    assert_eq!(second.outcome(), Outcome::Replayed);
    assert_eq!(second.caller, first.caller, "the same receipt");
    assert_eq!(
        second.met_in_progress,
        Some(MetInProgress {
            holder: 1,
            waited: true
        })
    );
    // It answered only once the first was done.
    assert!(second.answered_at >= first.answered_at);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn with_no_record_the_duplicate_queues_behind_and_the_store_returns_the_receipt() {
    let lab = idle(duplicate_in_flight(InFlightPolicy::NoRecord, &[]));
    assert_eq!(row(&lab, 2).outcome(), Outcome::Replayed);
    assert_eq!(row(&lab, 2).met_in_progress, None);
    // One consumer works in order: the duplicate waited in the queue, a second
    // of work after the first.
    assert_eq!(row(&lab, 2).answered_at, Some(2_000));
    assert!(lab
        .state()
        .world()
        .events()
        .iter()
        .all(|e| !matches!(e.what, idempotency_lab::sim::Happening::InProgress { .. })));
}

/// Two processes on a durable store written balance first: without a record the
/// two attempts race in the store and both add points; with one, they cannot.
#[test]
fn two_processes_race_without_a_record_and_not_with_one() {
    let two = [
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Routing(Routing::RoundRobin)),
    ];
    let raced = idle(duplicate_in_flight(InFlightPolicy::NoRecord, &two));
    assert_eq!(raced.state().store().balance(ACCOUNT), 200);
    assert!(!raced.state().invariants().holds(Invariant::AtMostOnce));
    for policy in [InFlightPolicy::Wait, InFlightPolicy::RetryLater] {
        let lab = duplicate_in_flight(policy, &two);
        // The record is in the durable store, where both processes see it.
        let records = lab.state().world().in_progress_records();
        assert_eq!(records.len(), 1, "{policy:?}");
        assert!(records[0].1, "{policy:?}: kept in the durable store");
        let lab = idle(lab);
        assert_eq!(lab.state().store().balance(ACCOUNT), 100, "{policy:?}");
        assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
        assert_ne!(row(&lab, 1).attempt.process, row(&lab, 2).attempt.process);
        assert!(row(&lab, 2).met_in_progress.is_some(), "{policy:?}");
    }
}

/// The holder's process crashes; the duplicate waits in the other process.
fn crash_while_a_duplicate_waits(point: CrashPoint) -> Lab {
    idle(duplicate_in_flight(
        InFlightPolicy::Wait,
        &[
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::Set(Setting::Processes(2)),
            Action::SetCrashPoint { point: Some(point) },
        ],
    ))
}

#[test]
fn a_crash_releases_the_record_and_the_waiting_duplicate_then_finds_what_stands() {
    // Crashed after commit: the waiter finds the committed receipt.
    let after = crash_while_a_duplicate_waits(CrashPoint::AfterCommit);
    assert_eq!(row(&after, 1).outcome(), Outcome::ProcessEnded);
    assert_eq!(row(&after, 2).outcome(), Outcome::Replayed);
    assert_eq!(after.state().store().balance(ACCOUNT), 100);
    assert!(after.state().world().in_progress_records().is_empty());
    // Crashed before anything was written: the waiter grants, once.
    let before = crash_while_a_duplicate_waits(CrashPoint::BeforeWrites);
    assert_eq!(row(&before, 2).outcome(), Outcome::Applied);
    assert_eq!(before.state().store().balance(ACCOUNT), 100);
    assert!(before.state().world().in_progress_records().is_empty());
}

#[test]
fn a_duplicate_waiting_in_the_crashed_process_hears_that_it_ended() {
    let mut lab = idle(duplicate_in_flight(
        InFlightPolicy::Wait,
        &[
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::SetCrashPoint {
                point: Some(CrashPoint::AfterCommit),
            },
        ],
    ));
    assert_eq!(row(&lab, 2).outcome(), Outcome::ProcessEnded);
    assert!(lab.state().world().in_progress_records().is_empty());
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 3).outcome(), Outcome::Replayed);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn a_lost_acknowledgement_releases_the_record_and_the_waiter_gets_the_receipt() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::ProcessingMs(1_000)),
        Action::Set(Setting::InFlight(InFlightPolicy::Wait)),
        Action::Send {
            grant: GrantPoints::new("order-1042", ACCOUNT, 100),
            lose_acknowledgement: true,
        },
        retry(),
    ]));
    assert_eq!(row(&lab, 2).outcome(), Outcome::Replayed);
    assert_eq!(
        row(&lab, 2).caller_receipt().map(|r| r.balance),
        Some(100),
        "the waiter hears what the first caller never did"
    );
    assert_eq!(row(&lab, 1).outcome(), Outcome::TimeoutApplied);
}

#[test]
fn a_waiter_whose_deadline_passes_gives_up_and_is_never_handled() {
    let lab = idle(duplicate_in_flight(
        InFlightPolicy::Wait,
        &[Action::Set(Setting::CallerTimeoutMs(500))],
    ));
    let second = row(&lab, 2);
    assert_eq!(second.caller, Some(Err(GrantError::Timeout)));
    assert!(second.never_handled);
    assert_eq!(
        second.truth(),
        Some(idempotency_lab::lab::Truth::NeverApplied)
    );
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn a_caller_that_gives_up_while_waiting_for_room_takes_its_record_back() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::InFlight(InFlightPolicy::RetryLater)),
        Action::Set(Setting::CallerTimeoutMs(100)),
        Action::Set(Setting::Paused(true)),
        Action::Burst {
            account_id: ACCOUNT.into(),
            points: 1,
            count: 16,
        },
        send("order-1042", 100),
    ]));
    // Attempt 17 waited for room, gave up, and its record went with it; the
    // burst's records stay while their deliveries wait in the paused queue.
    assert_eq!(row(&lab, 17).caller, Some(Err(GrantError::Timeout)));
    let records = lab.state().world().in_progress_records();
    assert_eq!(records.len(), 16);
    assert!(records.iter().all(|(r, _)| r.key != "order-1042"));
    // The next attempt of the operation is not told it is in progress.
    let mut lab = lab;
    lab.dispatch(Action::Set(Setting::Paused(false))).unwrap();
    lab.dispatch(Action::Set(Setting::CallerTimeoutMs(3_000)))
        .unwrap();
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 18).outcome(), Outcome::Applied);
    assert!(lab.state().world().in_progress_records().is_empty());
}

#[test]
fn a_restart_drops_the_records_with_the_process() {
    let mut lab = duplicate_in_flight(InFlightPolicy::RetryLater, &[]);
    assert_eq!(lab.state().world().in_progress_records().len(), 1);
    lab.dispatch(Action::Restart).unwrap();
    assert!(lab.state().world().in_progress_records().is_empty());
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 3).outcome(), Outcome::Applied);
}

#[test]
fn the_policy_is_part_of_the_history() {
    let lab = lab_of(&[Action::Set(Setting::InFlight(InFlightPolicy::Wait))]);
    assert_eq!(lab.state().settings().in_flight, InFlightPolicy::Wait);
    let json =
        serde_json::to_string(&Action::Set(Setting::InFlight(InFlightPolicy::RetryLater))).unwrap();
    assert_eq!(json, r#"{"set":{"in-flight":"retry-later"}}"#);
    for policy in InFlightPolicy::ALL {
        assert_eq!(InFlightPolicy::from_code(policy.code()), Some(policy));
    }
    assert_eq!(InFlightPolicy::from_code("maybe"), None);
}

#[test]
fn a_duplicate_waiting_in_a_process_that_ends_hears_so_at_once() {
    let mut lab = duplicate_in_flight(
        InFlightPolicy::Wait,
        &[
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::Set(Setting::Processes(2)),
        ],
    );
    lab.dispatch(Action::Wait { ms: 300 }).unwrap();
    // Process 2, where the duplicate waits, is taken away while process 1 works.
    lab.dispatch(Action::Set(Setting::Processes(1))).unwrap();
    let second = row(&lab, 2);
    assert_eq!(second.outcome(), Outcome::ProcessEnded);
    assert_eq!(second.answered_at, Some(300));
    let lab = idle(lab);
    assert_eq!(row(&lab, 1).outcome(), Outcome::Applied);
    assert_eq!(lab.state().store().balance(ACCOUNT), 100);
}

#[test]
fn a_waiter_is_answered_from_the_store_without_doing_the_work_again() {
    // Work takes 2 s and the caller waits 3 s: a second pass through the work
    // would take the waiter to 4 s, past its deadline.
    let lab = idle(duplicate_in_flight(
        InFlightPolicy::Wait,
        &[Action::Set(Setting::ProcessingMs(2_000))],
    ));
    assert_eq!(row(&lab, 2).outcome(), Outcome::Replayed);
    assert_eq!(row(&lab, 2).answered_at, Some(2_000));
    assert_eq!(row(&lab, 2).handled.as_ref().map(|h| h.at), Some(2_000));
}

// Found in review: a change of store while an attempt is in flight, a waiter's
// armed lost acknowledgement, a waiter whose process ends, and the order in
// which waiters wake.

#[test]
fn records_move_with_the_store_so_a_switch_mid_flight_lets_no_duplicate_race() {
    for policy in [InFlightPolicy::Wait, InFlightPolicy::RetryLater] {
        let lab = idle(lab_of(&[
            Action::Set(Setting::InFlight(policy)),
            Action::Set(Setting::ProcessingMs(1_000)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::Paused(true)),
            // To process 1: its record in process 1's memory.
            send("order-1042", 100),
            Action::Set(Setting::Store(StoreKind::BalanceFirst)),
            // To process 2, which looks in the durable store's table.
            retry(),
            Action::Set(Setting::Paused(false)),
        ]));
        assert!(row(&lab, 2).met_in_progress.is_some(), "{policy:?}");
        assert_eq!(lab.state().store().balance(ACCOUNT), 100, "{policy:?}");
        assert!(lab.state().invariants().holds(Invariant::AtMostOnce));
        assert!(lab.state().world().in_progress_records().is_empty());
    }
    // And back: a durable record returns to the memory of the process holding it.
    let mut lab = lab_of(&[
        Action::Set(Setting::InFlight(InFlightPolicy::RetryLater)),
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::Set(Setting::Paused(true)),
        send("order-1042", 100),
    ]);
    assert!(lab.state().world().in_progress_records()[0].1);
    lab.dispatch(Action::Set(Setting::Store(StoreKind::InMemory)))
        .unwrap();
    let records = lab.state().world().in_progress_records();
    assert_eq!(records.len(), 1);
    assert!(!records[0].1, "now in process 1's memory");
    lab.dispatch(retry()).unwrap();
    assert_eq!(row(&lab, 2).outcome(), Outcome::InProgress);
}

#[test]
fn a_waiter_answered_from_the_store_still_loses_an_armed_acknowledgement() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::InFlight(InFlightPolicy::Wait)),
        Action::Set(Setting::ProcessingMs(1_000)),
        send("order-1042", 100),
        Action::RetrySame {
            lose_acknowledgement: true,
        },
    ]));
    let second = row(&lab, 2);
    assert_eq!(second.caller, Some(Err(GrantError::Timeout)));
    // The caller hears nothing and gives up at its deadline.
    assert_eq!(second.answered_at, Some(3_000));
    let handled = second.handled.as_ref().unwrap();
    assert!(handled.acknowledgement_lost);
    assert_eq!(second.outcome(), Outcome::Timeout);
}

#[test]
fn a_waiter_whose_process_ended_never_reached_the_store() {
    let mut lab = duplicate_in_flight(
        InFlightPolicy::Wait,
        &[
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::Set(Setting::Processes(2)),
        ],
    );
    lab.dispatch(Action::Set(Setting::Processes(1))).unwrap();
    let lab = idle(lab);
    let second = row(&lab, 2);
    assert_eq!(second.outcome(), Outcome::ProcessEnded);
    assert!(second.handled.is_none() && second.never_handled);
}

#[test]
fn waiters_wake_in_the_order_their_holders_claimed_whatever_the_keys() {
    for (a, b) in [
        ("k-a", "k-b"),
        ("x1", "x2"),
        ("order-1", "order-2"),
        ("p", "q"),
    ] {
        let lab = idle(lab_of(&[
            Action::Set(Setting::InFlight(InFlightPolicy::Wait)),
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::Paused(true)),
            Action::Set(Setting::Routing(Routing::Only(1))),
            send(a, 1),
            send(b, 1),
            Action::Set(Setting::Routing(Routing::Only(2))),
            send(a, 1),
            send(b, 1),
            Action::SetCrashPoint {
                point: Some(CrashPoint::BeforeWrites),
            },
            Action::Set(Setting::Paused(false)),
        ]));
        let queued: Vec<u64> = lab
            .state()
            .world()
            .events()
            .iter()
            .filter_map(|e| match e.what {
                idempotency_lab::sim::Happening::Queued { attempt } if attempt >= 3 => {
                    Some(attempt)
                }
                _ => None,
            })
            .collect();
        assert_eq!(queued, vec![3, 4], "{a}, {b}");
    }
}

#[test]
fn rows_stay_in_sending_order_whoever_hears_back_first() {
    for policy in [
        InFlightPolicy::RetryLater,
        InFlightPolicy::Wait,
        InFlightPolicy::NoRecord,
    ] {
        let lab = duplicate_in_flight(policy, &[]);
        // Before anything is done: the first still waits, listed first.
        let rows = lab.state().timeline();
        let ids: Vec<u64> = rows.iter().map(|r| r.attempt.id).collect();
        assert_eq!(ids, [1, 2], "{policy:?}");
        assert_eq!(rows[0].outcome(), Outcome::Pending, "{policy:?}");
        let lab = idle(lab);
        let ids: Vec<u64> = lab
            .state()
            .timeline()
            .iter()
            .map(|r| r.attempt.id)
            .collect();
        assert_eq!(ids, [1, 2], "{policy:?}");
    }
}
