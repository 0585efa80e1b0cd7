//! The consumer's pause switch: while it is on, the consumer takes no delivery,
//! except one it is let through for (a step).

use std::cell::{Cell, RefCell};
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

#[derive(Debug, Default, Clone)]
pub struct Gate(Rc<GateState>);

#[derive(Debug, Default)]
struct GateState {
    closed: Cell<bool>,
    /// Takes let through while closed.
    permits: Cell<u32>,
    waiting: RefCell<Vec<Waker>>,
}

impl Gate {
    pub fn is_closed(&self) -> bool {
        self.0.closed.get()
    }

    pub fn set_closed(&self, closed: bool) {
        self.0.closed.set(closed);
        if !closed {
            self.wake_all();
        }
    }

    /// Lets `n` takes through while the gate is closed (one per consumer), until `revoke`.
    pub fn allow(&self, n: u32) {
        self.0.permits.set(n);
        self.wake_all();
    }

    /// Withdraws a permit nobody used.
    pub fn revoke(&self) {
        self.0.permits.set(0);
    }

    fn wake_all(&self) {
        for waker in self.0.waiting.take() {
            waker.wake();
        }
    }

    /// Runs `next` only while the gate is open. `next` must be cancel-safe: while
    /// the gate is closed it is not polled, and it resumes where it was once opened.
    pub fn hold<F: Future>(&self, next: F) -> impl Future<Output = F::Output> {
        let gate = self.clone();
        async move {
            let mut next = pin!(next);
            poll_fn(|cx| {
                if !gate.is_closed() {
                    return next.as_mut().poll(cx);
                }
                if gate.0.permits.get() > 0 {
                    if let Poll::Ready(out) = next.as_mut().poll(cx) {
                        gate.0.permits.set(gate.0.permits.get() - 1);
                        return Poll::Ready(out);
                    }
                }
                gate.0.waiting.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            })
            .await
        }
    }
}
