//! Helpers shared by the native test files: driving the worker's futures by hand,
//! failing instead of hanging when an answer never comes.
#![allow(dead_code)] // each test file uses its own subset

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll};
use std::thread;
use std::time::Duration;

use futures::channel::oneshot;
use futures::executor::{block_on, LocalPool};
use futures::future::{select, Either};
use futures::task::{noop_waker_ref, LocalSpawnExt};
use futures::FutureExt;
use idempotency_lab::{PointStore, PointWorker};

/// Runs `body` against a fresh worker whose consumer is spawned on the same
/// single-threaded pool, so queued deliveries are processed while `body` waits.
pub fn with_worker<T>(store: &PointStore, body: impl AsyncFnOnce(&PointWorker) -> T) -> T {
    let (worker, consumer) = PointWorker::new(store.clone());
    let mut pool = LocalPool::new();
    pool.spawner()
        .spawn_local(consumer)
        .expect("spawn the consumer");
    drive(&mut pool, body(&worker))
}

/// Polls a future once with a waker that does nothing.
pub fn poll_once<F: Future + Unpin>(future: &mut F) -> Poll<F::Output> {
    future.poll_unpin(&mut Context::from_waker(noop_waker_ref()))
}

/// Alternates between polling `future` and running the pool's tasks (the consumer) until
/// the future is done. Everything is local, so each round makes progress; a future that
/// is still pending after many rounds waits for an answer that will never come, and the
/// test fails instead of hanging.
pub fn drive<F: Future>(pool: &mut LocalPool, future: F) -> F::Output {
    let mut future = pin!(future);
    for _ in 0..1_000 {
        if let Poll::Ready(output) = poll_once(&mut future) {
            return output;
        }
        pool.run_until_stalled();
    }
    panic!("no progress: a delivery was never answered");
}

/// `block_on` for work done on other threads, failing instead of hanging.
pub fn block_on_within<F: Future>(seconds: u64, future: F) -> F::Output {
    let (alarm, timer) = oneshot::channel::<()>();
    thread::spawn(move || {
        thread::sleep(Duration::from_secs(seconds));
        let _ = alarm.send(());
    });
    match block_on(select(pin!(future), timer)) {
        Either::Left((output, _)) => output,
        Either::Right(_) => panic!("no answer within {seconds} s"),
    }
}
