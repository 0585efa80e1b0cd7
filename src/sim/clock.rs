//! The world's virtual clock. Nothing in the world reads real time: a sleep is a
//! timer that the world fires when it moves its clock to the timer's deadline.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// Virtual milliseconds since the world began.
pub type Millis = u64;

#[derive(Debug, Default)]
struct Timers {
    now: Millis,
    /// Pending timers by (deadline, creation order): the order they fire in.
    /// A timer whose sleep is dropped is removed, so only live ones are here.
    pending: BTreeMap<(Millis, u64), Option<Waker>>,
    created: u64,
}

/// A handle to the one clock of a world; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Clock(Rc<RefCell<Timers>>);

impl Clock {
    pub fn now(&self) -> Millis {
        self.0.borrow().now
    }

    /// Resolves once the world's clock reaches `now + ms`.
    pub fn sleep(&self, ms: Millis) -> Sleep {
        let deadline = self.now().saturating_add(ms);
        self.sleep_until(deadline)
    }

    /// Resolves once the world's clock reaches `deadline` (at once if it has).
    pub fn sleep_until(&self, deadline: Millis) -> Sleep {
        let mut timers = self.0.borrow_mut();
        let id = (deadline, timers.created);
        timers.created += 1;
        if deadline > timers.now {
            timers.pending.insert(id, None);
        }
        Sleep {
            clock: self.clone(),
            id,
        }
    }

    /// The earliest pending deadline, if any timer is pending.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.0.borrow().pending.keys().next().map(|(at, _)| *at)
    }

    /// Moves the clock to the earliest timer due by `limit` and wakes it; false when
    /// none is due. One timer at a time, so each wakes into a world where every
    /// earlier one has already had its effect.
    pub(super) fn fire_next(&self, limit: Millis) -> bool {
        let mut timers = self.0.borrow_mut();
        let Some(entry) = timers.pending.first_entry() else {
            return false;
        };
        let (deadline, _) = *entry.key();
        if deadline > limit {
            return false;
        }
        let waker = entry.remove();
        // Never backwards: a deadline is only ever set ahead of `now`.
        timers.now = timers.now.max(deadline);
        drop(timers);
        if let Some(waker) = waker {
            waker.wake();
        }
        true
    }

    /// Moves the clock forward to `to` once nothing is due before it (a timer
    /// due at `to` itself still fires after).
    pub(super) fn move_to(&self, to: Millis) {
        let mut timers = self.0.borrow_mut();
        debug_assert!(
            timers.pending.keys().next().is_none_or(|(at, _)| *at >= to),
            "a timer due before {to} was skipped"
        );
        timers.now = timers.now.max(to);
    }
}

/// A timer on the virtual clock.
#[derive(Debug)]
pub struct Sleep {
    clock: Clock,
    id: (Millis, u64),
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut timers = self.clock.0.borrow_mut();
        if timers.now >= self.id.0 {
            return Poll::Ready(());
        }
        if let Some(waker) = timers.pending.get_mut(&self.id) {
            *waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        // A sleep given up on (a caller that got its answer first) must not keep
        // the world busy until its deadline.
        self.clock.0.borrow_mut().pending.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn a_sleep_that_is_already_due_keeps_no_timer() {
        let clock = Clock::default();
        let due = clock.sleep(0);
        assert_eq!(clock.next_deadline(), None, "nothing left to fire");
        let later = clock.sleep(5);
        assert_eq!(clock.next_deadline(), Some(5));
        drop(later);
        assert_eq!(
            clock.next_deadline(),
            None,
            "a dropped sleep leaves no timer"
        );
        drop(due);
    }
}
