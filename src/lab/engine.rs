//! The lab engine: a deterministic, single-threaded model of the article's worker.
//!
//! It mirrors `PointWorker` step by step (bounded queue, waiting producers, one
//! consumer holding one delivery) so the page can show each stage, and it applies
//! every delivery through the same `deliver` as the real worker.

use std::collections::VecDeque;
use std::fmt;

use rustc_hash::FxHashMap;

use crate::core::{deliver, validate, GrantPoints, PointStore, PointWorker};

use super::action::{Action, MAX_BURST};
use super::form::MAX_FIELD_CHARS;
use super::timeline::{Attempt, AttemptRow, Origin};

/// Why an action was refused. A refused action changes nothing and is not recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabError {
    /// A retry before anything was sent.
    NothingToRetry,
    /// The consumer had nothing it could do (idle, or paused with nothing in hand).
    Idle,
    /// A burst of 0, or of more than [`MAX_BURST`].
    BurstSize(u32),
    /// `Advance` with 0 steps.
    NoSteps,
    /// A stress run's duplicate share above 100 %.
    DuplicatePercent(u8),
    /// The session has reached the size a file or link may carry; reset to go on.
    SessionFull,
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::NothingToRetry => {
                write!(f, "nothing has been sent yet, so there is nothing to retry")
            }
            LabError::Idle => write!(f, "the consumer has nothing to do"),
            LabError::BurstSize(n) => {
                write!(f, "a burst must hold 1 to {MAX_BURST} grants, not {n}")
            }
            LabError::NoSteps => write!(f, "advance needs at least one step"),
            LabError::DuplicatePercent(p) => {
                write!(f, "the share of duplicates must be 0 to 100 %, not {p} %")
            }
            LabError::SessionFull => write!(
                f,
                "this session is as large as a saved session may be ({} actions, {} grants); \
                 export it if you want to keep it, then reset to go on",
                super::session::MAX_ACTIONS,
                super::session::MAX_SENDS
            ),
        }
    }
}

impl std::error::Error for LabError {}

#[derive(Debug, Clone, Copy)]
struct KeyUse {
    attempts: u32,
    first_points: i32,
}

/// The last separate balance read, shown apart from every receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceRead {
    pub account_id: String,
    pub balance: i32,
    /// How many attempts had finished when the read was made.
    pub after_attempts: usize,
}

#[derive(Debug, Default)]
pub struct LabState {
    store: PointStore,
    queue: VecDeque<Attempt>,
    waiting: VecDeque<Attempt>,
    in_hand: Option<Attempt>,
    paused: bool,
    timeline: Vec<AttemptRow>,
    /// Per (account, key): how many attempts used it, and the points it was first
    /// sent with (the payload the store will keep, so a later request with other
    /// points is known to be refused).
    keys: FxHashMap<(String, String), KeyUse>,
    sent: u64,
    bursts_sent: u64,
    last_request: Option<GrantPoints>,
    /// What the retry buttons resend (see [`LabState::retry_target`]).
    retry_target: Option<GrantPoints>,
    last_read: Option<BalanceRead>,
}

impl LabState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Carries out one action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), LabError> {
        match action {
            Action::Send {
                grant,
                lose_acknowledgement,
            } => {
                self.send(grant.clone(), Origin::Send, *lose_acknowledgement);
                Ok(())
            }
            Action::RetrySame {
                lose_acknowledgement,
            } => {
                let grant = self.retry_target().ok_or(LabError::NothingToRetry)?;
                self.send(grant, Origin::RetrySame, *lose_acknowledgement);
                Ok(())
            }
            Action::RetryFresh {
                lose_acknowledgement,
            } => {
                let last = self.retry_target().ok_or(LabError::NothingToRetry)?;
                let grant = last.with_key(self.fresh_key(&last.account_id, &last.key));
                self.send(grant, Origin::RetryFresh, *lose_acknowledgement);
                Ok(())
            }
            Action::Burst {
                account_id,
                points,
                count,
            } => {
                check_burst_size(*count)?;
                for _ in 0..*count {
                    self.bursts_sent += 1;
                    let key = format!("burst-{}", self.bursts_sent);
                    let grant = GrantPoints::new(key, account_id.clone(), *points);
                    self.send(grant, Origin::Burst, false);
                }
                Ok(())
            }
            Action::Stress {
                account_id,
                points,
                count,
                duplicate_percent,
            } => {
                check_burst_size(*count)?;
                if *duplicate_percent > 100 {
                    return Err(LabError::DuplicatePercent(*duplicate_percent));
                }
                self.stress(account_id, *points, *count, *duplicate_percent);
                Ok(())
            }
            Action::SetPaused { paused } => {
                self.paused = *paused;
                Ok(())
            }
            Action::Advance { steps } => {
                if *steps == 0 {
                    return Err(LabError::NoSteps);
                }
                if !self.can_step() {
                    return Err(LabError::Idle);
                }
                for _ in 0..*steps {
                    if !self.step() {
                        break;
                    }
                }
                Ok(())
            }
            Action::CheckBalance { account_id } => {
                self.last_read = Some(BalanceRead {
                    account_id: account_id.clone(),
                    balance: self.store.balance(account_id),
                    after_attempts: self.timeline.len(),
                });
                Ok(())
            }
        }
    }

    fn stress(&mut self, account_id: &str, points: i32, count: u32, duplicate_percent: u8) {
        self.bursts_sent += 1;
        let run = self.bursts_sent;
        let mut chooser = Chooser::new(run);
        let mut distinct: u32 = 0;
        for _ in 0..count {
            let repeat = distinct > 0 && chooser.below(100) < u32::from(duplicate_percent);
            let n = if repeat {
                chooser.below(distinct)
            } else {
                distinct += 1;
                distinct - 1
            };
            let key = format!("stress-{run}-{n}");
            self.send(
                GrantPoints::new(key, account_id, points),
                Origin::Burst,
                false,
            );
        }
    }

    /// Whether the consumer could make a move right now.
    pub fn can_step(&self) -> bool {
        self.in_hand.is_some() || (!self.paused && !self.queue.is_empty())
    }

    /// How many consumer moves remain before the lab is idle (ignoring a pause).
    pub fn steps_to_drain(&self) -> usize {
        let queued = self.queue.len() + self.waiting.len();
        2 * queued + usize::from(self.in_hand.is_some())
    }

    /// One consumer move: finish the delivery in hand, or else take the next one.
    fn step(&mut self) -> bool {
        if let Some(attempt) = self.in_hand.take() {
            self.finish(attempt);
            return true;
        }
        if self.paused {
            return false;
        }
        let Some(next) = self.queue.pop_front() else {
            return false;
        };
        self.in_hand = Some(next);
        // Taking a delivery frees a slot: the longest-waiting producer gets it.
        if let Some(producer) = self.waiting.pop_front() {
            self.queue.push_back(producer);
        }
        true
    }

    fn finish(&mut self, attempt: Attempt) {
        let delivered = deliver(&self.store, &attempt.grant, attempt.lose_acknowledgement);
        let balance_after = self.store.balance(&attempt.grant.account_id);
        self.timeline.push(AttemptRow {
            attempt,
            delivered,
            balance_after,
        });
    }

    fn send(&mut self, grant: GrantPoints, origin: Origin, lose_acknowledgement: bool) {
        self.sent += 1;
        let used = self
            .keys
            .entry((grant.account_id.clone(), grant.key.clone()))
            .or_insert(KeyUse {
                attempts: 0,
                first_points: grant.points,
            });
        used.attempts += 1;
        let (attempt_of_key, claimed) = (used.attempts, used.first_points);
        if origin != Origin::Burst {
            if claimed == grant.points && validate(&grant).is_ok() {
                self.retry_target = Some(grant.clone());
            }
            self.last_request = Some(grant.clone());
        }
        let attempt = Attempt {
            id: self.sent,
            grant,
            origin,
            attempt_of_key,
            lose_acknowledgement,
        };
        if self.queue.len() < PointWorker::CAPACITY {
            self.queue.push_back(attempt);
        } else {
            self.waiting.push_back(attempt);
        }
    }

    /// The request the retry buttons resend: the newest one a person sent (bursts
    /// aside) that the store will not refuse, i.e. valid and not reusing a key that
    /// was first sent with other points. A refused request would only be refused
    /// again. Decided when each request is sent, so it never depends on how far the
    /// consumer has got.
    pub fn retry_target(&self) -> Option<GrantPoints> {
        self.retry_target.clone()
    }

    /// A key for this account that no attempt has used yet, derived from `base`.
    fn fresh_key(&self, account_id: &str, base: &str) -> String {
        // Strip an earlier "-retry-N" so repeated fresh retries read retry-2, retry-3.
        let stem = match base.rsplit_once("-retry-") {
            Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
            _ => base,
        };
        // Keep the new key within what the form accepts, suffix included.
        let stem: String = stem.chars().take(MAX_FIELD_CHARS - 16).collect();
        (2..)
            .map(|n| format!("{stem}-retry-{n}"))
            .find(|key| {
                !self
                    .keys
                    .contains_key(&(account_id.to_owned(), key.clone()))
            })
            .expect("an unused key exists")
    }

    pub fn store(&self) -> &PointStore {
        &self.store
    }
    pub fn queue(&self) -> &VecDeque<Attempt> {
        &self.queue
    }
    pub fn waiting(&self) -> &VecDeque<Attempt> {
        &self.waiting
    }
    pub fn in_hand(&self) -> Option<&Attempt> {
        self.in_hand.as_ref()
    }
    pub fn paused(&self) -> bool {
        self.paused
    }
    pub fn timeline(&self) -> &[AttemptRow] {
        &self.timeline
    }
    pub fn last_request(&self) -> Option<&GrantPoints> {
        self.last_request.as_ref()
    }
    pub fn last_read(&self) -> Option<&BalanceRead> {
        self.last_read.as_ref()
    }
    /// Attempts sent but not yet answered: queued, waiting for room, or in hand.
    pub fn in_flight(&self) -> usize {
        self.queue.len() + self.waiting.len() + usize::from(self.in_hand.is_some())
    }
}

/// A tiny seeded generator (SplitMix64): the same run always picks the same
/// duplicates, which keeps the lab a pure function of its history.
struct Chooser(u64);

impl Chooser {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A number in `0..bound` (`bound` > 0).
    fn below(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(bound)) as u32
    }
}

/// Bursts and stress runs queue 1 to `MAX_BURST` grants.
fn check_burst_size(count: u32) -> Result<(), LabError> {
    if count == 0 || count > MAX_BURST {
        Err(LabError::BurstSize(count))
    } else {
        Ok(())
    }
}
