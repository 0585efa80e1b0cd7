//! Every promise the explorer checks: the three the promises panel keeps
//! (read from its fold, not decided again here), one email per operation (the
//! fold's count), and the identity promise, which this module watches as the
//! history runs, since who is signed in is not an event of the world.

use rustc_hash::FxHashMap;

use crate::lab::{AttemptId, Invariant, LabState};
use crate::sim::{Event, Happening, Origin};

/// A promise a history may break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Promise {
    /// One of the three the promises panel shows.
    Kept(Invariant),
    /// No customer gets two confirmation emails for one operation.
    OneEmail,
    /// No request is served for an account its caller is not signed in as.
    OwnAccount,
}

impl Promise {
    pub const ALL: [Promise; 5] = [
        Promise::Kept(Invariant::AtMostOnce),
        Promise::Kept(Invariant::GrantedHasReceipt),
        Promise::Kept(Invariant::ReceiptHasGrant),
        Promise::OneEmail,
        Promise::OwnAccount,
    ];

    /// The stable name used in `data-broken` and `data-promise`.
    pub fn code(self) -> &'static str {
        match self {
            Promise::Kept(invariant) => invariant.code(),
            Promise::OneEmail => "one-email",
            Promise::OwnAccount => "own-account",
        }
    }

    pub fn from_code(code: &str) -> Option<Promise> {
        Promise::ALL.into_iter().find(|p| p.code() == code)
    }

    /// Its place in [`Promise::ALL`].
    pub fn index(self) -> usize {
        Promise::ALL
            .iter()
            .position(|p| *p == self)
            .expect("every promise is in ALL")
    }
}

/// Which promises a history broke, as a set over [`Promise::ALL`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Broken([bool; 5]);

impl Broken {
    pub fn contains(self, promise: Promise) -> bool {
        self.0[promise.index()]
    }

    /// The first broken promise, in [`Promise::ALL`]'s order.
    pub fn first(self) -> Option<Promise> {
        Promise::ALL.into_iter().find(|p| self.contains(*p))
    }

    pub fn iter(self) -> impl Iterator<Item = Promise> {
        Promise::ALL.into_iter().filter(move |p| self.contains(*p))
    }
}

/// Watches a running history for the identity promise: who each request was
/// made for, and whether the store served one for an account its caller was
/// not signed in as. Told after every action, it reads only the events since.
#[derive(Debug, Default)]
pub struct Watch {
    /// Events already read.
    seen: usize,
    /// Who was signed in when each attempt's caller made it (a redelivery or an
    /// automatic retry speaks for the caller of the attempt it repeats).
    caller: FxHashMap<AttemptId, Option<String>>,
    /// The account each attempt asked for.
    account: FxHashMap<AttemptId, String>,
    served_another: bool,
}

impl Watch {
    /// Reads what the last action did. `read` is the account a balance check
    /// just asked for, if the action was one.
    pub fn after(&mut self, state: &LabState, read: Option<&str>) {
        let signed_in = state.signed_in();
        if let (Some(asked), Some(last)) = (read, state.last_read()) {
            self.balance_read(signed_in.as_deref(), asked, last.balance.is_ok());
        }
        let events = state.world().events();
        self.events(&events[self.seen.min(events.len())..], signed_in.as_deref());
        self.seen = events.len();
    }

    /// A balance check for `asked`, made while `signed_in` was, `served` or not.
    pub fn balance_read(&mut self, signed_in: Option<&str>, asked: &str, served: bool) {
        if served && signed_in.is_some_and(|me| me != asked) {
            self.served_another = true;
        }
    }

    /// Reads new events, made while `signed_in` was signed in.
    pub fn events(&mut self, events: &[Event], signed_in: Option<&str>) {
        for event in events {
            match &event.what {
                Happening::Sent {
                    attempt,
                    origin,
                    grant,
                    redelivery_of,
                    retry_of,
                    ..
                } => {
                    let repeats = match origin {
                        Origin::Redelivered => *redelivery_of,
                        Origin::AutoRetry => *retry_of,
                        _ => None,
                    };
                    let caller = match repeats {
                        Some(of) => self.caller.get(&of).cloned().flatten(),
                        None => signed_in.map(str::to_owned),
                    };
                    self.caller.insert(*attempt, caller);
                    self.account.insert(*attempt, grant.account_id.clone());
                }
                Happening::Handled { attempt, .. } => {
                    let caller = self.caller.get(attempt).cloned().flatten();
                    if let (Some(me), Some(asked)) = (caller, self.account.get(attempt)) {
                        if *asked != me {
                            self.served_another = true;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Who was signed in when `attempt`'s caller made it (`Some(None)`: nobody),
    /// as far as the watch has read.
    pub fn caller_of(&self, attempt: AttemptId) -> Option<Option<&str>> {
        self.caller.get(&attempt).map(Option::as_deref)
    }

    /// Whether a request was served for an account its caller was not signed in as.
    pub fn served_another(&self) -> bool {
        self.served_another
    }

    /// Every promise the history so far broke.
    pub fn broken(&self, state: &LabState) -> Broken {
        let invariants = state.invariants();
        let mut broken = Broken::default();
        for promise in Promise::ALL {
            broken.0[promise.index()] = match promise {
                Promise::Kept(invariant) => !invariants.holds(invariant),
                Promise::OneEmail => state.emailed_twice() > 0,
                Promise::OwnAccount => self.served_another(),
            };
        }
        broken
    }
}
