//! The durable store in the lab: each write order crashed at each point and then
//! retried gives the article's outcome; two processes; receipts that expire.

mod common;

use common::{idle, lab_of, retry, send};
use idempotency_lab::lab::{Action, Invariant, Lab, MarkerKind, Setting};
use idempotency_lab::sim::{Routing, StoreKind, HOUR_MS};
use idempotency_lab::{CrashPoint, StoreStep, Table};

/// Sends order-1042 with `kind` and a crash armed at `point`, lets it crash,
/// then retries with the same key.
fn crash_then_retry(kind: StoreKind, point: CrashPoint) -> Lab {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Store(kind)),
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
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
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
            Action::Set(Setting::Store(StoreKind::OneTransaction)),
            Action::Set(Setting::LedgerCheck(ledger)),
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
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Routing(Routing::KeyHash)),
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
    let lab = lab_of(&[Action::Set(Setting::Processes(2)), Action::Restart]);
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
        Action::Set(Setting::Processes(2)),
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
    let retry = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 2)
        .unwrap();
    let handled = retry.handled.as_ref().unwrap();
    assert_eq!(handled.granted_before_by, Some(1));
    assert_eq!(handled.granted_before_in, Some(1));
    let lab = crash_then_retry(StoreKind::OneTransaction, CrashPoint::BetweenWrites);
    let retry = lab
        .state()
        .timeline()
        .iter()
        .find(|r| r.attempt.id == 2)
        .unwrap();
    assert_eq!(retry.handled.as_ref().unwrap().granted_before_by, None);
}

/// What the store did with an attempt it handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Did {
    Applied,
    Replayed,
}

/// One row of the crash table: a store, a crash armed (or none) for the first
/// attempt, then a retry with the same key; what it all comes to.
struct CrashCase {
    kind: StoreKind,
    crash: Option<CrashPoint>,
    /// What stands of the crashed attempt's writes (a transaction's staged
    /// writes do not).
    wrote: &'static [StoreStep],
    /// The account's balance after the retry, as a balance read sees it.
    balance: i32,
    /// The receipt the retry's caller got: (points, balance).
    retry_got: (i32, i32),
    retry_store: Did,
    /// The attempt that first broke each invariant, in [`Invariant::ALL`]'s
    /// order (at most once, granted has receipt, receipt has grant).
    breaks: [Option<u64>; 3],
}

const NO_BREAK: [Option<u64>; 3] = [None, None, None];

#[rustfmt::skip]
fn crash_table() -> Vec<CrashCase> {
    use CrashPoint::{AfterCommit, BeforeWrites, BetweenWrites};
    use StoreKind::{BalanceFirst, InMemory, OneTransaction, ReceiptFirst};
    use StoreStep::{Committed, Wrote, WroteBoth};
    use Table::{Balance, Receipt};
    let case = |kind, crash, wrote, balance, retry_got, retry_store, breaks| CrashCase {
        kind,
        crash,
        wrote,
        balance,
        retry_got,
        retry_store,
        breaks,
    };
    let mut table = Vec::new();
    for kind in StoreKind::ALL {
        // No crash: the retry reads the receipt. A crash before any write: the
        // retry is the first to apply.
        table.push(case(kind, None, &[][..], 100, (100, 100), Did::Replayed, NO_BREAK));
        table.push(case(kind, Some(BeforeWrites), &[], 100, (100, 100), Did::Applied, NO_BREAK));
    }
    table.extend([
        // In memory, a crash after the write forgets everything: the new process
        // grants again (at most once is broken across the restart).
        case(InMemory, Some(BetweenWrites), &[WroteBoth], 100, (100, 100), Did::Applied, [Some(2), None, None]),
        case(InMemory, Some(AfterCommit), &[WroteBoth], 100, (100, 100), Did::Applied, [Some(2), None, None]),
        // Receipt first: a completion with no points; the retry returns a
        // receipt for points never added.
        case(ReceiptFirst, Some(BetweenWrites), &[Wrote(Receipt)], 0, (100, 100), Did::Replayed, [None, None, Some(1)]),
        case(ReceiptFirst, Some(AfterCommit), &[Wrote(Receipt), Wrote(Balance)], 100, (100, 100), Did::Replayed, NO_BREAK),
        // Balance first: points with no receipt; the retry grants again.
        case(BalanceFirst, Some(BetweenWrites), &[Wrote(Balance)], 200, (100, 200), Did::Applied, [Some(2), Some(1), None]),
        case(BalanceFirst, Some(AfterCommit), &[Wrote(Balance), Wrote(Receipt)], 100, (100, 100), Did::Replayed, NO_BREAK),
        // One transaction: nothing half-done; the retry applies once, or reads
        // the committed receipt.
        case(OneTransaction, Some(BetweenWrites), &[], 100, (100, 100), Did::Applied, NO_BREAK),
        case(OneTransaction, Some(AfterCommit), &[Committed], 100, (100, 100), Did::Replayed, NO_BREAK),
    ]);
    table
}

#[test]
fn every_store_crashed_at_every_point_then_retried_gives_its_outcome() {
    let table = crash_table();
    assert_eq!(
        table.len(),
        StoreKind::ALL.len() * (CrashPoint::ALL.len() + 1)
    );
    for case in table {
        let what = format!("{:?} crashed at {:?}", case.kind, case.crash);
        let mut lab = idle(lab_of(&[
            Action::Set(Setting::Store(case.kind)),
            Action::SetCrashPoint { point: case.crash },
            send("order-1042", 100),
        ]));
        lab.dispatch(retry()).unwrap();
        let lab = idle(lab);
        let state = lab.state();
        let row = |id: u64| {
            state
                .timeline()
                .iter()
                .find(|r| r.attempt.id == id)
                .unwrap_or_else(|| panic!("{what}: no row for attempt {id}"))
        };
        let (first, retry) = (row(1), row(2));

        // The first caller hears of the crash as the end of its process.
        let crashes: Vec<_> = state
            .markers()
            .iter()
            .filter_map(|m| match &m.kind {
                MarkerKind::Crash {
                    attempt,
                    point,
                    wrote,
                    durable,
                    ..
                } => Some((*attempt, *point, wrote.clone(), *durable)),
                _ => None,
            })
            .collect();
        match case.crash {
            None => {
                assert_eq!(crashes, [], "{what}");
                assert_eq!(first.caller_receipt().map(|r| r.balance), Some(100));
                assert_eq!(retry.attempt.process, 1, "{what}");
            }
            Some(point) => {
                assert_eq!(crashes.len(), 1, "{what}");
                let (attempt, at, wrote, durable) = &crashes[0];
                assert_eq!((*attempt, *at), (1, point), "{what}");
                assert_eq!(wrote, case.wrote, "{what}");
                if !wrote.is_empty() {
                    assert_eq!(*durable, case.kind.is_durable(), "{what}");
                }
                assert_eq!(first.crashed_at, Some(point), "{what}");
                assert_eq!(
                    first.caller_error(),
                    Some(&idempotency_lab::GrantError::WorkerStopped),
                    "{what}"
                );
                assert!(first.handled.is_none(), "{what}: a crash is no handling");
                assert_eq!(retry.attempt.process, 2, "{what}: the new process");
            }
        }

        assert_eq!(state.store().balance("account-7"), case.balance, "{what}");
        let got = retry.caller_receipt().map(|r| (r.points, r.balance));
        assert_eq!(got, Some(case.retry_got), "{what}: the retry's caller got");
        let handled = retry.handled.as_ref().expect("the retry was handled");
        let did = if handled.applied() {
            Did::Applied
        } else {
            Did::Replayed
        };
        assert_eq!(did, case.retry_store, "{what}: the store did");
        assert!(handled.store.is_ok(), "{what}");
        assert!(!handled.conflict && !handled.by_ledger, "{what}");
        let first = |i| state.invariants().first_break(i).map(|b| b.attempt);
        let store_promises = [
            Invariant::AtMostOnce,
            Invariant::GrantedHasReceipt,
            Invariant::ReceiptHasGrant,
        ];
        let breaks = store_promises.map(first);
        assert_eq!(breaks, case.breaks, "{what}: first breaks");
        // A retry under the same key pays for one purchase: granted twice is paid twice.
        assert_eq!(
            first(Invariant::PaidOnce),
            case.breaks[0],
            "{what}: paid once"
        );
        for (invariant, broken) in store_promises.into_iter().zip(case.breaks) {
            assert_eq!(
                holds(&lab, invariant),
                broken.is_none(),
                "{what}: {invariant:?}"
            );
        }
        // The durable store is the only one that outlives the crash; in memory
        // it is never touched.
        if !case.kind.is_durable() {
            assert_eq!(state.world().durable_store().balances(), [], "{what}");
        }
    }
}

/// One row of the race table: two processes, one attempt on each, in flight at
/// once; the first commits, the second meets what it committed.
struct RaceCase {
    kind: StoreKind,
    /// Balance after both, in process 1's view (its memory, or the durable store).
    balance: i32,
    /// The loser's handling: (applied, refused by the unique constraint).
    loser: (bool, bool),
    /// The loser's conflict marker says its writes were rolled back.
    rolled_back: Option<bool>,
    at_most_once: bool,
}

#[test]
fn two_attempts_racing_on_two_processes_in_every_store() {
    let table = [
        // Two memories: each grants, neither knows of the other.
        RaceCase {
            kind: StoreKind::InMemory,
            balance: 100,
            loser: (true, false),
            rolled_back: None,
            at_most_once: false,
        },
        // The loser's first write is the receipt: refused, nothing of it stands.
        RaceCase {
            kind: StoreKind::ReceiptFirst,
            balance: 100,
            loser: (false, true),
            rolled_back: Some(false),
            at_most_once: true,
        },
        // The loser adds its points before its receipt is refused: they stay, so
        // it applied the grant (its row says so) though it returns a stored receipt.
        RaceCase {
            kind: StoreKind::BalanceFirst,
            balance: 200,
            loser: (true, true),
            rolled_back: Some(false),
            at_most_once: false,
        },
        // The loser's transaction is rolled back whole.
        RaceCase {
            kind: StoreKind::OneTransaction,
            balance: 100,
            loser: (false, true),
            rolled_back: Some(true),
            at_most_once: true,
        },
    ];
    for case in table {
        let kind = case.kind;
        let lab = idle(lab_of(&[
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::Processes(2)),
            Action::Set(Setting::ProcessingMs(1_000)),
            send("order-1042", 100),
            Action::Wait { ms: 10 },
            retry(),
        ]));
        let state = lab.state();
        let loser = state.timeline().iter().find(|r| r.attempt.id == 2).unwrap();
        assert_eq!(loser.attempt.process, 2, "{kind:?}");
        let handled = loser.handled.as_ref().unwrap();
        assert_eq!(
            (handled.applied(), handled.conflict),
            case.loser,
            "{kind:?}"
        );
        // Whatever the loser did, its caller holds a receipt of the operation;
        // a loser refused by the constraint holds the winner's.
        assert_eq!(
            loser.caller_receipt().map(|r| (r.points, r.balance)),
            Some((100, 100)),
            "{kind:?}"
        );
        assert_eq!(state.store().balance("account-7"), case.balance, "{kind:?}");
        let conflicts: Vec<_> = state
            .markers()
            .iter()
            .filter_map(|m| match m.kind {
                MarkerKind::CommitConflict {
                    attempt,
                    process,
                    rolled_back,
                    ..
                } => Some((attempt, process, rolled_back)),
                _ => None,
            })
            .collect();
        assert_eq!(
            conflicts,
            case.rolled_back
                .map(|r| (2, 2, r))
                .into_iter()
                .collect::<Vec<_>>(),
            "{kind:?}"
        );
        assert_eq!(
            holds(&lab, Invariant::AtMostOnce),
            case.at_most_once,
            "{kind:?}"
        );
        if !case.at_most_once {
            let first = state.invariants().first_break(Invariant::AtMostOnce);
            assert_eq!(first.map(|b| b.attempt), Some(2), "{kind:?}");
        }
        assert!(holds(&lab, Invariant::GrantedHasReceipt), "{kind:?}");
        assert!(holds(&lab, Invariant::ReceiptHasGrant), "{kind:?}");
        if kind == StoreKind::InMemory {
            let second = state.world().memory_store(2).unwrap();
            assert_eq!(
                second.balance("account-7"),
                100,
                "the other process's memory"
            );
        }
    }
}

#[test]
fn expiry_then_retry_grants_again_in_every_durable_order_unless_the_ledger_is_checked() {
    for kind in [
        StoreKind::ReceiptFirst,
        StoreKind::BalanceFirst,
        StoreKind::OneTransaction,
    ] {
        for ledger in [false, true] {
            let what = format!("{kind:?}, ledger check {ledger}");
            let mut lab = idle(lab_of(&[
                Action::Set(Setting::Store(kind)),
                Action::Set(Setting::LedgerCheck(ledger)),
                send("order-1042", 100),
                // Just inside the window: nothing expires yet.
                Action::MoveClock {
                    ms: 24 * HOUR_MS - 200,
                },
            ]));
            let receipt = |lab: &Lab| {
                lab.state()
                    .world()
                    .durable_store()
                    .receipt("account-7", "order-1042")
            };
            assert!(receipt(&lab).is_some(), "{what}: kept for the whole window");
            lab.dispatch(Action::MoveClock { ms: HOUR_MS }).unwrap();
            assert!(receipt(&lab).is_none(), "{what}: swept once it expired");
            lab.dispatch(retry()).unwrap();
            let lab = idle(lab);
            let state = lab.state();
            let row = state.timeline().last().unwrap();
            let handled = row.handled.as_ref().unwrap();
            assert_eq!(handled.applied(), !ledger, "{what}");
            assert_eq!(handled.by_ledger, ledger, "{what}");
            let balance = if ledger { 100 } else { 200 };
            assert_eq!(state.store().balance("account-7"), balance, "{what}");
            assert_eq!(holds(&lab, Invariant::AtMostOnce), ledger, "{what}");
            assert!(holds(&lab, Invariant::GrantedHasReceipt), "{what}");
            assert!(holds(&lab, Invariant::ReceiptHasGrant), "{what}");
            assert_eq!(state.invariants().expired, 1, "{what}");
        }
    }
}

#[test]
fn points_granted_again_after_expiry_need_a_receipt_of_their_own() {
    // The first receipt expired as promised; the retry adds the points again
    // and crashes before its receipt: that is a break, whatever expired before.
    let mut lab = idle(lab_of(&[
        Action::Set(Setting::Store(StoreKind::BalanceFirst)),
        send("order-1042", 100),
        Action::MoveClock { ms: 25 * HOUR_MS },
        Action::SetCrashPoint {
            point: Some(CrashPoint::BetweenWrites),
        },
    ]));
    assert!(
        holds(&lab, Invariant::GrantedHasReceipt),
        "an expiry is no break"
    );
    lab.dispatch(retry()).unwrap();
    let lab = idle(lab);
    let first_break = |i| lab.state().invariants().first_break(i).map(|b| b.attempt);
    assert_eq!(first_break(Invariant::GrantedHasReceipt), Some(2));
    assert_eq!(first_break(Invariant::AtMostOnce), Some(2));
    assert_eq!(lab.state().store().balance("account-7"), 200);
}

#[test]
fn settings_have_stable_codes_that_read_back() {
    let kinds: Vec<&str> = StoreKind::ALL.iter().map(|k| k.code()).collect();
    assert_eq!(
        kinds,
        [
            "in-memory",
            "receipt-first",
            "balance-first",
            "one-transaction"
        ]
    );
    for kind in StoreKind::ALL {
        assert_eq!(StoreKind::from_code(kind.code()), Some(kind));
        assert_eq!(kind.is_durable(), kind.write_order().is_some());
    }
    assert_eq!(StoreKind::default(), StoreKind::InMemory);
    assert_eq!(StoreKind::InMemory.write_order(), None);
    assert_eq!(
        StoreKind::ReceiptFirst.write_order(),
        Some(idempotency_lab::WriteOrder::ReceiptFirst)
    );
    assert_eq!(
        StoreKind::BalanceFirst.write_order(),
        Some(idempotency_lab::WriteOrder::BalanceFirst)
    );
    assert_eq!(
        StoreKind::OneTransaction.write_order(),
        Some(idempotency_lab::WriteOrder::OneTransaction)
    );
    assert_eq!(StoreKind::from_code("durable"), None);

    let points: Vec<&str> = CrashPoint::ALL.iter().map(|p| p.code()).collect();
    assert_eq!(points, ["before-writes", "between-writes", "after-commit"]);
    for point in CrashPoint::ALL {
        assert_eq!(CrashPoint::from_code(point.code()), Some(point));
    }
    assert_eq!(CrashPoint::from_code("none"), None);

    for (routing, code) in [
        (Routing::RoundRobin, "round-robin"),
        (Routing::KeyHash, "key-hash"),
        (Routing::Only(1), "only-1"),
        (Routing::Only(2), "only-2"),
    ] {
        assert_eq!(routing.code(), code);
        assert_eq!(Routing::from_code(code), Some(routing));
    }
    for bad in ["only-0", "only-3", "only-x", "only-", "hash", ""] {
        assert_eq!(Routing::from_code(bad), None, "{bad:?}");
    }
}

#[test]
fn routing_picks_a_slot_among_the_running_processes() {
    // The round robin takes turns; one process takes everything.
    let turns: Vec<u8> = (0..4)
        .map(|t| Routing::RoundRobin.slot("k", 2, t))
        .collect();
    assert_eq!(turns, [1, 2, 1, 2]);
    assert_eq!(Routing::RoundRobin.slot("k", 1, 7), 1);
    assert_eq!(Routing::RoundRobin.slot("k", 0, 7), 1, "never no process");
    // A fixed slot, kept inside the processes that run.
    assert_eq!(Routing::Only(2).slot("k", 2, 0), 2);
    assert_eq!(Routing::Only(2).slot("k", 1, 0), 1);
    assert_eq!(Routing::Only(1).slot("k", 2, 5), 1);
    // By key: FNV-1a, the same on every platform and at every turn.
    for (key, slot) in [
        ("order-1042", 2),
        ("order-1043", 1),
        ("k0", 1),
        ("k1", 2),
        ("b", 2),
    ] {
        for turn in 0..3 {
            assert_eq!(Routing::KeyHash.slot(key, 2, turn), slot, "{key}");
        }
    }
    assert_eq!(Routing::KeyHash.slot("order-1042", 3, 0), 3);
    assert_eq!(Routing::KeyHash.slot("k0", 3, 0), 2);
    assert_eq!(Routing::KeyHash.slot("k0", 1, 0), 1);
}

#[test]
fn only_a_handling_that_writes_reaches_a_crash_point() {
    // A replay and a refusal write nothing, so they cannot crash between
    // writes: the crash stays armed for the next handling that writes.
    for kind in StoreKind::ALL {
        for point in CrashPoint::ALL {
            let what = format!("{kind:?} at {point:?}");
            let mut lab = idle(lab_of(&[
                Action::Set(Setting::Store(kind)),
                send("order-1042", 100),
            ]));
            for action in [
                Action::SetCrashPoint { point: Some(point) },
                retry(),
                send("order-1042", 50),
                send("order-1043", 0),
            ] {
                lab.dispatch(action).unwrap();
            }
            let lab = idle(lab);
            let state = lab.state();
            assert_eq!(
                state.faults().crash_point,
                Some(point),
                "{what}: still armed"
            );
            assert!(state.markers().is_empty(), "{what}: {:?}", state.markers());
            let codes: Vec<&str> = state
                .timeline()
                .iter()
                .map(|r| r.outcome().code())
                .collect();
            assert_eq!(
                codes,
                ["applied", "replayed", "rejected", "rejected"],
                "{what}"
            );
            // The next first grant crashes where it was armed.
            let mut lab = lab;
            lab.dispatch(send("order-1044", 100)).unwrap();
            let lab = idle(lab);
            let row = lab.state().timeline().last().unwrap();
            assert_eq!(row.crashed_at, Some(point), "{what}");
            assert_eq!(
                lab.state().faults().crash_point,
                None,
                "{what}: armed for one crash"
            );
        }
    }
}

fn marker_kinds(lab: &Lab) -> Vec<MarkerKind> {
    lab.state()
        .markers()
        .iter()
        .map(|m| m.kind.clone())
        .collect()
}

#[test]
fn a_second_process_taken_away_and_started_again_later_is_no_restart() {
    let lab = lab_of(&[
        Action::Set(Setting::Processes(2)),
        Action::Wait { ms: 10 },
        Action::Set(Setting::Processes(1)),
        Action::Wait { ms: 10 },
        Action::Set(Setting::Processes(2)),
    ]);
    assert!(matches!(
        &marker_kinds(&lab)[..],
        [
            MarkerKind::ProcessStarted {
                process: 2,
                slot: 2
            },
            MarkerKind::ProcessEnded { process: 2 },
            MarkerKind::ProcessStarted {
                process: 3,
                slot: 2
            },
        ]
    ));
    // In one instant, an end and a start in one slot read as one restart.
    let lab = lab_of(&[
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Processes(1)),
        Action::Set(Setting::Processes(2)),
    ]);
    assert!(matches!(
        &marker_kinds(&lab)[..],
        [
            MarkerKind::ProcessStarted {
                process: 2,
                slot: 2
            },
            MarkerKind::Restart {
                ended: 2,
                started: 3,
                slot: 2
            },
        ]
    ));
}

#[test]
fn receipts_swept_in_one_instant_make_one_marker_and_in_two_make_two() {
    let sent = [
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        send("order-1", 100),
        send("order-2", 100),
    ];
    let expired = |lab: &Lab| -> Vec<u32> {
        marker_kinds(lab)
            .into_iter()
            .filter_map(|k| match k {
                MarkerKind::Expired { count, .. } => Some(count),
                _ => None,
            })
            .collect()
    };
    // Written 100 ms apart, each expires in its own instant.
    let mut lab = idle(lab_of(&sent));
    lab.dispatch(Action::Set(Setting::RetentionHours(1)))
        .unwrap();
    lab.dispatch(Action::MoveClock { ms: 2 * HOUR_MS }).unwrap();
    assert_eq!(expired(&lab), [1, 1]);
    // A shorter retention sweeps both at once.
    let mut lab = idle(lab_of(&sent));
    lab.dispatch(Action::MoveClock { ms: 2 * HOUR_MS }).unwrap();
    assert_eq!(expired(&lab), Vec::<u32>::new());
    lab.dispatch(Action::Set(Setting::RetentionHours(1)))
        .unwrap();
    assert_eq!(expired(&lab), [2]);
    assert_eq!(lab.state().invariants().expired, 2);
}

#[test]
fn a_balance_read_follows_the_store_of_slot_1() {
    let mut lab = idle(lab_of(&[send("order-1042", 100)]));
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    let read = |lab: &mut Lab| {
        lab.dispatch(Action::CheckBalance {
            account_id: "account-7".into(),
        })
        .unwrap();
        let read = lab.state().last_read().unwrap();
        (read.balance.clone().unwrap(), read.after_attempt)
    };
    assert_eq!(
        read(&mut lab),
        (100, Some(1)),
        "a second process changes nothing"
    );
    lab.dispatch(Action::Restart).unwrap();
    assert_eq!(
        read(&mut lab),
        (0, None),
        "a new process in slot 1 has handled nothing"
    );
}

#[test]
fn the_naive_side_shown_is_that_of_the_process_in_slot_1() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::Naive(true)),
        Action::Set(Setting::Processes(2)),
        send("order-1", 100),
        send("order-2", 25),
    ]));
    let processes: Vec<u32> = lab
        .state()
        .timeline()
        .iter()
        .map(|r| r.attempt.process)
        .collect();
    assert_eq!(processes, [1, 2]);
    assert_eq!(
        lab.state().naive_balances(),
        [("account-7".to_owned(), 100)]
    );
}

#[test]
fn a_step_lets_each_processs_consumer_take_one_delivery() {
    let mut lab = lab_of(&[
        Action::Set(Setting::Processes(2)),
        Action::Set(Setting::Paused(true)),
        send("order-1", 100),
        send("order-2", 100),
        send("order-3", 100),
    ]);
    let in_hand =
        |lab: &Lab| -> Vec<Option<u64>> { lab.state().lines().iter().map(|l| l.in_hand).collect() };
    assert_eq!(in_hand(&lab), [None, None]);
    lab.dispatch(Action::Step).unwrap();
    assert_eq!(in_hand(&lab), [Some(1), Some(2)]);
    let queued: Vec<usize> = lab.state().lines().iter().map(|l| l.queue.len()).collect();
    assert_eq!(queued, [1, 0]);
}

#[test]
fn the_log_names_a_process_slot_only_beside_slot_1() {
    let lab = lab_of(&[Action::Set(Setting::Processes(2)), Action::Restart]);
    let log = common::event_log(&lab);
    assert!(
        log.contains(r#"{"at":0,"event":"process-started","process":2,"slot":2}"#),
        "{log}"
    );
    assert!(
        log.contains(r#"{"at":0,"event":"process-started","process":3}"#),
        "{log}"
    );
}

#[test]
fn the_worlds_settings_and_stores_read_back() {
    use idempotency_lab::sim::{Faults, Setting, World};
    let mut world = World::new();
    let settings = world.settings();
    assert_eq!(
        (settings.store, world.faults().crash_point, settings.routing),
        (StoreKind::InMemory, None, Routing::RoundRobin)
    );
    assert_eq!(settings.retention_ms(), 24 * HOUR_MS);
    assert!(!settings.ledger_check);
    world.set(Setting::Store(StoreKind::BalanceFirst)).unwrap();
    world.arm(Faults {
        crash_point: Some(CrashPoint::AfterCommit),
        ..world.faults()
    });
    world.set(Setting::Routing(Routing::KeyHash)).unwrap();
    world.set(Setting::RetentionHours(2)).unwrap();
    world.set(Setting::LedgerCheck(true)).unwrap();
    let settings = world.settings();
    assert_eq!(
        (settings.store, world.faults().crash_point, settings.routing),
        (
            StoreKind::BalanceFirst,
            Some(CrashPoint::AfterCommit),
            Routing::KeyHash
        )
    );
    assert_eq!(settings.retention_ms(), 2 * HOUR_MS);
    assert!(settings.ledger_check);
    let processes = |world: &World| (world.settings().processes, world.process_numbers());
    assert_eq!(processes(&world), (1, vec![1]));
    world.set(Setting::Processes(2)).unwrap();
    assert_eq!(processes(&world), (2, vec![1, 2]));
    world.restart();
    assert_eq!(world.process_numbers(), [3, 4]);
    world.set(Setting::Processes(1)).unwrap();
    assert_eq!(processes(&world), (1, vec![3]));
    assert!(world.memory_store(2).is_none() && world.memory_store(0).is_none());
}

/// The world refuses settings outside what the lab allows, whole: nothing of
/// the refused value takes effect, not even the settings beside it.
#[test]
fn the_world_refuses_a_setting_it_does_not_allow_and_changes_nothing() {
    use idempotency_lab::sim::{Setting, SettingError, World};
    let mut world = World::new();
    let before = world.settings();
    let mut wrong = before.with(Setting::Processes(3));
    wrong.naive = true;
    assert_eq!(world.configure(wrong), Err(SettingError::Processes(3)));
    assert_eq!(world.settings(), before);
    assert_eq!(world.process_numbers(), [1]);
    assert_eq!(
        world.set(Setting::Routing(Routing::Only(0))),
        Err(SettingError::RoutingSlot(0))
    );
    assert_eq!(world.settings(), before);
}

#[test]
fn a_balance_read_sees_the_store_in_use() {
    for kind in StoreKind::ALL {
        let mut lab = idle(lab_of(&[
            Action::Set(Setting::Store(kind)),
            send("order-1042", 100),
        ]));
        let store = lab.state().store();
        let receipt = store.receipt("account-7", "order-1042").expect("{kind:?}");
        assert_eq!((receipt.points, receipt.balance), (100, 100));
        assert_eq!(store.receipts(), std::slice::from_ref(&receipt));
        assert_eq!(store.receipts_page(0), (vec![], 1));
        assert_eq!(store.balances(), [("account-7".to_owned(), 100)]);
        // The other store is untouched.
        lab.dispatch(Action::Set(Setting::Store(if kind.is_durable() {
            StoreKind::InMemory
        } else {
            StoreKind::OneTransaction
        })))
        .unwrap();
        let other = lab.state().store();
        assert_eq!(other.receipt("account-7", "order-1042"), None, "{kind:?}");
        assert_eq!(other.receipts_page(10), (vec![], 0), "{kind:?}");
        assert_eq!(other.balance("account-7"), 0, "{kind:?}");
    }
}
