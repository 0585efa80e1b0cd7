//! The durable store on its own, driven by a hand-written pace that can crash at
//! any named point: what was committed survives, what a transaction only staged
//! is gone with it, the unique constraint refuses a second receipt, the sweeper
//! deletes only expired receipts, and refusals change nothing.
//!
//! A crash is a pace whose `reach` never resolves: the store's future is polled
//! once (`now_or_never`) and then dropped, as the world drops the work of a
//! process that died. Two attempts in flight at once are two futures polled by
//! hand, each paused once in its work.

use std::cell::{Cell, RefCell};
use std::future::{pending, Future};
use std::pin::{pin, Pin};
use std::task::{Context, Poll};

use futures::executor::block_on;
use futures::FutureExt;
use idempotency_lab::{
    CrashPoint, DurableStore, GrantError, GrantPoints, GrantResult, Pace, StoreOutcome, StoreStep,
    Table, WriteOrder,
};

const ORDERS: [WriteOrder; 3] = [
    WriteOrder::ReceiptFirst,
    WriteOrder::BalanceFirst,
    WriteOrder::OneTransaction,
];

/// A pace written by hand: it crashes at `crash_at` (never resolves there),
/// remembers every point reached and every step noted, counts the work, and
/// gives the time set in `now`. With `pause_in_work` the work yields once, so a
/// second attempt can run while the first is between its read and its writes;
/// with `pause_at` it yields once at that point instead (as a real database lets
/// other sessions write between two statements).
#[derive(Default)]
struct Script {
    crash_at: Option<CrashPoint>,
    pause_in_work: bool,
    pause_at: Option<CrashPoint>,
    now: Cell<u64>,
    worked: Cell<u32>,
    reached: RefCell<Vec<CrashPoint>>,
    notes: RefCell<Vec<(StoreStep, bool)>>,
}

impl Script {
    fn crashing_at(point: CrashPoint) -> Self {
        Script {
            crash_at: Some(point),
            ..Script::default()
        }
    }

    fn pausing() -> Self {
        Script {
            pause_in_work: true,
            ..Script::default()
        }
    }

    fn at(now: u64) -> Self {
        let script = Script::default();
        script.now.set(now);
        script
    }

    fn steps(&self) -> Vec<StoreStep> {
        let notes = self.notes.borrow();
        assert!(
            notes.iter().all(|(_, durable)| *durable),
            "the durable store notes its steps as durable: {notes:?}"
        );
        notes.iter().map(|(step, _)| *step).collect()
    }

    fn reached(&self) -> Vec<CrashPoint> {
        self.reached.borrow().clone()
    }
}

/// Pending once, then ready: a moment inside the work when another task can run.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

impl Pace for Script {
    fn work(&self) -> impl Future<Output = ()> {
        self.worked.set(self.worked.get() + 1);
        YieldOnce(!self.pause_in_work)
    }

    fn reach(&self, point: CrashPoint) -> impl Future<Output = ()> {
        self.reached.borrow_mut().push(point);
        let crash = self.crash_at == Some(point);
        let pause = YieldOnce(self.pause_at != Some(point));
        async move {
            if crash {
                pending::<()>().await;
            }
            pause.await;
        }
    }

    fn note(&self, step: StoreStep, durable: bool) {
        self.notes.borrow_mut().push((step, durable));
    }

    fn now(&self) -> u64 {
        self.now.get()
    }
}

fn grant(key: &str, account: &str, points: i32) -> GrantPoints {
    GrantPoints::new(key, account, points)
}

fn receipt(key: &str, account: &str, points: i32, balance: i32) -> GrantResult {
    GrantResult {
        key: key.into(),
        account_id: account.into(),
        points,
        balance,
    }
}

/// Runs one handling as far as it goes at once: `None` when it crashed (its
/// future never resolves, and is dropped here, as its process is).
fn run(
    store: &DurableStore,
    order: WriteOrder,
    ledger_check: bool,
    grant: &GrantPoints,
    pace: &Script,
) -> Option<Result<StoreOutcome, GrantError>> {
    store
        .apply_paced(order, ledger_check, grant, pace)
        .now_or_never()
}

/// Runs one handling to its end; it must not crash.
fn apply(
    store: &DurableStore,
    order: WriteOrder,
    grant: &GrantPoints,
) -> Result<StoreOutcome, GrantError> {
    block_on(store.apply_paced(order, false, grant, &Script::default()))
}

/// Two attempts in flight at once: both read what is committed, then `first`
/// does its writes to the end, then `second` does its own.
fn race(
    store: &DurableStore,
    order: WriteOrder,
    first: (&GrantPoints, &Script),
    second: (&GrantPoints, &Script),
) -> (
    Result<StoreOutcome, GrantError>,
    Result<StoreOutcome, GrantError>,
) {
    let mut a = pin!(store.apply_paced(order, false, first.0, first.1));
    let mut b = pin!(store.apply_paced(order, false, second.0, second.1));
    assert!(
        a.as_mut().now_or_never().is_none(),
        "first paused in its work"
    );
    assert!(
        b.as_mut().now_or_never().is_none(),
        "second paused in its work"
    );
    let a = a.now_or_never().expect("first runs to its end");
    let b = b.now_or_never().expect("second runs to its end");
    (a, b)
}

/// Nothing at all is stored.
fn assert_empty(store: &DurableStore, what: &str) {
    assert_eq!(store.balances(), [], "{what}");
    assert_eq!(store.receipts_page(usize::MAX), (vec![], 0), "{what}");
    assert_eq!(store.oldest_receipt(), None, "{what}");
    assert!(!store.in_ledger("alice", "k"), "{what}");
}

fn written(order: WriteOrder) -> Vec<StoreStep> {
    match order {
        WriteOrder::ReceiptFirst => vec![
            StoreStep::Wrote(Table::Receipt),
            StoreStep::Wrote(Table::Balance),
        ],
        WriteOrder::BalanceFirst => vec![
            StoreStep::Wrote(Table::Balance),
            StoreStep::Wrote(Table::Receipt),
        ],
        WriteOrder::OneTransaction => vec![
            StoreStep::Staged(Table::Balance),
            StoreStep::Staged(Table::Receipt),
            StoreStep::Committed,
        ],
    }
}

#[test]
fn each_order_writes_its_two_tables_in_its_order_and_reaches_every_point() {
    for order in ORDERS {
        let store = DurableStore::new();
        let pace = Script::at(7);
        let outcome = block_on(store.apply_paced(order, false, &grant("k", "alice", 100), &pace));
        assert_eq!(
            outcome,
            Ok(StoreOutcome::Applied(receipt("k", "alice", 100, 100))),
            "{order:?}"
        );
        assert_eq!(pace.steps(), written(order), "{order:?}");
        assert_eq!(pace.reached(), CrashPoint::ALL, "{order:?}");
        assert_eq!(pace.worked.get(), 1, "{order:?}");
        assert_eq!(store.balance("alice"), 100, "{order:?}");
        assert_eq!(
            store.receipt("alice", "k"),
            Some(receipt("k", "alice", 100, 100))
        );
        assert!(store.in_ledger("alice", "k"), "{order:?}");
        assert_eq!(store.oldest_receipt(), Some(7), "dated when written");

        // A second grant on the account builds on the first.
        let second = apply(&store, order, &grant("k2", "alice", 25));
        assert_eq!(
            second,
            Ok(StoreOutcome::Applied(receipt("k2", "alice", 25, 125)))
        );
        assert_eq!(store.balance("alice"), 125);
    }
}

#[test]
fn a_repeat_returns_the_committed_receipt_with_no_work_and_no_write() {
    for order in ORDERS {
        for ledger_check in [false, true] {
            let store = DurableStore::new();
            apply(&store, order, &grant("k", "alice", 100)).unwrap();
            let pace = Script::default();
            let again = run(
                &store,
                order,
                ledger_check,
                &grant("k", "alice", 100),
                &pace,
            );
            assert_eq!(
                again,
                Some(Ok(StoreOutcome::Replayed(receipt("k", "alice", 100, 100)))),
                "{order:?}"
            );
            assert_eq!(pace.steps(), [], "a receipt found is no ledger recognition");
            assert_eq!(
                pace.reached(),
                [],
                "a replay writes nothing, so cannot crash"
            );
            assert_eq!(pace.worked.get(), 0, "the store reads before it works");
            assert_eq!(store.balance("alice"), 100);
            assert_eq!(store.receipts_page(10).1, 1);
        }
    }
}

#[test]
fn what_was_committed_survives_the_crash_after_commit() {
    for order in ORDERS {
        let store = DurableStore::new();
        let other_handle = store.clone();
        let pace = Script::crashing_at(CrashPoint::AfterCommit);
        assert_eq!(
            run(&store, order, false, &grant("k", "alice", 100), &pace),
            None,
            "{order:?} crashed"
        );
        assert_eq!(pace.steps(), written(order), "{order:?}");
        drop(store);
        // The tables outlive the process (and every handle it had).
        assert_eq!(other_handle.balance("alice"), 100, "{order:?}");
        assert_eq!(
            other_handle.receipt("alice", "k"),
            Some(receipt("k", "alice", 100, 100))
        );
        assert!(other_handle.in_ledger("alice", "k"));
        // The retry finds the committed receipt and grants nothing.
        assert_eq!(
            apply(&other_handle, order, &grant("k", "alice", 100)),
            Ok(StoreOutcome::Replayed(receipt("k", "alice", 100, 100)))
        );
        assert_eq!(other_handle.balance("alice"), 100);
    }
}

#[test]
fn a_crash_before_the_writes_leaves_nothing_and_the_retry_applies_once() {
    for order in ORDERS {
        let store = DurableStore::new();
        let pace = Script::crashing_at(CrashPoint::BeforeWrites);
        assert_eq!(
            run(&store, order, false, &grant("k", "alice", 100), &pace),
            None
        );
        assert_eq!(pace.steps(), [], "{order:?}");
        assert_eq!(pace.reached(), [CrashPoint::BeforeWrites]);
        assert_empty(&store, &format!("{order:?}"));
        assert_eq!(
            apply(&store, order, &grant("k", "alice", 100)),
            Ok(StoreOutcome::Applied(receipt("k", "alice", 100, 100)))
        );
    }
}

#[test]
fn a_crash_between_the_writes_leaves_what_the_order_wrote_first() {
    // Receipt first: a receipt for points never added; the retry replays it.
    let store = DurableStore::new();
    let pace = Script::crashing_at(CrashPoint::BetweenWrites);
    let order = WriteOrder::ReceiptFirst;
    assert_eq!(
        run(&store, order, false, &grant("k", "alice", 100), &pace),
        None
    );
    assert_eq!(pace.steps(), [StoreStep::Wrote(Table::Receipt)]);
    assert_eq!(store.balance("alice"), 0);
    assert_eq!(store.balances(), [], "the balance row was never written");
    assert!(!store.in_ledger("alice", "k"));
    assert_eq!(
        store.receipt("alice", "k"),
        Some(receipt("k", "alice", 100, 100))
    );
    assert_eq!(
        apply(&store, order, &grant("k", "alice", 100)),
        Ok(StoreOutcome::Replayed(receipt("k", "alice", 100, 100)))
    );
    assert_eq!(store.balance("alice"), 0, "the grant is lost for good");

    // Balance first: points with no receipt; the retry grants again.
    let store = DurableStore::new();
    let pace = Script::crashing_at(CrashPoint::BetweenWrites);
    let order = WriteOrder::BalanceFirst;
    assert_eq!(
        run(&store, order, false, &grant("k", "alice", 100), &pace),
        None
    );
    assert_eq!(pace.steps(), [StoreStep::Wrote(Table::Balance)]);
    assert_eq!(store.balance("alice"), 100);
    assert!(store.in_ledger("alice", "k"));
    assert_eq!(store.receipt("alice", "k"), None);
    assert_eq!(
        apply(&store, order, &grant("k", "alice", 100)),
        Ok(StoreOutcome::Applied(receipt("k", "alice", 100, 200)))
    );
    assert_eq!(store.balance("alice"), 200, "granted twice");

    // One transaction: what it staged is gone; the retry applies once.
    let store = DurableStore::new();
    let pace = Script::crashing_at(CrashPoint::BetweenWrites);
    let order = WriteOrder::OneTransaction;
    assert_eq!(
        run(&store, order, false, &grant("k", "alice", 100), &pace),
        None
    );
    assert_eq!(pace.steps(), [StoreStep::Staged(Table::Balance)]);
    assert_empty(&store, "staged writes are not written");
    assert_eq!(
        apply(&store, order, &grant("k", "alice", 100)),
        Ok(StoreOutcome::Applied(receipt("k", "alice", 100, 100)))
    );
}

#[test]
fn a_transaction_dropped_before_commit_leaves_nothing_at_any_moment() {
    // Dropped while it works (after its read), and at each point before commit.
    let store = DurableStore::new();
    let pace = Script::pausing();
    let request = grant("k", "alice", 100);
    let mut future =
        Box::pin(store.apply_paced(WriteOrder::OneTransaction, false, &request, &pace));
    assert!(future.as_mut().now_or_never().is_none());
    assert_eq!(pace.worked.get(), 1);
    drop(future);
    assert_empty(&store, "dropped in its work");
    for point in [CrashPoint::BeforeWrites, CrashPoint::BetweenWrites] {
        let pace = Script::crashing_at(point);
        let crashed = run(
            &store,
            WriteOrder::OneTransaction,
            false,
            &grant("k", "alice", 100),
            &pace,
        );
        assert_eq!(crashed, None);
        assert_empty(&store, &format!("{point:?}"));
    }
}

#[test]
fn the_unique_constraint_refuses_a_second_receipt_for_one_operation() {
    for order in ORDERS {
        let store = DurableStore::new();
        let (first, second) = (Script::pausing(), Script::pausing());
        let (a, b) = race(
            &store,
            order,
            (&grant("k", "alice", 100), &first),
            (&grant("k", "alice", 100), &second),
        );
        let winner = receipt("k", "alice", 100, 100);
        assert_eq!(a, Ok(StoreOutcome::Applied(winner.clone())), "{order:?}");
        assert_eq!(b, Ok(StoreOutcome::Replayed(winner)), "{order:?}");
        assert_eq!(store.receipts_page(10).1, 1, "one receipt: {order:?}");
        let (steps, balance) = match order {
            // Refused at its first write: nothing of it stands.
            WriteOrder::ReceiptFirst => (vec![StoreStep::Conflict], 100),
            // Its points were added before the refusal, and stay.
            WriteOrder::BalanceFirst => (
                vec![StoreStep::Wrote(Table::Balance), StoreStep::Conflict],
                200,
            ),
            // Refused at commit: its staged writes are rolled back.
            WriteOrder::OneTransaction => (
                vec![
                    StoreStep::Staged(Table::Balance),
                    StoreStep::Staged(Table::Receipt),
                    StoreStep::Conflict,
                ],
                100,
            ),
        };
        assert_eq!(second.steps(), steps, "{order:?}");
        assert_eq!(store.balance("alice"), balance, "{order:?}");
        let reached_by_loser = match order {
            WriteOrder::ReceiptFirst => vec![CrashPoint::BeforeWrites],
            _ => vec![CrashPoint::BeforeWrites, CrashPoint::BetweenWrites],
        };
        assert_eq!(second.reached(), reached_by_loser, "{order:?}");
    }
}

#[test]
fn a_racing_attempt_with_other_points_is_refused_by_the_constraint_as_a_mismatch() {
    for order in ORDERS {
        let store = DurableStore::new();
        let (first, second) = (Script::pausing(), Script::pausing());
        let (a, b) = race(
            &store,
            order,
            (&grant("k", "alice", 100), &first),
            (&grant("k", "alice", 40), &second),
        );
        assert!(matches!(a, Ok(StoreOutcome::Applied(_))));
        assert_eq!(
            b,
            Err(GrantError::PayloadMismatch {
                stored: receipt("k", "alice", 100, 100),
                rejected: grant("k", "alice", 40),
            }),
            "{order:?}"
        );
        assert!(second.steps().contains(&StoreStep::Conflict));
        assert_eq!(store.receipt("alice", "k").unwrap().points, 100);
    }
}

#[test]
fn racing_operations_on_one_account_both_commit() {
    for order in ORDERS {
        let store = DurableStore::new();
        let (first, second) = (Script::pausing(), Script::pausing());
        let (a, b) = race(
            &store,
            order,
            (&grant("k1", "alice", 100), &first),
            (&grant("k2", "alice", 25), &second),
        );
        assert_eq!(store.balance("alice"), 125, "{order:?}");
        assert!(matches!(a, Ok(StoreOutcome::Applied(_))));
        // The balance is read for the writes after the work: the second builds
        // on the first.
        assert_eq!(
            b,
            Ok(StoreOutcome::Applied(receipt("k2", "alice", 25, 125))),
            "{order:?}"
        );
        assert_eq!(store.receipt("alice", "k2").unwrap().balance, 125);
        assert!(store.in_ledger("alice", "k1") && store.in_ledger("alice", "k2"));
    }
}

#[test]
fn a_key_is_scoped_to_its_account() {
    for order in ORDERS {
        let store = DurableStore::new();
        apply(&store, order, &grant("k", "alice", 100)).unwrap();
        assert_eq!(
            apply(&store, order, &grant("k", "bob", 40)),
            Ok(StoreOutcome::Applied(receipt("k", "bob", 40, 40)))
        );
        assert_eq!(
            store.balances(),
            [("alice".to_owned(), 100), ("bob".to_owned(), 40)]
        );
        assert_eq!(store.receipt("bob", "k").unwrap().points, 40);
        assert_eq!(store.receipt("carol", "k"), None);
    }
}

#[test]
fn a_payload_mismatch_changes_nothing() {
    for order in ORDERS {
        let store = DurableStore::new();
        apply(&store, order, &grant("k", "alice", 100)).unwrap();
        let pace = Script::default();
        let other = run(&store, order, false, &grant("k", "alice", 50), &pace);
        assert_eq!(
            other,
            Some(Err(GrantError::PayloadMismatch {
                stored: receipt("k", "alice", 100, 100),
                rejected: grant("k", "alice", 50),
            })),
            "{order:?}"
        );
        assert_eq!((pace.steps(), pace.reached()), (vec![], vec![]));
        assert_eq!(pace.worked.get(), 0);
        assert_eq!(store.balance("alice"), 100);
        assert_eq!(store.receipt("alice", "k").unwrap().points, 100);
    }
}

#[test]
fn an_overflow_changes_nothing() {
    for order in ORDERS {
        let store = DurableStore::new();
        apply(&store, order, &grant("big", "alice", i32::MAX - 5)).unwrap();
        let pace = Script::default();
        let over = run(&store, order, false, &grant("k", "alice", 10), &pace);
        assert_eq!(over, Some(Err(GrantError::Overflow)), "{order:?}");
        assert_eq!(pace.steps(), [], "{order:?}");
        assert_eq!(pace.reached(), [], "checked before the first crash point");
        assert_eq!(store.balance("alice"), i32::MAX - 5);
        assert_eq!(store.receipt("alice", "k"), None);
        assert!(!store.in_ledger("alice", "k"));
        // Exactly up to the limit still fits.
        assert_eq!(
            apply(&store, order, &grant("k", "alice", 5)),
            Ok(StoreOutcome::Applied(receipt("k", "alice", 5, i32::MAX)))
        );
    }
}

#[test]
fn an_overflow_found_at_the_write_leaves_the_tables_as_the_order_left_them() {
    // The second attempt checks its room, pauses before its writes, and the first
    // fills the account meanwhile: its write finds no room.
    for order in ORDERS {
        let store = DurableStore::new();
        let late = Script {
            pause_at: Some(CrashPoint::BeforeWrites),
            ..Script::default()
        };
        let small = grant("k", "alice", 10);
        let mut second = pin!(store.apply_paced(order, false, &small, &late));
        assert!(second.as_mut().now_or_never().is_none());
        assert_eq!(late.reached(), [CrashPoint::BeforeWrites]);
        apply(&store, order, &grant("big", "alice", i32::MAX - 5)).unwrap();
        assert_eq!(
            second.now_or_never(),
            Some(Err(GrantError::Overflow)),
            "{order:?}"
        );
        assert_eq!(store.balance("alice"), i32::MAX - 5, "{order:?}");
        assert!(!store.in_ledger("alice", "k"), "{order:?}");
        match order {
            // Its receipt was written on its own before the balance was tried:
            // the receipt-first hazard, here with a refusal instead of a crash.
            WriteOrder::ReceiptFirst => {
                assert_eq!(late.steps(), [StoreStep::Wrote(Table::Receipt)]);
                assert_eq!(store.receipt("alice", "k").unwrap().points, 10);
            }
            WriteOrder::BalanceFirst => {
                assert_eq!(late.steps(), []);
                assert_eq!(store.receipt("alice", "k"), None);
            }
            // The commit refuses both writes at once.
            WriteOrder::OneTransaction => {
                assert_eq!(
                    late.steps(),
                    [
                        StoreStep::Staged(Table::Balance),
                        StoreStep::Staged(Table::Receipt)
                    ]
                );
                assert_eq!(store.receipt("alice", "k"), None);
            }
        }
    }
}

#[test]
fn an_overflow_found_after_the_work_changes_nothing_in_any_order() {
    // Both attempts read a balance with room; the first fills it while the
    // second works, and the second finds out before it writes anything.
    for order in ORDERS {
        let store = DurableStore::new();
        let (first, second) = (Script::pausing(), Script::pausing());
        let (a, b) = race(
            &store,
            order,
            (&grant("big", "alice", i32::MAX - 5), &first),
            (&grant("k", "alice", 10), &second),
        );
        assert!(matches!(a, Ok(StoreOutcome::Applied(_))));
        assert_eq!(b, Err(GrantError::Overflow), "{order:?}");
        assert_eq!((second.steps(), second.reached()), (vec![], vec![]));
        assert_eq!(store.balance("alice"), i32::MAX - 5);
        assert_eq!(store.receipt("alice", "k"), None);
    }
}

#[test]
fn invalid_grants_are_refused_before_anything_is_read_or_written() {
    let cases = [
        (grant("", "alice", 100), GrantError::EmptyKey),
        (grant(" \t", "alice", 100), GrantError::EmptyKey),
        (grant("k", "", 100), GrantError::EmptyAccount),
        (grant("k", "  ", 100), GrantError::EmptyAccount),
        (grant("k", "alice", 0), GrantError::NonPositivePoints),
        (grant("k", "alice", -5), GrantError::NonPositivePoints),
        (grant("k", "alice", i32::MIN), GrantError::NonPositivePoints),
    ];
    for order in ORDERS {
        let store = DurableStore::new();
        for (bad, error) in &cases {
            let pace = Script::default();
            assert_eq!(
                run(&store, order, true, bad, &pace),
                Some(Err(error.clone())),
                "{order:?} {bad:?}"
            );
            assert_eq!((pace.steps(), pace.reached()), (vec![], vec![]));
            assert_eq!(pace.worked.get(), 0);
        }
        assert_empty(&store, &format!("{order:?}"));
        // Validation comes before the lookup: a stored key with bad points is
        // refused as bad points, not as a mismatch.
        apply(&store, order, &grant("k", "alice", 100)).unwrap();
        assert_eq!(
            apply(&store, order, &grant("k", "alice", 0)),
            Err(GrantError::NonPositivePoints)
        );
    }
}

#[test]
fn the_sweep_deletes_only_receipts_at_or_before_the_cutoff() {
    let store = DurableStore::new();
    let order = WriteOrder::OneTransaction;
    for (key, account, at) in [
        ("k-10", "alice", 10),
        ("k-2", "alice", 20),
        ("k-1", "bob", 20),
        ("k-3", "alice", 30),
    ] {
        block_on(store.apply_paced(order, false, &grant(key, account, 5), &Script::at(at)))
            .unwrap();
    }
    let balances = store.balances();
    assert_eq!(store.oldest_receipt(), Some(10));
    assert_eq!(store.sweep(9), Vec::<(String, String)>::new());
    assert_eq!(store.receipts_page(10).1, 4);
    let gone = store.sweep(20);
    // In (account, key) order, numbers in names read as numbers.
    assert_eq!(
        gone,
        [
            ("alice".to_owned(), "k-2".to_owned()),
            ("alice".to_owned(), "k-10".to_owned()),
            ("bob".to_owned(), "k-1".to_owned()),
        ]
    );
    assert_eq!(
        store.receipts_page(10),
        (vec![receipt("k-3", "alice", 5, 15)], 1)
    );
    assert_eq!(store.oldest_receipt(), Some(30));
    assert_eq!(store.balances(), balances, "balances are never swept");
    for (account, key) in [
        ("alice", "k-10"),
        ("alice", "k-2"),
        ("bob", "k-1"),
        ("alice", "k-3"),
    ] {
        assert!(store.in_ledger(account, key), "ledger rows are never swept");
    }
    assert_eq!(store.sweep(20), Vec::<(String, String)>::new(), "once");
    assert_eq!(store.sweep(30).len(), 1);
    assert_eq!(store.oldest_receipt(), None);
    assert_eq!(store.sweep(u64::MAX), Vec::<(String, String)>::new());
}

#[test]
fn a_transactions_receipt_is_dated_at_its_commit() {
    let store = DurableStore::new();
    let pace = Script::pausing();
    let request = grant("k", "alice", 100);
    let mut future = pin!(store.apply_paced(WriteOrder::OneTransaction, false, &request, &pace));
    assert!(future.as_mut().now_or_never().is_none());
    pace.now.set(50);
    assert!(future.now_or_never().is_some());
    assert_eq!(store.oldest_receipt(), Some(50));
    assert!(store.sweep(49).is_empty());
    assert_eq!(store.sweep(50).len(), 1);
}

#[test]
fn after_expiry_a_retry_grants_again_unless_the_ledger_recognises_it() {
    for order in ORDERS {
        // Without the ledger check the swept operation is new again.
        let store = DurableStore::new();
        apply(&store, order, &grant("k", "alice", 100)).unwrap();
        store.sweep(0);
        assert_eq!(store.receipt("alice", "k"), None);
        assert_eq!(
            apply(&store, order, &grant("k", "alice", 100)),
            Ok(StoreOutcome::Applied(receipt("k", "alice", 100, 200))),
            "{order:?}"
        );

        // With it, the ledger row answers: the first grant's points and balance.
        let store = DurableStore::new();
        apply(&store, order, &grant("k", "alice", 100)).unwrap();
        apply(&store, order, &grant("k2", "alice", 25)).unwrap();
        store.sweep(0);
        let pace = Script::default();
        assert_eq!(
            run(&store, order, true, &grant("k", "alice", 100), &pace),
            Some(Ok(StoreOutcome::Replayed(receipt("k", "alice", 100, 100)))),
            "{order:?}"
        );
        assert_eq!(pace.steps(), [StoreStep::RecognisedByLedger]);
        assert_eq!((pace.worked.get(), pace.reached()), (0, vec![]));
        assert_eq!(store.balance("alice"), 125);
        assert_eq!(store.receipt("alice", "k"), None, "no receipt is rewritten");
        // Other points under the recognised key are a mismatch.
        let pace = Script::default();
        assert_eq!(
            run(&store, order, true, &grant("k", "alice", 7), &pace),
            Some(Err(GrantError::PayloadMismatch {
                stored: receipt("k", "alice", 100, 100),
                rejected: grant("k", "alice", 7),
            }))
        );
        assert_eq!(pace.steps(), [StoreStep::RecognisedByLedger]);
        // The ledger does not invent operations it never saw.
        assert_eq!(
            apply(&store, order, &grant("new", "alice", 1))
                .unwrap()
                .into_receipt()
                .balance,
            126
        );
    }
}

#[test]
fn the_ledger_recognises_balance_first_points_whose_receipt_was_never_written() {
    let store = DurableStore::new();
    let pace = Script::crashing_at(CrashPoint::BetweenWrites);
    let order = WriteOrder::BalanceFirst;
    assert_eq!(
        run(&store, order, false, &grant("k", "alice", 100), &pace),
        None
    );
    let pace = Script::default();
    assert_eq!(
        run(&store, order, true, &grant("k", "alice", 100), &pace),
        Some(Ok(StoreOutcome::Replayed(receipt("k", "alice", 100, 100))))
    );
    assert_eq!(pace.steps(), [StoreStep::RecognisedByLedger]);
    assert_eq!(store.balance("alice"), 100);
}

#[test]
fn readers_list_the_tables_in_natural_order() {
    let store = DurableStore::new();
    assert_eq!(store.balance("nobody"), 0);
    assert_eq!(store.receipt("nobody", "k"), None);
    for (key, account) in [
        ("k-10", "account-10"),
        ("k-2", "account-2"),
        ("k-1", "account-2"),
    ] {
        apply(&store, WriteOrder::BalanceFirst, &grant(key, account, 3)).unwrap();
    }
    assert_eq!(
        store.balances(),
        [("account-2".to_owned(), 6), ("account-10".to_owned(), 3)]
    );
    let (page, total) = store.receipts_page(2);
    assert_eq!(total, 3);
    assert_eq!(
        page,
        [
            receipt("k-1", "account-2", 3, 6),
            receipt("k-2", "account-2", 3, 3)
        ]
    );
    assert_eq!(store.receipts_page(0), (vec![], 3));
}

#[test]
fn handles_share_one_set_of_tables_and_new_stores_do_not() {
    let store = DurableStore::new();
    let handle = store.clone();
    apply(&handle, WriteOrder::OneTransaction, &grant("k", "alice", 1)).unwrap();
    assert_eq!(store.balance("alice"), 1);
    assert_eq!(DurableStore::new().balance("alice"), 0);
    assert_eq!(DurableStore::default().balance("alice"), 0);
}

#[test]
fn a_store_used_on_its_own_dates_its_receipts_at_time_zero() {
    use idempotency_lab::Unpaced;
    let store = DurableStore::new();
    for (order, key) in ORDERS.into_iter().zip(["a", "b", "c"]) {
        let outcome = block_on(store.apply_paced(order, false, &grant(key, "alice", 1), &Unpaced));
        assert!(matches!(outcome, Ok(StoreOutcome::Applied(_))), "{order:?}");
    }
    assert_eq!(store.oldest_receipt(), Some(0));
    assert_eq!(store.sweep(0).len(), 3);
}

/// The durable store in one write order, as a store the worker can use.
struct Ordered(DurableStore, WriteOrder);

impl idempotency_lab::GrantStore for Ordered {
    async fn apply_paced<P: Pace>(
        &self,
        grant: &GrantPoints,
        pace: &P,
    ) -> Result<StoreOutcome, GrantError> {
        self.0.apply_paced(self.1, false, grant, pace).await
    }
}

#[test]
fn behind_the_articles_own_worker_the_durable_store_keeps_its_promise() {
    use futures::future::join;
    use idempotency_lab::core::{PointWorker, Unobserved};
    for order in ORDERS {
        let store = DurableStore::new();
        let (worker, consumer) = PointWorker::with_hooks(Ordered(store.clone(), order), Unobserved);
        let calls = async {
            let first = worker.process(grant("k", "alice", 100), true).await;
            let retry = worker.process(grant("k", "alice", 100), false).await;
            worker.shutdown().await;
            (first, retry)
        };
        let ((first, retry), ()) = block_on(join(calls, consumer));
        assert_eq!(
            first,
            Err(GrantError::Timeout),
            "{order:?}: the lost acknowledgement"
        );
        assert_eq!(retry, Ok(receipt("k", "alice", 100, 100)), "{order:?}");
        assert_eq!(store.balance("alice"), 100);
        // The article's worker has no clock: receipts are dated 0.
        assert_eq!(store.oldest_receipt(), Some(0), "{order:?}");
    }
}
