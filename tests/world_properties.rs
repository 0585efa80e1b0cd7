#![cfg(not(target_arch = "wasm32"))]
//! Property tests of the simulated world: random histories of sends, retries, lost
//! acknowledgements, caller timeouts and processing times, pauses, waits, restarts,
//! bursts and stress runs, checked against what the world's event log must say.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000). Each history
//! is short and each burst small, so a case costs well under a millisecond or two.

mod common;
use common::instant_lab;

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::lab::{Action, Lab, Setting, Truth};
use idempotency_lab::sim::{AttemptId, Event, Happening, Millis, ProcessNumber};
use idempotency_lab::{GrantError, GrantPoints, GrantResult, StoreOutcome};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const ACCOUNTS: [&str; 2] = ["alice", "bob"];
const KEYS: [&str; 4] = ["k0", "k1", "k2", " "];
const MAX_HISTORY: usize = 30;

fn points() -> impl Strategy<Value = i32> {
    prop_oneof![
        6 => Just(100),
        3 => Just(25),
        1 => Just(0),
        1 => Just(i32::MAX - 5),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    let lose = proptest::bool::weighted(0.3);
    prop_oneof![
        6 => (0..ACCOUNTS.len(), 0..KEYS.len(), points(), lose).prop_map(
            |(account, key, points, lose_acknowledgement)| Action::Send {
                grant: GrantPoints::new(KEYS[key], ACCOUNTS[account], points),
                lose_acknowledgement,
            }
        ),
        3 => lose.prop_map(|lose_acknowledgement| Action::RetrySame {
            lose_acknowledgement
        }),
        1 => lose.prop_map(|lose_acknowledgement| Action::RetryFresh {
            lose_acknowledgement
        }),
        1 => (0..ACCOUNTS.len(), 1..=20u32).prop_map(|(account, count)| Action::Burst {
            account_id: ACCOUNTS[account].into(),
            points: 1,
            count,
        }),
        1 => (1..=8u32, 0..=100u8).prop_map(|(count, duplicate_percent)| Action::Stress {
            account_id: ACCOUNTS[0].into(),
            points: 2,
            count,
            duplicate_percent,
        }),
        2 => any::<bool>().prop_map(|paused| Action::Set(Setting::Paused(paused))),
        3 => (1..=4_000u64).prop_map(|ms| Action::Wait { ms }),
        1 => Just(Action::Restart),
        1 => (50..=4_000u64).prop_map(|ms| Action::Set(Setting::CallerTimeoutMs(ms))),
        1 => (0..=800u64).prop_map(|ms| Action::Set(Setting::ProcessingMs(ms))),
        1 => any::<bool>().prop_map(|on| Action::Set(Setting::Naive(on))),
        1 => (0..ACCOUNTS.len()).prop_map(|account| Action::CheckBalance {
            account_id: ACCOUNTS[account].into(),
        }),
    ]
}

fn history() -> impl Strategy<Value = Vec<Action>> {
    vec(action(), 0..=MAX_HISTORY)
}

/// Runs a history (refused actions, such as a retry before any send, are simply
/// not recorded), then releases the consumer and lets the world run until idle.
fn run(actions: &[Action]) -> Lab {
    let mut lab = instant_lab();
    for action in actions {
        let _ = lab.dispatch(action.clone());
    }
    lab.dispatch(Action::Set(Setting::Paused(false)))
        .expect("unpausing is always accepted");
    lab.skip_to_idle().unwrap();
    lab
}

/// What the log says about one attempt, by position in the log.
#[derive(Debug, Default, Clone)]
struct Life {
    sent: Option<usize>,
    process: ProcessNumber,
    deadline: Option<Millis>,
    waiting: Option<usize>,
    queued: Option<usize>,
    taken: Option<usize>,
    handled: Option<(usize, Result<StoreOutcome, GrantError>)>,
    answered: Option<(usize, Result<GrantResult, GrantError>)>,
    timed_out: Option<usize>,
    terminals: usize,
}

fn lives(log: &[Event]) -> Result<BTreeMap<AttemptId, Life>, TestCaseError> {
    let mut lives: BTreeMap<AttemptId, Life> = BTreeMap::new();
    for (i, event) in log.iter().enumerate() {
        let Some(id) = event.what.attempt() else {
            continue;
        };
        if let Happening::NaiveHandled { .. } = event.what {
            prop_assert!(lives.contains_key(&id), "naive copy of an unsent attempt");
            continue;
        }
        let life = lives.entry(id).or_default();
        match &event.what {
            Happening::Sent {
                process, deadline, ..
            } => {
                prop_assert!(life.sent.is_none(), "sent twice: {}", id);
                life.sent = Some(i);
                life.process = *process;
                life.deadline = *deadline;
            }
            other => {
                prop_assert!(life.sent.is_some(), "{:?} before it was sent", other);
                match other {
                    Happening::WaitingForRoom { .. } => {
                        prop_assert!(life.waiting.is_none() && life.queued.is_none());
                        life.waiting = Some(i);
                    }
                    Happening::Queued { .. } => {
                        prop_assert!(life.queued.is_none());
                        life.queued = Some(i);
                    }
                    Happening::Taken { .. } => {
                        prop_assert!(life.queued.is_some() && life.taken.is_none());
                        life.taken = Some(i);
                    }
                    Happening::Handled { store, .. } => {
                        prop_assert!(life.taken.is_some() && life.handled.is_none());
                        life.handled = Some((i, store.clone()));
                    }
                    Happening::Answered { answer, .. } => {
                        life.answered = Some((i, answer.clone()));
                        life.terminals += 1;
                    }
                    Happening::TimedOut { .. } => {
                        life.timed_out = Some(i);
                        life.terminals += 1;
                    }
                    // The store's steps come between taken and handled.
                    Happening::Store { .. } => {
                        prop_assert!(life.taken.is_some() && life.handled.is_none());
                    }
                    _ => unreachable!(),
                }
            }
        }
    }
    Ok(lives)
}

fn check(lab: &Lab) -> Result<(), TestCaseError> {
    let log: Vec<Event> = lab.state().world().events().to_vec();
    let state = lab.state();

    // The clock never goes back.
    prop_assert!(log.windows(2).all(|w| w[0].at <= w[1].at));
    prop_assert!(log.last().is_none_or(|e| e.at <= state.now()));

    let lives = lives(&log)?;
    // Attempts are numbered 1, 2, ... in sending order, and the lab tracks each.
    prop_assert_eq!(
        lives.keys().copied().collect::<Vec<_>>(),
        (1..=lives.len() as AttemptId).collect::<Vec<_>>()
    );

    // Processes: where each ended, and that each end is followed by the next start.
    let mut ended_at: BTreeMap<ProcessNumber, usize> = BTreeMap::new();
    let mut started_at: BTreeMap<ProcessNumber, usize> = BTreeMap::new();
    for (i, event) in log.iter().enumerate() {
        match event.what {
            Happening::ProcessEnded { process } => {
                prop_assert!(ended_at.insert(process, i).is_none());
            }
            Happening::ProcessStarted { process, .. } => {
                prop_assert!(ended_at.contains_key(&(process - 1)));
                prop_assert!(started_at.insert(process, i).is_none());
            }
            _ => {}
        }
    }
    prop_assert_eq!(ended_at.len(), started_at.len());
    prop_assert_eq!(state.process_number() as usize, ended_at.len() + 1);

    for (id, life) in &lives {
        let sent = life.sent.expect("checked above");
        // Every caller gets exactly one answer, after it asked.
        prop_assert_eq!(
            life.terminals,
            1,
            "attempt {} heard {} answers",
            id,
            life.terminals
        );
        let terminal = life
            .answered
            .as_ref()
            .map(|a| a.0)
            .or(life.timed_out)
            .unwrap();
        prop_assert!(terminal > sent);
        // A caller times out exactly at its deadline, never later, and a patient
        // one never does.
        if let Some(i) = life.timed_out {
            prop_assert_eq!(Some(log[i].at), life.deadline, "attempt {}", id);
        }
        if let (Some((i, _)), Some(deadline)) = (&life.answered, life.deadline) {
            prop_assert!(log[*i].at <= deadline);
        }
        // Nothing queued is lost except by a restart, and then its caller is told,
        // unless it had already given up.
        let ended = ended_at.get(&life.process).copied();
        let entered = life.queued.or(life.waiting);
        prop_assert!(entered.is_some(), "attempt {} never reached its worker", id);
        match &life.handled {
            Some((h, _)) => {
                prop_assert!(
                    ended.is_none_or(|e| *h < e),
                    "handled after its process ended"
                );
            }
            None => {
                let gave_up_waiting = life.queued.is_none() && life.timed_out.is_some();
                match ended {
                    _ if gave_up_waiting => {
                        // Took its request back before its process ended.
                        prop_assert!(ended.is_none_or(|e| life.timed_out.unwrap() < e));
                    }
                    Some(e) => {
                        // Told in the instant of the restart.
                        let told = matches!(
                            &life.answered,
                            Some((i, Err(GrantError::WorkerStopped))) if *i > e
                                && log[*i].at == log[e].at
                        );
                        let had_given_up = life.timed_out.is_some_and(|t| t < e);
                        prop_assert!(
                            told || had_given_up,
                            "attempt {} dropped by the restart but not told: {:?}",
                            id,
                            life
                        );
                    }
                    None => {
                        return Err(TestCaseError::fail(format!(
                            "attempt {id} was queued and lost without a restart: {life:?}"
                        )));
                    }
                }
            }
        }
        // `WorkerStopped` is heard only because of a restart, and only by a caller
        // whose attempt the store never saw.
        if let Some((i, Err(GrantError::WorkerStopped))) = &life.answered {
            prop_assert!(ended.is_some_and(|e| e < *i));
            prop_assert!(life.handled.is_none());
        }
    }

    // The idempotent worker grants each (account, key) at most once per process;
    // with no restart at all, at most once. A replay follows a grant in the same
    // process and hands back its receipt.
    let mut granted: BTreeMap<(ProcessNumber, String, String), GrantResult> = BTreeMap::new();
    let mut ever: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut handled: Vec<(usize, &Life)> = lives
        .values()
        .filter_map(|life| life.handled.as_ref().map(|h| (h.0, life)))
        .collect();
    handled.sort_unstable_by_key(|(at, _)| *at);
    for (_, life) in handled {
        let store = &life.handled.as_ref().expect("filtered above").1;
        match store {
            Ok(StoreOutcome::Applied(r)) => {
                let key = (life.process, r.account_id.clone(), r.key.clone());
                prop_assert!(
                    granted.insert(key, r.clone()).is_none(),
                    "granted twice in one process: {:?}",
                    r
                );
                *ever
                    .entry((r.account_id.clone(), r.key.clone()))
                    .or_default() += 1;
            }
            Ok(StoreOutcome::Replayed(r)) => {
                let key = (life.process, r.account_id.clone(), r.key.clone());
                prop_assert_eq!(granted.get(&key), Some(r));
            }
            Err(_) => {}
        }
    }
    if ended_at.is_empty() {
        prop_assert!(ever.values().all(|n| *n == 1), "{:?}", ever);
    }
    // The store of the current process holds exactly its grants.
    let mut balances: BTreeMap<String, i32> = BTreeMap::new();
    for ((process, account, _), r) in &granted {
        if *process == state.process_number() {
            *balances.entry(account.clone()).or_default() += r.points;
        }
    }
    prop_assert_eq!(
        state.store().balances(),
        balances.into_iter().collect::<Vec<_>>()
    );
    prop_assert_eq!(
        state.naive_balances(),
        &state.world().naive_store().balances()[..]
    );

    // The folds: idle, everyone answered, every truth known and consistent.
    prop_assert!(state.queue().is_empty());
    prop_assert_eq!(state.waiting(), 0);
    prop_assert!(state.in_hand().is_none());
    prop_assert_eq!(state.in_flight(), 0);
    prop_assert_eq!(state.until_next(), None);
    prop_assert_eq!(state.timeline().len(), lives.len());
    let mut rows_seen = BTreeSet::new();
    for row in state.timeline() {
        let id = row.attempt.id;
        prop_assert!(rows_seen.insert(id));
        let life = &lives[&id];
        prop_assert_eq!(row.attempt.process, life.process);
        match &life.answered {
            Some((_, answer)) => prop_assert_eq!(row.caller.as_ref(), Some(answer)),
            None => prop_assert_eq!(row.caller.as_ref(), Some(&Err(GrantError::Timeout))),
        }
        prop_assert_eq!(
            row.handled.as_ref().map(|h| &h.store),
            life.handled.as_ref().map(|h| &h.1)
        );
        let applied = matches!(life.handled, Some((_, Ok(StoreOutcome::Applied(_)))));
        match row.truth() {
            None => prop_assert!(life.timed_out.is_none()),
            Some(Truth::Pending) => {
                return Err(TestCaseError::fail(format!(
                    "still pending when idle: {row:?}"
                )))
            }
            Some(Truth::Crashed) => {
                return Err(TestCaseError::fail(format!(
                    "no crash point is armed in these histories: {row:?}"
                )))
            }
            Some(Truth::NeverApplied) => {
                prop_assert!(matches!(life.handled, None | Some((_, Err(_)))))
            }
            Some(Truth::ReturnedReceipt) => {
                prop_assert!(matches!(
                    life.handled,
                    Some((_, Ok(StoreOutcome::Replayed(_))))
                ));
            }
            Some(Truth::AppliedBeforeTimeout) => {
                prop_assert!(applied && life.handled.as_ref().unwrap().0 < life.timed_out.unwrap());
            }
            Some(Truth::AppliedAfterTimeout) => {
                prop_assert!(applied && life.handled.as_ref().unwrap().0 > life.timed_out.unwrap());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn random_histories_keep_the_worlds_promises(actions in history()) {
        let lab = run(&actions);
        check(&lab)?;
        // The same history, replayed, gives the same log byte for byte.
        let again = Lab::replay(lab.history()).expect("an accepted history replays");
        let log = |lab: &Lab| serde_json::to_string(&*lab.state().world().events()).unwrap();
        prop_assert_eq!(log(&again), log(&lab));
    }
}

/// The generator really makes the situations the properties are about; otherwise
/// they could pass vacuously.
#[test]
fn generated_histories_cover_every_situation() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut count = |name: &'static str| *seen.entry(name).or_default() += 1;
    for _ in 0..400 {
        let actions = history().new_tree(&mut runner).unwrap().current();
        let lab = run(&actions);
        let restarted = lab.state().process_number() > 1;
        count(if restarted { "restarted" } else { "no-restart" });
        for row in lab.state().timeline() {
            if let Some(truth) = row.truth() {
                count(truth.code());
            }
            count(row.outcome().code());
            if row.never_handled && row.truth() == Some(Truth::NeverApplied) {
                count(if row.attempt.process < lab.state().process_number() {
                    "dropped-after-timeout-or-gave-up"
                } else {
                    "gave-up-waiting"
                });
            }
            if row
                .handled
                .as_ref()
                .is_some_and(|h| h.granted_before_in.is_some())
            {
                count("granted-again-after-restart");
            }
            if let Some(e) = row.store_error() {
                count(e.code());
            }
        }
        for event in lab.state().world().events().iter() {
            match event.what {
                Happening::WaitingForRoom { .. } => count("waiting-for-room"),
                Happening::NaiveHandled { .. } => count("naive"),
                _ => {}
            }
        }
    }
    for name in [
        "restarted",
        "no-restart",
        "never-applied",
        "applied-before-timeout",
        "applied-after-timeout",
        "applied",
        "replayed",
        "rejected",
        "timeout",
        "timeout-applied",
        "process-ended",
        "dropped-after-timeout-or-gave-up",
        "gave-up-waiting",
        "granted-again-after-restart",
        "payload-mismatch",
        "overflow",
        "empty-key",
        "non-positive-points",
        "waiting-for-room",
        "naive",
    ] {
        assert!(
            seen.get(name).copied().unwrap_or(0) >= 5,
            "{name}: {seen:?}"
        );
    }
}
