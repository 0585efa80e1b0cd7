//! `PointWorker`: a bounded in-process queue with one consumer in front of the store.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::channel::oneshot;

use super::delivery::{answer, Delivered};
use super::error::GrantError;
use super::grant::{GrantPoints, GrantResult};
use super::pace::{CrashPoint, GrantStore, Pace, StoreStep};
use super::store::PointStore;

/// What a worker lets the world around it see and pace. The article's worker needs
/// none of it ([`Unobserved`]); the lab's simulated world uses it to report each
/// stage with its virtual time, to hold a paused consumer and to make applying take
/// time. Nothing here changes what the worker decides.
pub trait WorkerHooks: 'static {
    /// Names one delivery for the observer (in the lab: the attempt's number).
    type Tag: Clone + 'static;
    /// The queue is full: this producer waits for room.
    fn waiting_for_room(&self, _tag: &Self::Tag) {}
    /// The delivery is in the queue.
    fn queued(&self, _tag: &Self::Tag) {}
    /// Wraps the consumer's wait for its next delivery, so a paused consumer can be
    /// held back before it takes one. `next` is cancel-safe: it may be polled,
    /// set aside and polled again later without losing a delivery.
    fn take<F: Future>(&self, next: F) -> impl Future<Output = F::Output> {
        next
    }
    /// The consumer took this delivery out of the queue.
    fn taken(&self, _tag: &Self::Tag) {}
    /// Awaited while the store works on a delivery: how long the work takes.
    fn work(&self, _tag: &Self::Tag) -> impl Future<Output = ()> {
        async {}
    }
    /// Awaited at each of the store's crash points: a crash never resolves it.
    fn reach(&self, _tag: &Self::Tag, _point: CrashPoint) -> impl Future<Output = ()> {
        async {}
    }
    /// A step the store took on the way, in the durable store or in memory.
    fn note(&self, _tag: &Self::Tag, _step: StoreStep, _durable: bool) {}
    /// The time the store dates its writes with.
    fn now(&self) -> u64 {
        0
    }
    /// The store has dealt with `grant`; `delivered` says what it did and what the
    /// caller is about to hear.
    fn handled(&self, _tag: &Self::Tag, _grant: &GrantPoints, _delivered: &Delivered) {}
}

/// The article's worker as it is: nothing observed, nothing paced.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unobserved;

impl WorkerHooks for Unobserved {
    type Tag = ();
}

/// The hooks, seen by the store as the pacing of one delivery.
struct Paced<'a, H: WorkerHooks> {
    hooks: &'a H,
    tag: &'a H::Tag,
}

impl<H: WorkerHooks> Pace for Paced<'_, H> {
    fn work(&self) -> impl Future<Output = ()> {
        self.hooks.work(self.tag)
    }
    fn reach(&self, point: CrashPoint) -> impl Future<Output = ()> {
        self.hooks.reach(self.tag, point)
    }
    fn note(&self, step: StoreStep, durable: bool) {
        self.hooks.note(self.tag, step, durable);
    }
    fn now(&self) -> u64 {
        self.hooks.now()
    }
}

/// One queued request, carrying its own completion so the answer reaches its caller.
struct Delivery<T> {
    grant: GrantPoints,
    lose_acknowledgement: bool,
    tag: T,
    completion: oneshot::Sender<Result<GrantResult, GrantError>>,
}

/// Whatever is still queued when the consumer ends (or is dropped unfinished) would
/// otherwise wait forever: close the queue and drop those deliveries, so each of
/// their callers hears `WorkerStopped` instead of hanging.
struct TurnAwayOnDrop<T>(async_channel::Receiver<Delivery<T>>);

impl<T> Drop for TurnAwayOnDrop<T> {
    fn drop(&mut self) {
        self.0.close();
        while self.0.try_recv().is_ok() {}
    }
}

/// The producer side. Cheap to share by reference among many concurrent callers.
///
/// Like the article's channel, this queue lives in memory: it is not a durable
/// broker, and whatever is queued is gone if the process ends.
pub struct PointWorker<H: WorkerHooks = Unobserved> {
    deliveries: async_channel::Sender<Delivery<H::Tag>>,
    // Never sent on: it closes when the consumer future ends, which is what
    // `shutdown` waits for.
    consumer_finished: async_channel::Receiver<()>,
    hooks: Arc<H>,
}

impl<H: WorkerHooks> fmt::Debug for PointWorker<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PointWorker")
            .field("queued", &self.queued())
            .field("stopped", &self.is_stopped())
            .finish()
    }
}

impl PointWorker {
    /// How many deliveries may wait in the queue before producers have to wait.
    pub const CAPACITY: usize = 16;

    /// Makes the worker and its consumer. The consumer is a future the caller spawns
    /// (`spawn_local` in the browser, any executor natively); until it runs, nothing
    /// is processed.
    pub fn new(store: PointStore) -> (Self, impl Future<Output = ()> + Send + 'static) {
        Self::with_hooks(store, Unobserved)
    }
}

impl<H: WorkerHooks> PointWorker<H> {
    /// [`new`](PointWorker::new), with `hooks` watching and pacing every stage.
    ///
    /// `store` is the article's [`PointStore`] or any other [`GrantStore`] (the
    /// lab's world switches between it and a durable one).
    pub fn with_hooks<S: GrantStore>(
        store: S,
        hooks: H,
    ) -> (Self, impl Future<Output = ()> + 'static) {
        let (deliveries, queue) = async_channel::bounded::<Delivery<H::Tag>>(PointWorker::CAPACITY);
        let (finished_signal, consumer_finished) = async_channel::bounded::<()>(1);
        let hooks = Arc::new(hooks);
        // Made outside the async block so it is dropped even if the consumer is never polled.
        let queue = TurnAwayOnDrop(queue);
        let consumer_hooks = Arc::clone(&hooks);
        let consumer = async move {
            let _finished_signal = finished_signal;
            let hooks = consumer_hooks;
            // One consumer, in order. `recv` keeps returning what is queued after the
            // channel is closed, so a shutdown drains before the loop ends.
            while let Ok(delivery) = hooks.take(queue.0.recv()).await {
                hooks.taken(&delivery.tag);
                let pace = Paced {
                    hooks: &*hooks,
                    tag: &delivery.tag,
                };
                let stored = store.apply_paced(&delivery.grant, &pace).await;
                let outcome = answer(stored, delivery.lose_acknowledgement);
                hooks.handled(&delivery.tag, &delivery.grant, &outcome);
                // A caller that stopped waiting has dropped its receiver; the grant
                // stands either way, and the consumer moves on.
                let _ = delivery.completion.send(outcome.caller);
            }
        };
        (
            Self {
                deliveries,
                consumer_finished,
                hooks,
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
    ) -> Result<GrantResult, GrantError>
    where
        H::Tag: Default,
    {
        self.process_tagged(H::Tag::default(), grant, lose_acknowledgement)
            .await
    }

    /// [`process`](Self::process), naming the delivery for the hooks.
    pub async fn process_tagged(
        &self,
        tag: H::Tag,
        grant: GrantPoints,
        lose_acknowledgement: bool,
    ) -> Result<GrantResult, GrantError> {
        let (completion, answer) = oneshot::channel();
        if self.deliveries.is_full() {
            self.hooks.waiting_for_room(&tag);
        }
        let delivery = Delivery {
            grant,
            lose_acknowledgement,
            tag: tag.clone(),
            completion,
        };
        self.deliveries
            .send(delivery)
            .await
            .map_err(|_| GrantError::WorkerStopped)?;
        // Reported in the same poll as the send, so on a single-threaded executor
        // the consumer cannot take the delivery before it is seen queued.
        self.hooks.queued(&tag);
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
