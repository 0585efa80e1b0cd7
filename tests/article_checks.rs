#![cfg(not(target_arch = "wasm32"))]
//! The checks of the article's Program.cs (SUMMARY.md section 8), plus section 9's
//! "a receipt is not the current balance", each as its own test.
//!
//! Most tests run the worker's consumer on a single-threaded `LocalPool`, so the order of
//! events is deterministic; a few use a `ThreadPool` or OS threads on purpose.

use std::collections::HashSet;
use std::sync::Barrier;
use std::task::Poll;
use std::thread;

use futures::executor::{LocalPool, ThreadPool};
use futures::task::{LocalSpawnExt, SpawnExt};
mod support;

use support::{block_on_within, drive, poll_once, with_worker};

use idempotency_lab::{
    deliver, GrantError, GrantPoints, GrantResult, PointStore, PointWorker, StoreOutcome,
};

const ACCOUNT: &str = "customer-42";
const OTHER_ACCOUNT: &str = "customer-7";
const KEY: &str = "purchase-1001";

/// The article's first grant: 100 points for one purchase.
fn first_grant() -> GrantPoints {
    GrantPoints::new(KEY, ACCOUNT, 100)
}

fn receipt(key: &str, account: &str, points: i32, balance: i32) -> GrantResult {
    GrantResult {
        key: key.to_owned(),
        account_id: account.to_owned(),
        points,
        balance,
    }
}

/// Everything the store holds, to compare before and after a rejection.
fn snapshot(store: &PointStore) -> (Vec<(String, i32)>, Vec<GrantResult>) {
    (store.balances(), store.receipts())
}

// ---------------------------------------------------------------------------------------
// Program.cs checks, in the article's order
// ---------------------------------------------------------------------------------------

#[test]
fn first_delivery_loses_its_ack_after_applying_so_the_caller_gets_timeout() {
    let store = PointStore::new();
    let answer = with_worker(&store, async |worker: &PointWorker| {
        worker.process(first_grant(), true).await
    });

    assert_eq!(answer, Err(GrantError::Timeout));
    assert!(answer.unwrap_err().is_retryable());
    // The fault struck *after* the apply: the receipt is already stored.
    assert_eq!(
        store.receipt(ACCOUNT, KEY),
        Some(receipt(KEY, ACCOUNT, 100, 100))
    );
}

#[test]
fn balance_is_100_even_though_the_caller_only_saw_a_timeout() {
    let store = PointStore::new();
    let answer = with_worker(&store, async |worker: &PointWorker| {
        worker.process(first_grant(), true).await
    });

    assert_eq!(answer, Err(GrantError::Timeout));
    assert_eq!(store.balance(ACCOUNT), 100);
    assert_eq!(store.balances(), vec![(ACCOUNT.to_owned(), 100)]);
}

#[test]
fn retrying_the_same_key_through_the_worker_returns_the_receipt_and_adds_nothing() {
    let store = PointStore::new();
    let (lost, retries) = with_worker(&store, async |worker: &PointWorker| {
        let lost = worker.process(first_grant(), true).await;
        let mut retries = Vec::new();
        for _ in 0..3 {
            retries.push(worker.process(first_grant(), false).await);
        }
        (lost, retries)
    });

    assert_eq!(lost, Err(GrantError::Timeout));
    for retry in retries {
        assert_eq!(retry, Ok(receipt(KEY, ACCOUNT, 100, 100)));
    }
    assert_eq!(store.balance(ACCOUNT), 100);
    assert_eq!(store.receipts(), vec![receipt(KEY, ACCOUNT, 100, 100)]);
    // The store itself calls the retry a replay, not a new apply.
    assert_eq!(
        store.apply_detailed(&first_grant()),
        Ok(StoreOutcome::Replayed(receipt(KEY, ACCOUNT, 100, 100)))
    );
}

#[test]
fn changed_payload_under_the_same_key_is_rejected_with_payload_mismatch() {
    let store = PointStore::new();
    let changed = GrantPoints::new(KEY, ACCOUNT, 200);
    let (plain, with_lost_ack) = with_worker(&store, async |worker: &PointWorker| {
        worker.process(first_grant(), true).await.unwrap_err();
        let plain = worker.process(changed.clone(), false).await;
        // Losing the ack only ever follows a successful apply; a rejection is still reported.
        let with_lost_ack = worker.process(changed.clone(), true).await;
        (plain, with_lost_ack)
    });

    let expected = GrantError::PayloadMismatch {
        stored: receipt(KEY, ACCOUNT, 100, 100),
        rejected: changed.clone(),
    };
    assert_eq!(plain, Err(expected.clone()));
    assert_eq!(with_lost_ack, Err(expected.clone()));
    assert!(!expected.is_retryable());
    assert_eq!(store.balance(ACCOUNT), 100);
    assert_eq!(store.receipts(), vec![receipt(KEY, ACCOUNT, 100, 100)]);
    // A smaller amount under the same key is just as wrong.
    assert!(matches!(
        store.apply(&GrantPoints::new(KEY, ACCOUNT, 99)),
        Err(GrantError::PayloadMismatch { .. })
    ));
    assert_eq!(store.balance(ACCOUNT), 100);
}

#[test]
fn keys_are_scoped_to_the_account_so_the_same_key_applies_on_another_account() {
    let store = PointStore::new();
    let (first, other, other_again) = with_worker(&store, async |worker: &PointWorker| {
        let first = worker.process(first_grant(), false).await;
        // Same key, another account, and even other points: a separate operation, not a mismatch.
        let other = worker
            .process(GrantPoints::new(KEY, OTHER_ACCOUNT, 30), false)
            .await;
        let other_again = worker
            .process(GrantPoints::new(KEY, OTHER_ACCOUNT, 30), false)
            .await;
        (first, other, other_again)
    });

    assert_eq!(first, Ok(receipt(KEY, ACCOUNT, 100, 100)));
    assert_eq!(other, Ok(receipt(KEY, OTHER_ACCOUNT, 30, 30)));
    assert_eq!(other_again, Ok(receipt(KEY, OTHER_ACCOUNT, 30, 30)));
    assert_eq!(store.balance(ACCOUNT), 100);
    assert_eq!(store.balance(OTHER_ACCOUNT), 30);
    assert_eq!(store.receipts().len(), 2);
    assert_eq!(
        store.receipt(OTHER_ACCOUNT, KEY),
        Some(receipt(KEY, OTHER_ACCOUNT, 30, 30))
    );
}

#[test]
fn a_fresh_key_with_the_same_payload_is_a_new_grant_and_adds_points() {
    let store = PointStore::new();
    let (first, second) = with_worker(&store, async |worker: &PointWorker| {
        let first = worker.process(first_grant(), false).await;
        let second = worker
            .process(first_grant().with_key("purchase-1002"), false)
            .await;
        (first, second)
    });

    assert_eq!(first, Ok(receipt(KEY, ACCOUNT, 100, 100)));
    assert_eq!(second, Ok(receipt("purchase-1002", ACCOUNT, 100, 200)));
    assert_eq!(store.balance(ACCOUNT), 200);
    assert_eq!(store.receipts().len(), 2);
}

#[test]
fn concurrent_callers_of_the_store_apply_the_grant_once() {
    const CALLERS: usize = 8;
    // The race is repeated: one lucky round proves little.
    for round in 0..100 {
        let store = PointStore::new();
        let barrier = Barrier::new(CALLERS);
        let outcomes: Vec<StoreOutcome> = thread::scope(|scope| {
            let handles: Vec<_> = (0..CALLERS)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        store.apply_detailed(&first_grant()).expect("valid grant")
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });

        let applied = outcomes
            .iter()
            .filter(|o| matches!(o, StoreOutcome::Applied(_)))
            .count();
        assert_eq!(applied, 1, "round {round}: {outcomes:?}");
        for outcome in &outcomes {
            assert_eq!(outcome.receipt(), &receipt(KEY, ACCOUNT, 100, 100));
        }
        assert_eq!(store.balance(ACCOUNT), 100, "round {round}");
        assert_eq!(store.receipts().len(), 1, "round {round}");
    }
}

#[test]
fn invalid_input_is_rejected_and_changes_nothing() {
    let cases = [
        (GrantPoints::new("", ACCOUNT, 10), GrantError::EmptyKey),
        (GrantPoints::new(" \t\n", ACCOUNT, 10), GrantError::EmptyKey),
        (
            GrantPoints::new("k-empty-account", "", 10),
            GrantError::EmptyAccount,
        ),
        (
            GrantPoints::new("k-blank-account", "   ", 10),
            GrantError::EmptyAccount,
        ),
        (
            GrantPoints::new("k-zero", ACCOUNT, 0),
            GrantError::NonPositivePoints,
        ),
        (
            GrantPoints::new("k-negative", ACCOUNT, -5),
            GrantError::NonPositivePoints,
        ),
        (
            GrantPoints::new("k-min", ACCOUNT, i32::MIN),
            GrantError::NonPositivePoints,
        ),
    ];
    let store = PointStore::new();
    store.apply(&first_grant()).unwrap();
    let before = snapshot(&store);

    for (grant, expected) in &cases {
        assert_eq!(store.apply(grant).as_ref(), Err(expected), "{grant:?}");
        assert_eq!(store.apply_detailed(grant).as_ref(), Err(expected));
        let through_store = deliver(&store, grant, true);
        assert_eq!(through_store.store.as_ref(), Err(expected));
        // A lost ack never hides a rejection behind a timeout.
        assert_eq!(through_store.caller.as_ref(), Err(expected));
        assert!(!expected.is_retryable());
        assert_eq!(snapshot(&store), before, "state changed by {grant:?}");
    }

    let answers = with_worker(&store, async |worker: &PointWorker| {
        let mut answers = Vec::new();
        for (grant, _) in &cases {
            answers.push(worker.process(grant.clone(), false).await);
            answers.push(worker.process(grant.clone(), true).await);
        }
        answers
    });
    for (pair, (grant, expected)) in answers.chunks(2).zip(&cases) {
        assert_eq!(pair[0].as_ref(), Err(expected), "{grant:?}");
        assert_eq!(pair[1].as_ref(), Err(expected), "{grant:?}");
    }
    assert_eq!(snapshot(&store), before);

    // A rejected key left no receipt behind: the corrected request applies normally.
    assert_eq!(
        store.apply(&GrantPoints::new("k-zero", ACCOUNT, 5)),
        Ok(receipt("k-zero", ACCOUNT, 5, 105))
    );
}

#[test]
fn overflow_is_rejected_and_leaves_balance_and_receipts_unchanged() {
    let store = PointStore::new();
    let near_max = i32::MAX - 10;
    store
        .apply(&GrantPoints::new("big", ACCOUNT, near_max))
        .unwrap();
    let before = snapshot(&store);

    let too_much = GrantPoints::new("one-too-many", ACCOUNT, 11);
    assert_eq!(store.apply(&too_much), Err(GrantError::Overflow));
    assert!(!GrantError::Overflow.is_retryable());
    assert_eq!(store.balance(ACCOUNT), near_max);
    assert_eq!(snapshot(&store), before);
    assert_eq!(store.receipt(ACCOUNT, "one-too-many"), None);

    let (through_worker, huge) = with_worker(&store, async |worker: &PointWorker| {
        let through_worker = worker.process(too_much.clone(), true).await;
        let huge = worker
            .process(GrantPoints::new("huge", ACCOUNT, i32::MAX), false)
            .await;
        (through_worker, huge)
    });
    assert_eq!(through_worker, Err(GrantError::Overflow));
    assert_eq!(huge, Err(GrantError::Overflow));
    assert_eq!(snapshot(&store), before);

    // Nothing was stored for the rejected key, so a smaller grant under it is no mismatch,
    // and exactly i32::MAX still fits.
    assert_eq!(
        store.apply(&GrantPoints::new("one-too-many", ACCOUNT, 10)),
        Ok(receipt("one-too-many", ACCOUNT, 10, i32::MAX))
    );
    assert_eq!(store.balance(ACCOUNT), i32::MAX);
    // A retry of an applied grant on a full account is a replay, not an overflow.
    assert_eq!(
        store.apply(&GrantPoints::new("big", ACCOUNT, near_max)),
        Ok(receipt("big", ACCOUNT, near_max, near_max))
    );
    // Other accounts are unaffected by one account being full.
    assert_eq!(
        store.apply(&GrantPoints::new("big", OTHER_ACCOUNT, near_max)),
        Ok(receipt("big", OTHER_ACCOUNT, near_max, near_max))
    );
}

#[test]
fn processing_goes_on_after_a_rejection() {
    let store = PointStore::new();
    let answers = with_worker(&store, async |worker: &PointWorker| {
        vec![
            worker.process(first_grant(), false).await,
            worker
                .process(GrantPoints::new("", ACCOUNT, 5), false)
                .await,
            worker
                .process(GrantPoints::new("a", ACCOUNT, 1), false)
                .await,
            worker
                .process(GrantPoints::new(KEY, ACCOUNT, 200), false)
                .await,
            worker
                .process(GrantPoints::new("b", ACCOUNT, 2), false)
                .await,
            worker
                .process(GrantPoints::new("c", ACCOUNT, i32::MAX), false)
                .await,
            worker
                .process(GrantPoints::new("d", ACCOUNT, 3), false)
                .await,
        ]
    });

    assert_eq!(answers[0], Ok(receipt(KEY, ACCOUNT, 100, 100)));
    assert_eq!(answers[1], Err(GrantError::EmptyKey));
    assert_eq!(answers[2], Ok(receipt("a", ACCOUNT, 1, 101)));
    assert!(matches!(
        answers[3],
        Err(GrantError::PayloadMismatch { .. })
    ));
    assert_eq!(answers[4], Ok(receipt("b", ACCOUNT, 2, 103)));
    assert_eq!(answers[5], Err(GrantError::Overflow));
    assert_eq!(answers[6], Ok(receipt("d", ACCOUNT, 3, 106)));
    assert_eq!(store.balance(ACCOUNT), 106);
}

#[test]
fn new_requests_are_rejected_with_worker_stopped_after_shutdown() {
    let store = PointStore::new();
    let (first, after, after_with_lost_ack, stopped) =
        with_worker(&store, async |worker: &PointWorker| {
            let first = worker.process(first_grant(), false).await;
            assert!(!worker.is_stopped());
            worker.shutdown().await;
            // Shutting down twice is harmless.
            worker.shutdown().await;
            let after = worker
                .process(GrantPoints::new("after-shutdown", ACCOUNT, 5), false)
                .await;
            let after_with_lost_ack = worker.process(first_grant(), true).await;
            (first, after, after_with_lost_ack, worker.is_stopped())
        });

    assert_eq!(first, Ok(receipt(KEY, ACCOUNT, 100, 100)));
    assert_eq!(after, Err(GrantError::WorkerStopped));
    assert_eq!(after_with_lost_ack, Err(GrantError::WorkerStopped));
    assert!(stopped);
    assert!(!GrantError::WorkerStopped.is_retryable());
    assert_eq!(store.balance(ACCOUNT), 100);
    assert_eq!(store.receipt(ACCOUNT, "after-shutdown"), None);
}

// ---------------------------------------------------------------------------------------
// Section 9: a receipt is not the current balance
// ---------------------------------------------------------------------------------------

#[test]
fn a_receipt_is_not_the_current_balance_retry_returns_100_while_account_holds_125() {
    let store = PointStore::new();
    let (lost, later, retry) = with_worker(&store, async |worker: &PointWorker| {
        let lost = worker.process(first_grant(), true).await;
        let later = worker
            .process(GrantPoints::new("purchase-1002", ACCOUNT, 25), false)
            .await;
        let retry = worker.process(first_grant(), false).await;
        (lost, later, retry)
    });

    assert_eq!(lost, Err(GrantError::Timeout));
    assert_eq!(later, Ok(receipt("purchase-1002", ACCOUNT, 25, 125)));
    assert_eq!(retry, Ok(receipt(KEY, ACCOUNT, 100, 100)));
    // The separate read gives the current balance.
    assert_eq!(store.balance(ACCOUNT), 125);
    assert_eq!(
        store.receipt(ACCOUNT, KEY),
        Some(receipt(KEY, ACCOUNT, 100, 100))
    );
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

fn every_error() -> Vec<GrantError> {
    vec![
        GrantError::EmptyKey,
        GrantError::EmptyAccount,
        GrantError::NonPositivePoints,
        GrantError::Overflow,
        GrantError::Timeout,
        GrantError::WorkerStopped,
        GrantError::PayloadMismatch {
            stored: receipt(KEY, ACCOUNT, 100, 100),
            rejected: GrantPoints::new(KEY, ACCOUNT, 200),
        },
        GrantError::InProgress,
        GrantError::Forbidden {
            signed_in: "account-8".into(),
            named: ACCOUNT.into(),
        },
    ]
}

#[test]
fn every_error_display_message_is_non_empty_and_distinct() {
    let errors = every_error();
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    for (error, message) in errors.iter().zip(&messages) {
        assert!(!message.trim().is_empty(), "{error:?} has an empty message");
    }
    let distinct: HashSet<&String> = messages.iter().collect();
    assert_eq!(distinct.len(), messages.len(), "messages: {messages:#?}");

    let codes: HashSet<&str> = errors.iter().map(GrantError::code).collect();
    assert_eq!(codes.len(), errors.len());
    assert!(codes.iter().all(|code| !code.is_empty()));

    // The mismatch message names what was stored and what was refused.
    let mismatch = &messages[6];
    assert!(mismatch.contains(KEY) && mismatch.contains("100") && mismatch.contains("200"));
}

#[test]
fn only_what_may_go_away_is_retryable() {
    let retryable: Vec<GrantError> = every_error()
        .into_iter()
        .filter(GrantError::is_retryable)
        .collect();
    assert_eq!(retryable, vec![GrantError::Timeout, GrantError::InProgress]);
}

// ---------------------------------------------------------------------------------------
// The fault model and shutdown
// ---------------------------------------------------------------------------------------

#[test]
fn deliver_with_a_lost_ack_applies_but_tells_the_caller_timeout() {
    let store = PointStore::new();
    let lost = deliver(&store, &first_grant(), true);
    assert_eq!(
        lost.store,
        Ok(StoreOutcome::Applied(receipt(KEY, ACCOUNT, 100, 100)))
    );
    assert_eq!(lost.caller, Err(GrantError::Timeout));

    let retry = deliver(&store, &first_grant(), false);
    assert_eq!(
        retry.store,
        Ok(StoreOutcome::Replayed(receipt(KEY, ACCOUNT, 100, 100)))
    );
    assert_eq!(retry.caller, Ok(receipt(KEY, ACCOUNT, 100, 100)));

    // A retry whose ack is lost again changes nothing, and still looks like a timeout.
    let lost_again = deliver(&store, &first_grant(), true);
    assert!(matches!(lost_again.store, Ok(StoreOutcome::Replayed(_))));
    assert_eq!(lost_again.caller, Err(GrantError::Timeout));
    assert_eq!(store.balance(ACCOUNT), 100);
}

#[test]
fn shutdown_drains_queued_deliveries_and_answers_each_with_its_receipt() {
    const QUEUED: usize = 6;
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());

    // Queue several deliveries while the consumer is not running yet.
    let mut pending: Vec<_> = (0..QUEUED)
        .map(|i| Box::pin(worker.process(GrantPoints::new(format!("q{i}"), ACCOUNT, 10), false)))
        .collect();
    for future in &mut pending {
        assert!(poll_once(future).is_pending());
    }
    assert_eq!(worker.queued(), QUEUED);

    // Start the shutdown: it closes the queue at once and waits for the consumer.
    let mut shutdown = Box::pin(worker.shutdown());
    assert!(poll_once(&mut shutdown).is_pending());
    assert!(worker.is_stopped());
    let mut late = Box::pin(worker.process(GrantPoints::new("late", ACCOUNT, 10), false));
    assert_eq!(
        poll_once(&mut late),
        Poll::Ready(Err(GrantError::WorkerStopped))
    );

    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();
    // The shutdown ends when the consumer has ended; by then every queued caller must
    // already have its answer.
    drive(&mut pool, shutdown);
    let answers: Vec<_> = pending.iter_mut().map(poll_once).collect();

    let expected: Vec<_> = (0..QUEUED)
        .map(|i| {
            let balance = 10 * (i as i32 + 1);
            Poll::Ready(Ok(receipt(&format!("q{i}"), ACCOUNT, 10, balance)))
        })
        .collect();
    assert_eq!(answers, expected);
    assert_eq!(worker.queued(), 0);
    assert_eq!(store.balance(ACCOUNT), 10 * QUEUED as i32);
    assert_eq!(store.receipt(ACCOUNT, "late"), None);
}

#[test]
fn a_caller_that_stops_waiting_does_not_undo_its_grant_and_the_worker_moves_on() {
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());
    let mut abandoned = Box::pin(worker.process(first_grant(), false));
    assert!(poll_once(&mut abandoned).is_pending());
    drop(abandoned);

    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();
    let next = drive(
        &mut pool,
        worker.process(GrantPoints::new("next", ACCOUNT, 1), false),
    );

    assert_eq!(next, Ok(receipt("next", ACCOUNT, 1, 101)));
    assert_eq!(
        store.receipt(ACCOUNT, KEY),
        Some(receipt(KEY, ACCOUNT, 100, 100))
    );
}

#[test]
fn the_whole_program_runs_with_the_consumer_on_a_thread_pool() {
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());
    let pool = ThreadPool::builder().pool_size(1).create().unwrap();
    pool.spawn(consumer).unwrap();

    block_on_within(30, async {
        assert_eq!(
            worker.process(first_grant(), true).await,
            Err(GrantError::Timeout)
        );
        assert_eq!(store.balance(ACCOUNT), 100);
        assert_eq!(
            worker.process(first_grant(), false).await,
            Ok(receipt(KEY, ACCOUNT, 100, 100))
        );
        assert!(matches!(
            worker
                .process(GrantPoints::new(KEY, ACCOUNT, 200), false)
                .await,
            Err(GrantError::PayloadMismatch { .. })
        ));
        assert_eq!(
            worker
                .process(GrantPoints::new(KEY, OTHER_ACCOUNT, 100), false)
                .await,
            Ok(receipt(KEY, OTHER_ACCOUNT, 100, 100))
        );
        assert_eq!(
            worker
                .process(GrantPoints::new("purchase-1002", ACCOUNT, 25), false)
                .await,
            Ok(receipt("purchase-1002", ACCOUNT, 25, 125))
        );
        worker.shutdown().await;
        assert_eq!(
            worker
                .process(GrantPoints::new("purchase-1003", ACCOUNT, 25), false)
                .await,
            Err(GrantError::WorkerStopped)
        );
    });
    assert_eq!(store.balance(ACCOUNT), 125);
    assert_eq!(store.balance(OTHER_ACCOUNT), 100);
}

/// If the consumer future is dropped (even unpolled) while deliveries are queued, each
/// queued caller hears `WorkerStopped` instead of waiting forever.
#[test]
fn queued_callers_hear_worker_stopped_when_the_consumer_is_dropped() {
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());
    let mut queued = Box::pin(worker.process(first_grant(), false));
    assert!(poll_once(&mut queued).is_pending());

    drop(consumer);

    assert!(worker.is_stopped());
    assert_eq!(
        poll_once(&mut queued),
        Poll::Ready(Err(GrantError::WorkerStopped))
    );
    assert_eq!(store.balance(ACCOUNT), 0);
}

// ---------------------------------------------------------------------------------------
// Hooks: the lab watches and paces the worker without changing what it decides
// ---------------------------------------------------------------------------------------

mod observed {
    use std::cell::{Cell, RefCell};
    use std::future::Future;
    use std::rc::Rc;
    use std::task::{Poll, Waker};

    use idempotency_lab::core::WorkerHooks;
    use idempotency_lab::{Delivered, GrantPoints, StoreOutcome};

    /// Records every stage, and can hold the consumer back before it takes one.
    #[derive(Default, Clone)]
    pub struct Recorder {
        pub stages: Rc<RefCell<Vec<String>>>,
        held: Rc<Cell<bool>>,
        consumer: Rc<RefCell<Option<Waker>>>,
    }

    impl Recorder {
        pub fn hold(&self) {
            self.held.set(true);
        }

        pub fn release(&self) {
            self.held.set(false);
            if let Some(waker) = self.consumer.take() {
                waker.wake();
            }
        }
    }

    impl WorkerHooks for Recorder {
        type Tag = u32;
        fn waiting_for_room(&self, tag: &u32) {
            self.stages.borrow_mut().push(format!("waiting {tag}"));
        }
        fn queued(&self, tag: &u32) {
            self.stages.borrow_mut().push(format!("queued {tag}"));
        }
        fn take<F: Future>(&self, next: F) -> impl Future<Output = F::Output> {
            let (held, consumer) = (Rc::clone(&self.held), Rc::clone(&self.consumer));
            async move {
                let mut next = std::pin::pin!(next);
                std::future::poll_fn(|cx| {
                    if held.get() {
                        *consumer.borrow_mut() = Some(cx.waker().clone());
                        return Poll::Pending;
                    }
                    next.as_mut().poll(cx)
                })
                .await
            }
        }
        fn taken(&self, tag: &u32) {
            self.stages.borrow_mut().push(format!("taken {tag}"));
        }
        fn handled(&self, tag: &u32, grant: &GrantPoints, delivered: &Delivered) {
            let what = match (&delivered.store, &delivered.caller) {
                (Ok(StoreOutcome::Applied(_)), Ok(_)) => "applied",
                (Ok(StoreOutcome::Applied(_)), Err(_)) => "applied, ack lost",
                (Ok(StoreOutcome::Replayed(_)), Ok(_)) => "replayed",
                (Ok(StoreOutcome::Replayed(_)), Err(_)) => "replayed, ack lost",
                (Err(e), _) => e.code(),
            };
            self.stages
                .borrow_mut()
                .push(format!("handled {tag} {} {what}", grant.points));
        }
    }
}

#[test]
fn an_observed_worker_answers_exactly_as_the_articles_worker_and_reports_each_stage() {
    let grants = [
        (first_grant(), true),
        (first_grant(), false),
        (GrantPoints::new(KEY, ACCOUNT, 200), false),
        (GrantPoints::new("purchase-1002", ACCOUNT, 25), false),
        (GrantPoints::new("", ACCOUNT, 5), false),
    ];
    let plain_store = PointStore::new();
    let plain = with_worker(&plain_store, async |worker: &PointWorker| {
        let mut answers = Vec::new();
        for (grant, lose) in &grants {
            answers.push(worker.process(grant.clone(), *lose).await);
        }
        answers
    });

    let store = PointStore::new();
    let hooks = observed::Recorder::default();
    let (worker, consumer) = PointWorker::with_hooks(store.clone(), hooks.clone());
    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();
    let observed = drive(&mut pool, async {
        let mut answers = Vec::new();
        for (tag, (grant, lose)) in grants.iter().enumerate() {
            answers.push(
                worker
                    .process_tagged(tag as u32, grant.clone(), *lose)
                    .await,
            );
        }
        answers
    });

    assert_eq!(observed, plain);
    assert_eq!(snapshot(&store), snapshot(&plain_store));
    let stages = hooks.stages.borrow().clone();
    assert_eq!(
        stages,
        [
            "queued 0",
            "taken 0",
            "handled 0 100 applied, ack lost",
            "queued 1",
            "taken 1",
            "handled 1 100 replayed",
            "queued 2",
            "taken 2",
            "handled 2 200 payload-mismatch",
            "queued 3",
            "taken 3",
            "handled 3 25 applied",
            "queued 4",
            "taken 4",
            "handled 4 5 empty-key",
        ]
    );
}

#[test]
fn a_held_consumer_takes_nothing_and_producers_past_capacity_are_seen_waiting() {
    let store = PointStore::new();
    let hooks = observed::Recorder::default();
    hooks.hold();
    let (worker, consumer) = PointWorker::with_hooks(store.clone(), hooks.clone());
    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();

    let total = PointWorker::CAPACITY as u32 + 2;
    let mut producers: Vec<_> = (0..total)
        .map(|i| {
            Box::pin(worker.process_tagged(i, GrantPoints::new(format!("h{i}"), ACCOUNT, 1), false))
        })
        .collect();
    for _ in 0..3 {
        for producer in &mut producers {
            assert!(poll_once(producer).is_pending());
        }
        pool.run_until_stalled();
    }
    assert_eq!(worker.queued(), PointWorker::CAPACITY);
    assert_eq!(store.balance(ACCOUNT), 0, "held: nothing taken");
    {
        let stages = hooks.stages.borrow();
        let waiting: Vec<&String> = stages.iter().filter(|s| s.starts_with("waiting")).collect();
        assert_eq!(waiting, ["waiting 16", "waiting 17"]);
        assert_eq!(
            stages.iter().filter(|s| s.starts_with("queued")).count(),
            16
        );
        assert!(!stages.iter().any(|s| s.starts_with("taken")));
    }

    hooks.release();
    let answers = drive(&mut pool, futures::future::join_all(producers));
    assert!(answers.iter().all(Result::is_ok));
    assert_eq!(store.balance(ACCOUNT), total as i32);
    let stages = hooks.stages.borrow();
    assert_eq!(
        stages.iter().filter(|s| s.starts_with("queued")).count(),
        total as usize
    );
    assert_eq!(
        stages.iter().filter(|s| s.starts_with("handled")).count(),
        total as usize
    );
}
