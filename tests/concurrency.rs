#![cfg(not(target_arch = "wasm32"))]
//! Real OS threads racing on one shared `PointStore` (and on one worker).
//!
//! A `Barrier` releases every thread at once so the calls overlap as much as the
//! scheduler allows, and each race is repeated many times.

use std::collections::HashSet;
use std::future::Future;
use std::pin::pin;
use std::sync::Barrier;
use std::thread;
use std::time::Duration;

use futures::channel::oneshot;
use futures::executor::{block_on, ThreadPool};
use futures::future::{select, Either, Shared};
use futures::task::SpawnExt;
use futures::FutureExt;
use idempotency_lab::{
    GrantError, GrantPoints, GrantResult, PointStore, PointWorker, StoreOutcome,
};

const THREADS: usize = 8;
const ROUNDS: usize = 200;

/// Runs `call(thread_index)` on `THREADS` threads released together; returns the results
/// in thread order.
fn race<T: Send>(threads: usize, call: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let barrier = Barrier::new(threads);
    thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                let barrier = &barrier;
                let call = &call;
                scope.spawn(move || {
                    barrier.wait();
                    call(index)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("racing thread panicked"))
            .collect()
    })
}

/// A future that completes after `seconds`, cloneable so many threads can share it.
fn alarm_after(seconds: u64) -> Shared<oneshot::Receiver<()>> {
    let (alarm, timer) = oneshot::channel::<()>();
    thread::spawn(move || {
        thread::sleep(Duration::from_secs(seconds));
        let _ = alarm.send(());
    });
    timer.shared()
}

/// `block_on` that fails instead of hanging once `alarm` goes off.
fn block_on_until<F: Future>(alarm: Shared<oneshot::Receiver<()>>, future: F) -> F::Output {
    match block_on(select(pin!(future), alarm)) {
        Either::Left((output, _)) => output,
        Either::Right(_) => panic!("no answer in time"),
    }
}

#[test]
fn the_same_grant_from_eight_threads_at_once_is_applied_exactly_once_every_round() {
    for round in 0..ROUNDS {
        let store = PointStore::new();
        let points = round as i32 + 1;
        let grant = GrantPoints::new(format!("order-{round}"), "acct", points);
        let outcomes = race(THREADS, |_| store.apply_detailed(&grant));

        let expected = GrantResult {
            key: grant.key.clone(),
            account_id: "acct".to_owned(),
            points,
            balance: points,
        };
        let applied = outcomes
            .iter()
            .filter(|outcome| matches!(outcome, Ok(StoreOutcome::Applied(_))))
            .count();
        assert_eq!(applied, 1, "round {round}: {outcomes:?}");
        for outcome in &outcomes {
            let outcome = outcome.as_ref().expect("a valid grant is never rejected");
            assert_eq!(outcome.receipt(), &expected, "round {round}");
        }
        assert_eq!(store.balance("acct"), points, "round {round}");
        assert_eq!(store.receipts(), vec![expected], "round {round}");
    }
}

#[test]
fn racing_rounds_on_one_shared_store_add_each_operation_once() {
    let store = PointStore::new();
    let mut total = 0;
    for round in 0..ROUNDS {
        let points = (round % 7) as i32 + 1;
        let grant = GrantPoints::new(format!("order-{round}"), "acct", points);
        let receipts = race(THREADS, |_| store.apply(&grant).unwrap());
        total += points;

        // Every racer saw the one receipt, and it records the balance right after it.
        assert!(receipts.iter().all(|r| r == &receipts[0]), "round {round}");
        assert_eq!(receipts[0].balance, total, "round {round}");
        assert_eq!(store.balance("acct"), total, "round {round}");
    }
    assert_eq!(store.receipts().len(), ROUNDS);
}

#[test]
fn many_threads_with_distinct_keys_add_up_to_the_sum_of_their_grants() {
    const PER_THREAD: usize = 250;
    let store = PointStore::new();
    let points_for = |thread: usize, i: usize| ((thread * 31 + i) % 10) as i32 + 1;

    let receipts = race(THREADS, |thread| {
        (0..PER_THREAD)
            .map(|i| {
                let account = if i % 2 == 0 { "even" } else { "odd" };
                let grant =
                    GrantPoints::new(format!("t{thread}-g{i}"), account, points_for(thread, i));
                store.apply(&grant).unwrap()
            })
            .collect::<Vec<_>>()
    });

    let mut expected_even = 0;
    let mut expected_odd = 0;
    for thread in 0..THREADS {
        for i in 0..PER_THREAD {
            if i % 2 == 0 {
                expected_even += points_for(thread, i);
            } else {
                expected_odd += points_for(thread, i);
            }
        }
    }
    assert_eq!(store.balance("even"), expected_even);
    assert_eq!(store.balance("odd"), expected_odd);
    assert_eq!(store.receipts().len(), THREADS * PER_THREAD);

    // No lost update: every grant moved its account to a balance no other grant saw,
    // and the highest receipt is the current balance.
    for (account, expected) in [("even", expected_even), ("odd", expected_odd)] {
        let balances: Vec<i32> = receipts
            .iter()
            .flatten()
            .filter(|r| r.account_id == account)
            .map(|r| r.balance)
            .collect();
        let distinct: HashSet<i32> = balances.iter().copied().collect();
        assert_eq!(distinct.len(), balances.len(), "{account}");
        assert_eq!(balances.iter().max(), Some(&expected), "{account}");
    }
}

#[test]
fn threads_applying_the_same_keys_in_different_orders_apply_each_key_once() {
    const KEYS: usize = 100;
    for round in 0..20 {
        let store = PointStore::new();
        let grants: Vec<GrantPoints> = (0..KEYS)
            .map(|k| GrantPoints::new(format!("k{k}"), "acct", (k % 5) as i32 + 1))
            .collect();
        let applied_per_thread = race(THREADS, |thread| {
            // Each thread walks the keys from a different starting point.
            (0..KEYS)
                .map(|i| &grants[(i + thread * KEYS / THREADS) % KEYS])
                .filter(|grant| matches!(store.apply_detailed(grant), Ok(StoreOutcome::Applied(_))))
                .count()
        });

        assert_eq!(
            applied_per_thread.iter().sum::<usize>(),
            KEYS,
            "round {round}"
        );
        let expected: i32 = grants.iter().map(|g| g.points).sum();
        assert_eq!(store.balance("acct"), expected, "round {round}");
        assert_eq!(store.receipts().len(), KEYS, "round {round}");
    }
}

#[test]
fn racing_different_payloads_under_one_key_one_wins_and_the_rest_are_mismatches() {
    for round in 0..ROUNDS {
        let store = PointStore::new();
        let grants: Vec<GrantPoints> = (0..THREADS)
            .map(|t| GrantPoints::new("shared-key", "acct", t as i32 + 1))
            .collect();
        let results = race(THREADS, |t| store.apply_detailed(&grants[t]));

        let winners: Vec<&GrantResult> = results
            .iter()
            .filter_map(|r| match r {
                Ok(StoreOutcome::Applied(receipt)) => Some(receipt),
                _ => None,
            })
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {results:?}");
        let winner = winners[0].clone();
        for (t, result) in results.iter().enumerate() {
            if grants[t].points == winner.points {
                assert_eq!(result, &Ok(StoreOutcome::Applied(winner.clone())));
            } else {
                assert_eq!(
                    result,
                    &Err(GrantError::PayloadMismatch {
                        stored: winner.clone(),
                        rejected: grants[t].clone(),
                    }),
                    "round {round}"
                );
            }
        }
        assert_eq!(store.balance("acct"), winner.points);
        assert_eq!(store.receipts(), vec![winner]);
    }
}

#[test]
fn one_worker_shared_by_many_threads_applies_a_retried_grant_once() {
    let pool = ThreadPool::builder().pool_size(1).create().unwrap();
    for round in 0..50 {
        let store = PointStore::new();
        let (worker, consumer) = PointWorker::new(store.clone());
        pool.spawn(consumer).unwrap();
        let grant = GrantPoints::new("order", "acct", 100);
        let alarm = alarm_after(30);

        // Half the callers lose their acknowledgement; none may add twice.
        let answers = race(THREADS, |t| {
            block_on_until(alarm.clone(), worker.process(grant.clone(), t % 2 == 0))
        });

        let expected = GrantResult {
            key: "order".to_owned(),
            account_id: "acct".to_owned(),
            points: 100,
            balance: 100,
        };
        for (t, answer) in answers.iter().enumerate() {
            if t % 2 == 0 {
                assert_eq!(answer, &Err(GrantError::Timeout), "round {round}");
            } else {
                assert_eq!(answer, &Ok(expected.clone()), "round {round}");
            }
        }
        assert_eq!(store.balance("acct"), 100, "round {round}");
        block_on_until(alarm, worker.shutdown());
        assert!(worker.is_stopped());
    }
}
