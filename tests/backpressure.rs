#![cfg(not(target_arch = "wasm32"))]
//! The bounded queue: more producers than `PointWorker::CAPACITY` all finish, nothing is
//! dropped, and producers really wait for room when the queue is full.

use std::task::Poll;

use futures::executor::{LocalPool, ThreadPool};
use futures::future::join_all;
use futures::task::{LocalSpawnExt, SpawnExt};
mod support;

use support::{block_on_within, drive, poll_once};

use idempotency_lab::{GrantError, GrantPoints, GrantResult, PointStore, PointWorker};

const PRODUCERS: usize = 40;

fn one_point(i: usize) -> GrantPoints {
    GrantPoints::new(format!("grant-{i}"), "acct", 1)
}

fn receipt_for(i: usize, balance: i32) -> GrantResult {
    GrantResult {
        key: format!("grant-{i}"),
        account_id: "acct".to_owned(),
        points: 1,
        balance,
    }
}

#[test]
fn capacity_is_sixteen_as_in_the_article() {
    assert_eq!(PointWorker::CAPACITY, 16);
}

#[test]
fn forty_concurrent_producers_all_complete_in_submission_order() {
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());
    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();

    // join_all polls the producers in order the first time, so they reach the queue in
    // order; the ones that find it full wait and are let in one by one as room appears.
    let answers = drive(
        &mut pool,
        join_all((0..PRODUCERS).map(|i| worker.process(one_point(i), false))),
    );

    let expected: Vec<_> = (0..PRODUCERS)
        .map(|i| Ok(receipt_for(i, i as i32 + 1)))
        .collect();
    assert_eq!(answers, expected);
    assert_eq!(store.balance("acct"), PRODUCERS as i32);
    assert_eq!(store.receipts().len(), PRODUCERS);
    assert_eq!(worker.queued(), 0);
}

#[test]
fn forty_concurrent_producers_with_the_consumer_on_a_thread_pool_lose_nothing() {
    let pool = ThreadPool::builder().pool_size(1).create().unwrap();
    for round in 0..25 {
        let store = PointStore::new();
        let (worker, consumer) = PointWorker::new(store.clone());
        pool.spawn(consumer).unwrap();

        let answers = block_on_within(
            30,
            join_all((0..PRODUCERS).map(|i| worker.process(one_point(i), false))),
        );

        // The consumer runs on another thread, so a waiting producer may be overtaken;
        // but every producer gets its own receipt and every point is counted once.
        let mut balances = Vec::new();
        for (i, answer) in answers.into_iter().enumerate() {
            let receipt = answer.unwrap_or_else(|e| panic!("round {round}, producer {i}: {e}"));
            assert_eq!(receipt, receipt_for(i, receipt.balance), "round {round}");
            balances.push(receipt.balance);
        }
        balances.sort_unstable();
        assert_eq!(balances, (1..=PRODUCERS as i32).collect::<Vec<_>>());
        assert_eq!(store.balance("acct"), PRODUCERS as i32);
        block_on_within(30, worker.shutdown());
    }
}

/// `n` producers, each polled once with no consumer running: the first
/// `CAPACITY` are queued, the rest wait for room, and none has an answer yet.
fn start_producers(
    worker: &PointWorker,
    n: usize,
) -> Vec<std::pin::Pin<Box<impl std::future::Future<Output = Result<GrantResult, GrantError>> + '_>>>
{
    let mut producers: Vec<_> = (0..n)
        .map(|i| Box::pin(worker.process(one_point(i), false)))
        .collect();
    for producer in &mut producers {
        assert!(poll_once(producer).is_pending());
    }
    producers
}

#[test]
fn producers_wait_for_room_when_the_queue_is_full() {
    const EXTRA: usize = 4;
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());

    // The consumer is not running: poll every producer once.
    let mut producers = start_producers(&worker, PointWorker::CAPACITY + EXTRA);
    assert_eq!(worker.queued(), PointWorker::CAPACITY);

    // Polling again lets nobody in: the extra producers are still waiting for room.
    for producer in &mut producers[PointWorker::CAPACITY..] {
        assert!(poll_once(producer).is_pending());
    }
    assert_eq!(worker.queued(), PointWorker::CAPACITY);
    assert_eq!(store.balance("acct"), 0);

    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();
    let answers = drive(&mut pool, join_all(producers));

    let expected: Vec<_> = (0..PointWorker::CAPACITY + EXTRA)
        .map(|i| Ok(receipt_for(i, i as i32 + 1)))
        .collect();
    assert_eq!(answers, expected);
    assert_eq!(worker.queued(), 0);
}

#[test]
fn shutdown_turns_away_producers_still_waiting_for_room_but_answers_queued_ones() {
    const EXTRA: usize = 3;
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());

    let mut producers = start_producers(&worker, PointWorker::CAPACITY + EXTRA);
    assert_eq!(worker.queued(), PointWorker::CAPACITY);

    let mut shutdown = Box::pin(worker.shutdown());
    assert!(poll_once(&mut shutdown).is_pending());

    let mut pool = LocalPool::new();
    pool.spawner().spawn_local(consumer).unwrap();
    // Once the shutdown is over, every producer has its answer.
    drive(&mut pool, shutdown);
    let answers: Vec<_> = producers.iter_mut().map(poll_once).collect();

    for (i, answer) in answers.iter().enumerate() {
        if i < PointWorker::CAPACITY {
            assert_eq!(answer, &Poll::Ready(Ok(receipt_for(i, i as i32 + 1))));
        } else {
            assert_eq!(
                answer,
                &Poll::Ready(Err(GrantError::WorkerStopped)),
                "producer {i}"
            );
        }
    }
    assert_eq!(store.balance("acct"), PointWorker::CAPACITY as i32);
    for i in PointWorker::CAPACITY..PointWorker::CAPACITY + EXTRA {
        assert_eq!(store.receipt("acct", &format!("grant-{i}")), None);
    }
}
