//! The durable store in the lab: each write order crashed at each point and then
//! retried gives the article's outcome; two processes; receipts that expire.

mod common;

use common::lab_of;
use idempotency_lab::lab::{Action, Invariant, Lab, MarkerKind};
use idempotency_lab::sim::{Routing, StoreKind, HOUR_MS};
use idempotency_lab::{CrashPoint, GrantPoints, StoreStep, Table};

fn send(key: &str, points: i32) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, "account-7", points),
        lose_acknowledgement: false,
    }
}

fn retry() -> Action {
    Action::RetrySame {
        lose_acknowledgement: false,
    }
}

fn idle(mut lab: Lab) -> Lab {
    lab.skip_to_idle().unwrap();
    lab
}

/// Sends order-1042 with `kind` and a crash armed at `point`, lets it crash,
/// then retries with the same key.
fn crash_then_retry(kind: StoreKind, point: CrashPoint) -> Lab {
    let lab = idle(lab_of(&[
        Action::SetStore { kind },
        Action::SetCrashPoint { point: Some(point) },
        send("order-1042", 100),
    ]));
    let mut lab = lab;
    lab.dispatch(retry()).unwrap();
    idle(lab)
}

fn holds(lab: &Lab, invariant: Invariant) -> bool {
    lab.state().invariants().holds(invariant)
}

#[test]
fn receipt_first_crashed_between_writes_loses_the_grant() {
    let lab = crash_then_retry(StoreKind::ReceiptFirst, CrashPoint::BetweenWrites);
    let state = lab.state();
    assert_eq!(state.store().balance("account-7"), 0, "points never added");
    let retry = &state.timeline()[1];
    let receipt = retry.caller_receipt().expect("the retry returns a receipt");
    assert_eq!(receipt.points, 100);
    assert!(!holds(&lab, Invariant::ReceiptHasGrant));
    assert_eq!(
        state
            .invariants()
            .first_break(Invariant::ReceiptHasGrant)
            .unwrap()
            .attempt,
        1
    );
    assert!(holds(&lab, Invariant::AtMostOnce));
    assert!(matches!(
        state.markers()[0].kind,
        MarkerKind::Crash { attempt: 1, point: CrashPoint::BetweenWrites, ref wrote, .. }
            if wrote == &[StoreStep::Wrote(Table::Receipt)]
    ));
}

#[test]
fn balance_first_crashed_between_writes_grants_twice() {
    let lab = crash_then_retry(StoreKind::BalanceFirst, CrashPoint::BetweenWrites);
    assert_eq!(lab.state().store().balance("account-7"), 200);
    assert!(!holds(&lab, Invariant::GrantedHasReceipt));
    assert!(!holds(&lab, Invariant::AtMostOnce));
    assert_eq!(
        lab.state()
            .invariants()
            .first_break(Invariant::AtMostOnce)
            .unwrap()
            .attempt,
        2
    );
}

#[test]
fn one_transaction_is_never_half_done() {
    for point in CrashPoint::ALL {
        let lab = crash_then_retry(StoreKind::OneTransaction, point);
        assert_eq!(lab.state().store().balance("account-7"), 100, "{point:?}");
        for invariant in Invariant::ALL {
            assert!(holds(&lab, invariant), "{point:?} {invariant:?}");
        }
        let retry = &lab.state().timeline()[1];
        let applied = retry.handled.as_ref().unwrap().applied();
        assert_eq!(applied, point != CrashPoint::AfterCommit, "{point:?}");
    }
}

#[test]
fn restart_with_memory_grants_again() {
    let mut lab = idle(lab_of(&[send("order-1042", 100)]));
    lab.dispatch(Action::Restart).unwrap();
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    assert!(!holds(&lab, Invariant::AtMostOnce));
    assert!(matches!(
        lab.state().markers()[0].kind,
        MarkerKind::Restart {
            ended: 1,
            started: 2,
            slot: 1
        }
    ));
}

#[test]
fn two_processes_with_memory_grant_twice_and_with_a_transaction_conflict() {
    for (kind, granted) in [(StoreKind::InMemory, 2), (StoreKind::OneTransaction, 1)] {
        let lab = idle(lab_of(&[
            Action::SetStore { kind },
            Action::SetProcesses { count: 2 },
            Action::SetProcessingTime { ms: 1_000 },
            send("order-1042", 100),
            Action::Wait { ms: 10 },
            retry(),
        ]));
        let state = lab.state();
        assert_eq!(state.timeline()[0].attempt.process, 1);
        assert_eq!(state.timeline()[1].attempt.process, 2);
        assert_eq!(holds(&lab, Invariant::AtMostOnce), granted == 1, "{kind:?}");
        if kind == StoreKind::OneTransaction {
            let loser = &state.timeline()[1];
            assert!(loser.handled.as_ref().unwrap().conflict);
            assert_eq!(loser.caller_receipt().unwrap().balance, 100);
            assert!(state.markers().iter().any(|m| matches!(
                m.kind,
                MarkerKind::CommitConflict {
                    attempt: 2,
                    rolled_back: true,
                    ..
                }
            )));
            assert_eq!(state.store().balance("account-7"), 100);
        }
    }
}

#[test]
fn an_expired_receipt_grants_again_unless_the_ledger_recognises_it() {
    for ledger in [false, true] {
        let mut lab = idle(lab_of(&[
            Action::SetStore {
                kind: StoreKind::OneTransaction,
            },
            Action::SetLedgerCheck { on: ledger },
            send("order-1042", 100),
            Action::MoveClock { ms: 25 * HOUR_MS },
        ]));
        assert!(lab
            .state()
            .markers()
            .iter()
            .any(|m| matches!(m.kind, MarkerKind::Expired { count: 1, .. })));
        lab.dispatch(retry()).unwrap();
        let lab = idle(lab);
        let balance = lab.state().store().balance("account-7");
        assert_eq!(balance, if ledger { 100 } else { 200 });
        assert_eq!(holds(&lab, Invariant::AtMostOnce), ledger);
        assert!(
            holds(&lab, Invariant::GrantedHasReceipt),
            "an expired receipt is no break"
        );
    }
}

#[test]
fn routing_by_key_sends_every_attempt_of_an_operation_to_one_process() {
    let lab = idle(lab_of(&[
        Action::SetProcesses { count: 2 },
        Action::SetRouting {
            routing: Routing::KeyHash,
        },
        send("order-1042", 100),
        retry(),
        retry(),
    ]));
    let processes: Vec<_> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.process)
        .collect();
    assert!(processes.windows(2).all(|w| w[0] == w[1]), "{processes:?}");
    assert!(holds(&lab, Invariant::AtMostOnce));
}

#[test]
fn a_restart_of_two_processes_keeps_each_line_in_its_slot() {
    let lab = lab_of(&[Action::SetProcesses { count: 2 }, Action::Restart]);
    let lines: Vec<(u32, u8)> = lab
        .state()
        .lines()
        .iter()
        .map(|l| (l.process, l.slot))
        .collect();
    assert_eq!(lines, [(3, 1), (4, 2)]);
    let restarts: Vec<_> = lab
        .state()
        .markers()
        .iter()
        .filter_map(|m| match m.kind {
            MarkerKind::Restart {
                ended,
                started,
                slot,
            } => Some((ended, started, slot)),
            _ => None,
        })
        .collect();
    assert_eq!(restarts, [(1, 3, 1), (2, 4, 2)]);
}

#[test]
fn round_robin_starts_at_process_1_when_the_second_starts() {
    let lab = idle(lab_of(&[
        send("a", 1),
        send("b", 1),
        Action::SetProcesses { count: 2 },
        send("c", 1),
        send("d", 1),
        send("e", 1),
    ]));
    let processes: Vec<u32> = (1..=5)
        .map(|id| lab.state().attempt_by_id(id).unwrap().process)
        .collect();
    assert_eq!(processes, [1, 1, 1, 2, 1]);
}

#[test]
fn a_grant_made_again_names_the_attempt_that_granted_first() {
    let lab = crash_then_retry(StoreKind::BalanceFirst, CrashPoint::BetweenWrites);
    let retry = lab.state().timeline().iter().find(|r| r.attempt.id == 2).unwrap();
    let handled = retry.handled.as_ref().unwrap();
    assert_eq!(handled.granted_before_by, Some(1));
    assert_eq!(handled.granted_before_in, Some(1));
    let lab = crash_then_retry(StoreKind::OneTransaction, CrashPoint::BetweenWrites);
    let retry = lab.state().timeline().iter().find(|r| r.attempt.id == 2).unwrap();
    assert_eq!(retry.handled.as_ref().unwrap().granted_before_by, None);
}
