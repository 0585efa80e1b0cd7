//! `PointWorker`: a bounded in-process queue with one consumer in front of the store.

use std::future::Future;

use futures::channel::oneshot;

use super::delivery::deliver;
use super::error::GrantError;
use super::grant::{GrantPoints, GrantResult};
use super::store::PointStore;

/// One queued request, carrying its own completion so the answer reaches its caller.
struct Delivery {
    grant: GrantPoints,
    lose_acknowledgement: bool,
    completion: oneshot::Sender<Result<GrantResult, GrantError>>,
}

/// Whatever is still queued when the consumer ends (or is dropped unfinished) would
/// otherwise wait forever: close the queue and drop those deliveries, so each of
/// their callers hears `WorkerStopped` instead of hanging.
struct TurnAwayOnDrop(async_channel::Receiver<Delivery>);

impl Drop for TurnAwayOnDrop {
    fn drop(&mut self) {
        self.0.close();
        while self.0.try_recv().is_ok() {}
    }
}

/// The producer side. Cheap to share by reference among many concurrent callers.
///
/// Like the article's channel, this queue lives in memory: it is not a durable
/// broker, and whatever is queued is gone if the process ends.
#[derive(Debug)]
pub struct PointWorker {
    deliveries: async_channel::Sender<Delivery>,
    // Never sent on: it closes when the consumer future ends, which is what
    // `shutdown` waits for.
    consumer_finished: async_channel::Receiver<()>,
}

impl PointWorker {
    /// How many deliveries may wait in the queue before producers have to wait.
    pub const CAPACITY: usize = 16;

    /// Makes the worker and its consumer. The consumer is a future the caller spawns
    /// (`spawn_local` in the browser, any executor natively); until it runs, nothing
    /// is processed.
    pub fn new(store: PointStore) -> (Self, impl Future<Output = ()> + Send + 'static) {
        let (deliveries, queue) = async_channel::bounded::<Delivery>(Self::CAPACITY);
        let (finished_signal, consumer_finished) = async_channel::bounded::<()>(1);
        // Made outside the async block so it is dropped even if the consumer is never polled.
        let queue = TurnAwayOnDrop(queue);
        let consumer = async move {
            let _finished_signal = finished_signal;
            // One consumer, in order. `recv` keeps returning what is queued after the
            // channel is closed, so a shutdown drains before the loop ends.
            while let Ok(delivery) = queue.0.recv().await {
                let outcome = deliver(&store, &delivery.grant, delivery.lose_acknowledgement);
                // A caller that stopped waiting has dropped its receiver; the grant
                // stands either way, and the consumer moves on.
                let _ = delivery.completion.send(outcome.caller);
            }
        };
        (
            Self {
                deliveries,
                consumer_finished,
            },
            consumer,
        )
    }

    /// Queues a grant and waits for its answer. Waits for room when the queue is full:
    /// nothing is dropped.
    pub async fn process(
        &self,
        grant: GrantPoints,
        lose_acknowledgement: bool,
    ) -> Result<GrantResult, GrantError> {
        let (completion, answer) = oneshot::channel();
        let delivery = Delivery {
            grant,
            lose_acknowledgement,
            completion,
        };
        self.deliveries
            .send(delivery)
            .await
            .map_err(|_| GrantError::WorkerStopped)?;
        // The consumer answers every delivery it takes; a dropped completion means it
        // was itself dropped before reaching this one.
        answer.await.map_err(|_| GrantError::WorkerStopped)?
    }

    /// Stops taking work, lets the consumer finish what is already queued, and waits
    /// for it to end. Producers still waiting for room get `WorkerStopped`.
    pub async fn shutdown(&self) {
        self.deliveries.close();
        // Err means every sender of the signal is gone: the consumer has ended.
        let _ = self.consumer_finished.recv().await;
    }

    /// How many deliveries are queued right now (not counting the one being applied).
    pub fn queued(&self) -> usize {
        self.deliveries.len()
    }

    pub fn is_stopped(&self) -> bool {
        self.deliveries.is_closed()
    }
}
