//! What each step of a found history did, read from the world's event log:
//! the clauses a replay says after each step ("the store added 100 points",
//! "the acknowledgement was lost", "process 1 ended", "this broke …"), which
//! each language puts in its own words.

use super::promise::Promise;
use super::run::Runner;
use crate::core::{CrashPoint, MailOutcome, StoreOutcome};
use crate::lab::{Action, AttemptId, ProcessNumber, Setting};
use crate::sim::{Happening, Origin};

/// One thing a step made happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// The store added the attempt's points: the account's balance after.
    Applied {
        attempt: AttemptId,
        points: i32,
        account: String,
        balance: i32,
    },
    /// The store knew the operation and gave its stored receipt back.
    Replayed { attempt: AttemptId },
    /// The store refused the request (its key was used for another payload).
    Refused { attempt: AttemptId },
    /// The answer to the attempt was lost on its way back.
    AckLost { attempt: AttemptId },
    /// The attempt's caller stopped waiting.
    TimedOut { attempt: AttemptId },
    /// The process crashed at the armed point while handling the attempt.
    Crashed {
        attempt: AttemptId,
        point: CrashPoint,
    },
    /// A process ended: its queue and memory are gone.
    Ended { process: ProcessNumber },
    /// The queue delivered the message of `of` again, as `attempt`.
    Redelivered { attempt: AttemptId, of: AttemptId },
    /// The sweeper deleted an expired receipt.
    Expired { key: String },
    /// A confirmation email reached the account's inbox.
    Emailed { account: String },
    /// The request named another account than the signed-in one: refused.
    Forbidden { attempt: AttemptId },
    /// The step broke this promise (first time).
    Broke(Promise),
}

/// What each step did, in order, and then what the end (the consumers
/// released, time run until idle) did: `steps.len() + 1` lists. A step the
/// lab refused did nothing.
pub fn narrate(setup: &[Setting], steps: &[Action]) -> Vec<Vec<Said>> {
    let mut runner = Runner::new(setup);
    let mut out = Vec::with_capacity(steps.len() + 1);
    let mut seen = runner.lab().state().world().events().len();
    let mut broken = runner.broken();
    let mut said = |runner: &Runner| {
        let events = runner.lab().state().world().events();
        let mut clauses: Vec<Said> = events[seen..]
            .iter()
            .flat_map(|event| clauses(&event.what))
            .collect();
        seen = events.len();
        let now = runner.broken();
        clauses.extend(now.iter().filter(|p| !broken.contains(*p)).map(Said::Broke));
        broken = now;
        clauses
    };
    for step in steps {
        runner.step(step);
        out.push(said(&runner));
    }
    runner.finish();
    out.push(said(&runner));
    out
}

fn clauses(what: &Happening) -> Vec<Said> {
    let said = match what {
        Happening::Handled {
            attempt,
            store,
            acknowledgement_lost,
            ..
        } => {
            let done = match store {
                Ok(StoreOutcome::Applied(r)) => Said::Applied {
                    attempt: *attempt,
                    points: r.points,
                    account: r.account_id.clone(),
                    balance: r.balance,
                },
                Ok(StoreOutcome::Replayed(_)) => Said::Replayed { attempt: *attempt },
                Err(_) => Said::Refused { attempt: *attempt },
            };
            let mut both = vec![done];
            if *acknowledgement_lost {
                both.push(Said::AckLost { attempt: *attempt });
            }
            return both;
        }
        Happening::TimedOut { attempt, .. } => Said::TimedOut { attempt: *attempt },
        Happening::Crashed { attempt, point, .. } => Said::Crashed {
            attempt: *attempt,
            point: *point,
        },
        Happening::ProcessEnded { process } => Said::Ended { process: *process },
        Happening::Sent {
            attempt,
            origin: Origin::Redelivered,
            redelivery_of: Some(of),
            ..
        } => Said::Redelivered {
            attempt: *attempt,
            of: *of,
        },
        Happening::Expired { key, .. } => Said::Expired { key: key.clone() },
        Happening::Emailed {
            account_id,
            outcome: MailOutcome::Delivered,
            ..
        } => Said::Emailed {
            account: account_id.clone(),
        },
        Happening::Forbidden { attempt, .. } => Said::Forbidden { attempt: *attempt },
        _ => return Vec::new(),
    };
    vec![said]
}
