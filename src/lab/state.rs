//! The lab's state: the simulated world running the article's worker, the fold of
//! what it reported, and what the person's buttons need (what a retry resends).
//! Every action is carried out, or refused with a [`LabError`], here.

use std::fmt;

use crate::core::{authorize_account, GrantError, GrantPoints};
use crate::sim::{AttemptId, Faults, Millis, ProcessNumber, Settings, StoreRef, World};

use super::action::{Action, MAX_BURST};
pub use super::error::LabError;
use super::fold::{Fold, Line};
use super::form::MAX_FIELD_CHARS;
use super::invariants::Invariants;
use super::limits::{MAX_CLOCK_MOVE_MS, MAX_WAIT_MS};
use super::timeline::{Attempt, AttemptRow, Marker, Origin};

/// How many calls a stress run's batch job keeps open at once: enough to keep
/// the queue full and producers waiting for room.
pub const STRESS_CONCURRENCY: usize = 64;

/// What "Retry (fresh key)" appends to the key, before a number.
const FRESH_SUFFIX: &str = "-fresh-";

/// How far the newest stress run has got: how many of its callers have heard
/// back, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StressProgress {
    pub answered: u32,
    pub total: u32,
}

/// The last separate balance read, shown apart from every receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceRead {
    pub account_id: String,
    /// The balance, or why the read was refused (another account than the
    /// signed-in caller's).
    pub balance: Result<i32, GrantError>,
    /// How many timeline rows there were when the read was made.
    pub after_attempts: usize,
    /// The attempt the store had handled last when the read was made: the balance
    /// read is the one right after it.
    pub after_attempt: Option<AttemptId>,
    pub at: Millis,
}

#[derive(Default)]
pub struct LabState {
    world: World,
    fold: Fold,
    bursts_sent: u64,
    /// The newest stress run's first attempt and size.
    stress_run: Option<(AttemptId, u32)>,
    last_request: Option<GrantPoints>,
    last_read: Option<BalanceRead>,
}

impl fmt::Debug for LabState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LabState")
            .field("now", &self.world.now())
            .field("attempts", &self.world.last_attempt())
            .finish_non_exhaustive()
    }
}

impl LabState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Carries out one action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), LabError> {
        self.check(action)?;
        match action {
            Action::Send {
                grant,
                lose_acknowledgement,
            } => self.send(grant.clone(), Origin::Send, *lose_acknowledgement),
            Action::RetrySame {
                lose_acknowledgement,
            } => {
                let grant = self.retry_target().ok_or(LabError::NothingToRetry)?;
                self.send(grant, Origin::RetrySame, *lose_acknowledgement);
            }
            Action::RetryFresh {
                lose_acknowledgement,
            } => {
                let grant = self.fresh_retry_target().ok_or(LabError::NothingToRetry)?;
                self.send(grant, Origin::RetryFresh, *lose_acknowledgement);
            }
            Action::Burst {
                account_id,
                points,
                count,
            } => {
                for _ in 0..*count {
                    self.bursts_sent += 1;
                    let key = format!("burst-{}", self.bursts_sent);
                    let grant = GrantPoints::new(key, account_id.clone(), *points);
                    self.send(grant, Origin::Burst, false);
                }
            }
            Action::Stress {
                account_id,
                points,
                count,
                duplicate_percent,
            } => self.stress(account_id, *points, *count, *duplicate_percent),
            Action::Step => self.world.step(),
            Action::Wait { ms } => self.world.advance(*ms),
            Action::CheckBalance { account_id } => {
                // A read is a request too: checked like a grant, before the store
                // is asked. A refused read is recorded, and says why.
                let signed_in = self.world.signed_in();
                let balance = authorize_account(signed_in.as_deref(), account_id)
                    .map(|()| self.world.store().balance(account_id));
                self.last_read = Some(BalanceRead {
                    account_id: account_id.clone(),
                    balance,
                    after_attempts: self.fold.timeline.len(),
                    after_attempt: self.fold.last_handled,
                    at: self.world.now(),
                });
            }
            Action::Restart => self.world.restart(),
            // Refused (changing nothing) when the value is not allowed.
            Action::Set(change) => self.world.set(*change)?,
            Action::SetCrashPoint { point } => self.world.arm(Faults {
                crash_point: *point,
                ..self.world.faults()
            }),
            Action::SetRedeliver { on } => self.world.arm(Faults {
                redeliver_next: *on,
                ..self.world.faults()
            }),
            Action::MoveClock { ms } => self.world.move_clock(*ms),
            Action::CrashProcess { process } => {
                if !self.world.crash(*process) {
                    return Err(LabError::NoSuchProcess(*process));
                }
            }
            Action::LoseAnswer { attempt } => {
                if !self.world.lose_answer(*attempt) {
                    return Err(LabError::NoAnswerOnItsWay(*attempt));
                }
            }
            Action::SignIn { account_id } => self.world.sign_in(account_id.clone()),
            Action::SetPreferredLanguage {
                account_id,
                language,
            } => self.world.set_language(account_id, *language),
        }
        self.fold.catch_up(&self.world.events());
        Ok(())
    }

    /// The checks that need no state, made before anything changes.
    fn check(&self, action: &Action) -> Result<(), LabError> {
        match *action {
            Action::Burst { count, .. } => check_burst_size(count),
            Action::Stress {
                count,
                duplicate_percent,
                ..
            } => {
                check_burst_size(count)?;
                if duplicate_percent > 100 {
                    return Err(LabError::DuplicatePercent(duplicate_percent));
                }
                Ok(())
            }
            Action::Wait { ms } if ms == 0 || ms > MAX_WAIT_MS => Err(LabError::WaitLength(ms)),
            Action::Step => self.step_refusal().map_or(Ok(()), Err),
            Action::MoveClock { ms } if ms == 0 || ms > MAX_CLOCK_MOVE_MS => {
                Err(LabError::ClockMove(ms))
            }
            Action::SetPreferredLanguage { ref account_id, .. }
            | Action::SignIn {
                account_id: Some(ref account_id),
            } => super::form::check_text(account_id).map_or(Ok(()), |e| Err(LabError::Account(e))),
            _ => Ok(()),
        }
    }

    /// A load test: `count` grants from a batch job that keeps at most
    /// [`STRESS_CONCURRENCY`] calls open and waits as long as each takes (no
    /// deadline), about `duplicate_percent` of them repeating an earlier grant of
    /// the same run, as a redelivery would. Seeded by the run's number, so a replay
    /// makes the same choices. The job makes its calls as room opens up.
    fn stress(&mut self, account_id: &str, points: i32, count: u32, duplicate_percent: u8) {
        self.bursts_sent += 1;
        let run = self.bursts_sent;
        let mut chooser = Chooser::new(run);
        let mut distinct: u32 = 0;
        let account = account_id.to_owned();
        let grants = (0..count).map(move |_| {
            let repeat = distinct > 0 && chooser.below(100) < u32::from(duplicate_percent);
            let n = if repeat {
                chooser.below(distinct)
            } else {
                distinct += 1;
                distinct - 1
            };
            GrantPoints::new(format!("stress-{run}-{n}"), account.clone(), points)
        });
        let first = self
            .world
            .send_batch(grants, STRESS_CONCURRENCY, Origin::Burst);
        self.stress_run = Some((first, count));
    }

    fn send(&mut self, grant: GrantPoints, origin: Origin, lose: bool) {
        if origin != Origin::Burst {
            self.last_request = Some(grant.clone());
        }
        // A person's callers, and a burst's, wait at most the caller timeout;
        // a person's retry by themselves when automatic retries are on.
        if origin == Origin::Burst {
            self.world.send(grant, lose, false, origin);
        } else {
            self.world.send_retrying(grant, lose, origin);
        }
    }

    /// The request the retry buttons resend (the fold's rule: the newest a
    /// person sent that the store has not refused).
    pub fn retry_target(&self) -> Option<GrantPoints> {
        let id = self.fold.retry_target()?;
        Some(self.fold.attempt(id)?.attempt.grant.clone())
    }

    /// What "Retry (fresh key)" would send now: the same request under a key
    /// no attempt has used (to the store, a new operation).
    pub fn fresh_retry_target(&self) -> Option<GrantPoints> {
        let last = self.retry_target()?;
        Some(last.with_key(self.fresh_key(&last.account_id, &last.key)))
    }

    /// A key for this account that no attempt has used yet, derived from `base`:
    /// `order-1042-fresh-1`, then `-fresh-2`. Named "fresh", not "retry": to the
    /// store it is a new operation, not another attempt at the old one.
    fn fresh_key(&self, account_id: &str, base: &str) -> String {
        // Strip an earlier "-fresh-N" so repeated fresh keys count on from the stem.
        let stem = match base.rsplit_once(FRESH_SUFFIX) {
            Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
            _ => base,
        };
        // Keep the new key within what the form accepts, suffix included.
        let stem: String = stem.chars().take(MAX_FIELD_CHARS - 16).collect();
        (1..)
            .map(|n| format!("{stem}{FRESH_SUFFIX}{n}"))
            .find(|key| {
                !self
                    .fold
                    .used_keys
                    .contains(&(account_id.to_owned(), key.clone()))
            })
            .expect("an unused key exists")
    }

    /// Why a step cannot be taken now, if it cannot: the one rule for the lab's
    /// refusal and for the page's Step button.
    pub fn step_refusal(&self) -> Option<LabError> {
        if !self.world.settings().paused {
            Some(LabError::StepNotPaused)
        } else if !self
            .fold
            .lines
            .iter()
            .any(|line| !line.queue.is_empty() && line.in_hand.is_none())
        {
            Some(LabError::NothingToStep)
        } else {
            None
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }
    /// The store a balance read sees: the durable one when in use, else process 1's memory.
    pub fn store(&self) -> StoreRef<'_> {
        self.world.store()
    }
    /// Attempts queued at process 1, oldest first.
    pub fn queue(&self) -> Vec<&Attempt> {
        self.line_queue(&self.fold.lines[0])
    }
    /// Producers waiting for room at process 1.
    pub fn waiting(&self) -> usize {
        self.fold.lines[0].waiting.len()
    }
    /// The delivery process 1's consumer is working on.
    pub fn in_hand(&self) -> Option<&Attempt> {
        self.fold.lines[0].in_hand.map(|id| self.attempt(id))
    }
    /// Every running process's line, by slot.
    pub fn lines(&self) -> &[Line] {
        &self.fold.lines
    }
    /// The attempts queued in `line`, oldest first.
    pub fn line_queue(&self, line: &Line) -> Vec<&Attempt> {
        line.queue.iter().map(|id| self.attempt(*id)).collect()
    }
    /// An attempt sent so far, by number.
    pub fn attempt_by_id(&self, id: AttemptId) -> Option<&Attempt> {
        self.fold.attempt(id).map(|t| &t.attempt)
    }
    /// An attempt's timeline row, by number.
    pub fn row_of(&self, id: AttemptId) -> Option<&AttemptRow> {
        self.fold.attempt(id).map(|t| &self.fold.timeline[t.row])
    }
    /// What happened between the attempts' rows, in order.
    pub fn markers(&self) -> &[Marker] {
        &self.fold.markers
    }
    /// The live checks of the three promises.
    pub fn invariants(&self) -> &Invariants {
        &self.fold.invariants
    }
    /// The world's settings now.
    pub fn settings(&self) -> Settings {
        self.world.settings()
    }
    /// The faults armed now: each disarms itself once it struck.
    pub fn faults(&self) -> Faults {
        self.world.faults()
    }
    /// What the last caller that retried by itself waited before each retry:
    /// (retry, ms), in order.
    pub fn last_waits(&self) -> &[(u32, Millis)] {
        &self.fold.last_waits
    }
    /// Whose account calls act on, if anyone is signed in.
    pub fn signed_in(&self) -> Option<String> {
        self.world.signed_in()
    }
    pub fn timeline(&self) -> &[AttemptRow] {
        &self.fold.timeline
    }
    pub fn last_request(&self) -> Option<&GrantPoints> {
        self.last_request.as_ref()
    }
    pub fn last_read(&self) -> Option<&BalanceRead> {
        self.last_read.as_ref()
    }
    /// How many operations' customers got more than one email.
    pub fn emailed_twice(&self) -> usize {
        self.fold.emailed_twice
    }
    /// Balances on the naive side, by account.
    pub fn naive_balances(&self) -> &[(String, i32)] {
        &self.fold.naive_balances
    }
    pub fn now(&self) -> Millis {
        self.world.now()
    }
    pub fn process_number(&self) -> ProcessNumber {
        self.world.process_number()
    }
    /// The newest stress run, while some of its callers have not heard back (its
    /// batch makes its calls a few at a time, as room opens up).
    pub fn stress_progress(&self) -> Option<StressProgress> {
        let (first, total) = self.stress_run?;
        let answered = (first..first + AttemptId::from(total))
            .filter(|&id| self.row_of(id).is_some_and(AttemptRow::answered))
            .count() as u32;
        (answered < total).then_some(StressProgress { answered, total })
    }

    /// Rows whose caller has heard something: an answer, a timeout, an error.
    pub fn answered(&self) -> usize {
        self.fold.answered
    }

    /// Attempts handed to the world whose caller has not heard back yet.
    pub fn in_flight(&self) -> usize {
        self.world.last_attempt() as usize - self.fold.answered
    }
    /// How long until something happens by itself; `None` when the world is idle.
    pub fn until_next(&self) -> Option<Millis> {
        self.world.until_next()
    }
    fn attempt(&self, id: AttemptId) -> &Attempt {
        &self
            .fold
            .attempt(id)
            .expect("only attempts sent are queued")
            .attempt
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
