//! The promises the panel checks live against the world's log: the three
//! idempotency makes (every operation granted at most once, every granted
//! operation has a receipt, every receipt matches a grant) and the one the
//! customer cares about (each purchase is paid once), which no store can keep
//! alone: a retry under a fresh key is a new operation to the store. A fold like
//! the others: it only keeps count of the writes the stores reported, and names
//! the first attempt that broke each.

use rustc_hash::FxHashMap;

use crate::core::{StoreStep, Table};
use crate::sim::{AttemptId, Event, Happening, Millis, ProcessNumber};

/// One of the promises the panel checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Invariant {
    /// No operation (account, key) added its points twice, in any store.
    AtMostOnce,
    /// When a handling ends (done or crashed), its points do not stand without a receipt.
    GrantedHasReceipt,
    /// When a handling ends, its receipt does not stand without its points.
    ReceiptHasGrant,
    /// No purchase had points added twice, under any key: a person's retry
    /// (same key or fresh), a caller's retry and a redelivery pay for the
    /// purchase their attempt started. The store cannot keep it by itself.
    PaidOnce,
}

impl Invariant {
    /// How many promises the panel checks.
    pub const COUNT: usize = 4;

    pub const ALL: [Invariant; Invariant::COUNT] = [
        Invariant::AtMostOnce,
        Invariant::GrantedHasReceipt,
        Invariant::ReceiptHasGrant,
        Invariant::PaidOnce,
    ];

    /// The stable name used in `data-testid="invariant-<code>"`.
    pub fn code(self) -> &'static str {
        match self {
            Invariant::AtMostOnce => "at-most-once",
            Invariant::GrantedHasReceipt => "granted-has-receipt",
            Invariant::ReceiptHasGrant => "receipt-has-grant",
            Invariant::PaidOnce => "paid-once",
        }
    }
}

/// The first break of one promise: the attempt that broke it, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Break {
    pub attempt: AttemptId,
    pub at: Millis,
}

/// Where a write landed: the durable store, or one process's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    Durable,
    Memory(ProcessNumber),
}

/// What stands of one operation in one store right now.
#[derive(Debug, Clone, Copy, Default)]
struct Standing {
    points: bool,
    receipt: bool,
    /// The sweeper deleted its receipt after its last grant: the store kept it
    /// as long as promised.
    expired: bool,
}

type Operation = (String, String);

#[derive(Debug, Default)]
pub struct Invariants {
    /// How many times each operation's points were added, over the whole history.
    grants: FxHashMap<Operation, u32>,
    /// What stands of each operation, in each store that holds some of it (one
    /// or two places, so a list).
    standing: FxHashMap<Operation, Vec<(Place, Standing)>>,
    /// Each attempt's operation and the process it went to, as sent.
    attempts: FxHashMap<AttemptId, (Operation, ProcessNumber)>,
    /// Writes a transaction has staged, by attempt, until it commits.
    staged: FxHashMap<AttemptId, Place>,
    /// Each attempt's purchase (the attempt that started it), as the fold
    /// tells it when the attempt is sent.
    purchase: FxHashMap<AttemptId, AttemptId>,
    /// The attempt whose points first paid each purchase.
    paid_by: FxHashMap<AttemptId, AttemptId>,
    /// Attempts that added points for a purchase an earlier attempt had
    /// already paid, with that earlier attempt.
    paid_again: FxHashMap<AttemptId, AttemptId>,
    broken: [Option<Break>; Invariant::COUNT],
    /// How many times each promise broke, over the whole history: a
    /// walkthrough tells a break of its step from one of an earlier step.
    breaks: [u32; Invariant::COUNT],
    /// Operations granted again after the sweeper had deleted their receipt:
    /// why "at most once" broke when a retry came too late.
    pub regranted_after_expiry: u32,
    /// Receipts the sweeper deleted: not a break, but the panel says so.
    pub expired: u32,
}

impl Invariants {
    /// Whether `invariant` holds for the whole history so far.
    pub fn holds(&self, invariant: Invariant) -> bool {
        self.first_break(invariant).is_none()
    }

    /// How many times `invariant` broke so far.
    pub fn break_count(&self, invariant: Invariant) -> u32 {
        self.breaks[invariant as usize]
    }

    /// The first attempt that broke `invariant`, if one did.
    pub fn first_break(&self, invariant: Invariant) -> Option<Break> {
        self.broken[invariant as usize]
    }

    /// Tells which purchase `attempt` pays for, before its `Sent` event is
    /// applied: the fold knows which request a person's retry retries.
    pub fn pays_for(&mut self, attempt: AttemptId, purchase: AttemptId) {
        self.purchase.insert(attempt, purchase);
    }

    /// The purchase `attempt` pays for (itself when it started one).
    pub fn purchase_of(&self, attempt: AttemptId) -> AttemptId {
        self.purchase.get(&attempt).copied().unwrap_or(attempt)
    }

    /// The earlier attempt that had already paid the purchase `attempt` paid
    /// for again, if it did.
    pub fn paid_before_by(&self, attempt: AttemptId) -> Option<AttemptId> {
        self.paid_again.get(&attempt).copied()
    }

    pub fn apply(&mut self, event: &Event) {
        match &event.what {
            Happening::Sent {
                attempt,
                process,
                grant,
                ..
            } => {
                let op = (grant.account_id.clone(), grant.key.clone());
                self.attempts.insert(*attempt, (op, *process));
            }
            Happening::Store {
                attempt,
                durable,
                step,
            } => self.store_step(*attempt, *durable, *step, event.at),
            Happening::Handled { attempt, .. } | Happening::Crashed { attempt, .. } => {
                self.check_rest(*attempt, event.at);
            }
            Happening::Expired {
                account_id, key, ..
            } => {
                let op = (account_id.clone(), key.clone());
                if let Some(s) = self.at(Place::Durable, &op) {
                    s.receipt = false;
                    s.expired = true;
                }
                self.expired += 1;
            }
            Happening::ProcessEnded { process } => {
                // A process's memory goes with it, points and receipts alike.
                for places in self.standing.values_mut() {
                    places.retain(|(place, _)| *place != Place::Memory(*process));
                }
                self.staged
                    .retain(|_, place| *place != Place::Memory(*process));
            }
            _ => {}
        }
    }

    fn place(&self, attempt: AttemptId, durable: bool) -> Option<(Place, Operation)> {
        let (op, process) = self.attempts.get(&attempt)?;
        let place = if durable {
            Place::Durable
        } else {
            Place::Memory(*process)
        };
        Some((place, op.clone()))
    }

    fn store_step(&mut self, attempt: AttemptId, durable: bool, step: StoreStep, at: Millis) {
        let Some((place, op)) = self.place(attempt, durable) else {
            return;
        };
        match step {
            StoreStep::Wrote(Table::Balance) => self.grant(attempt, place, op, at),
            StoreStep::Wrote(Table::Receipt) => {
                self.stand(place, op).receipt = true;
            }
            StoreStep::WroteBoth => {
                self.stand(place, op.clone()).receipt = true;
                self.grant(attempt, place, op, at);
            }
            StoreStep::Staged(_) => {
                self.staged.insert(attempt, place);
            }
            StoreStep::Committed => {
                self.staged.remove(&attempt);
                self.stand(place, op.clone()).receipt = true;
                self.grant(attempt, place, op, at);
            }
            StoreStep::Conflict => {
                // A transaction rolls back what it staged; a plain write stays.
                self.staged.remove(&attempt);
            }
            StoreStep::RecognisedByLedger => {}
        }
    }

    fn grant(&mut self, attempt: AttemptId, place: Place, op: Operation, at: Millis) {
        let standing = self.stand(place, op.clone());
        standing.points = true;
        let after_expiry = standing.expired;
        // Points added again need a receipt of their own: an old receipt's
        // expiry does not excuse the new one's absence.
        standing.expired = false;
        let count = self.grants.entry(op).or_insert(0);
        *count += 1;
        if *count > 1 {
            if after_expiry {
                self.regranted_after_expiry += 1;
            }
            self.break_(Invariant::AtMostOnce, attempt, at);
        }
        let purchase = self.purchase_of(attempt);
        match self.paid_by.get(&purchase) {
            Some(first) => {
                self.paid_again.insert(attempt, *first);
                self.break_(Invariant::PaidOnce, attempt, at);
            }
            None => {
                self.paid_by.insert(purchase, attempt);
            }
        }
    }

    /// A handling has ended (done, or crashed): what it leaves must be whole.
    fn check_rest(&mut self, attempt: AttemptId, at: Millis) {
        // Whatever a crashed transaction staged is gone with it.
        self.staged.remove(&attempt);
        let Some((op, _)) = self.attempts.get(&attempt).cloned() else {
            return;
        };
        let standing: Vec<Standing> = self
            .standing
            .get(&op)
            .map(|places| places.iter().map(|(_, s)| *s).collect())
            .unwrap_or_default();
        if standing
            .iter()
            .any(|s| s.points && !s.receipt && !s.expired)
        {
            self.break_(Invariant::GrantedHasReceipt, attempt, at);
        }
        if standing.iter().any(|s| s.receipt && !s.points) {
            self.break_(Invariant::ReceiptHasGrant, attempt, at);
        }
    }

    /// What stands of `op` in `place`, made empty if nothing did.
    fn stand(&mut self, place: Place, op: Operation) -> &mut Standing {
        let places = self.standing.entry(op).or_default();
        let i = match places.iter().position(|(p, _)| *p == place) {
            Some(i) => i,
            None => {
                places.push((place, Standing::default()));
                places.len() - 1
            }
        };
        &mut places[i].1
    }

    /// What stands of `op` in `place`, if anything does.
    fn at(&mut self, place: Place, op: &Operation) -> Option<&mut Standing> {
        let places = self.standing.get_mut(op)?;
        places.iter_mut().find(|(p, _)| *p == place).map(|(_, s)| s)
    }

    fn break_(&mut self, invariant: Invariant, attempt: AttemptId, at: Millis) {
        self.breaks[invariant as usize] += 1;
        let slot = &mut self.broken[invariant as usize];
        if slot.is_none() {
            *slot = Some(Break { attempt, at });
        }
    }
}
