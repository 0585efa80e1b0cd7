#![cfg(not(target_arch = "wasm32"))]
//! Property tests of durable storage in the lab: random histories of sends,
//! retries, crashes armed at every point, restarts, one or two processes,
//! routing, processing times, waits and clock moves.
//!
//! (a) With one transaction no operation is granted twice and none that was
//!     committed is lost: checked from the event log and from the durable tables.
//! (b) With any store, the lab's invariant panel reports exactly the violations
//!     that a model of my own finds: it replays the log's writes into tables per
//!     store, checks them against the real tables at the end, and looks for
//!     broken promises whenever the world is between two writes.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000). Histories
//! are short (at most 30 actions), so a case costs a millisecond or two.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::lab::{Action, Invariant, Lab, Setting};
use idempotency_lab::sim::{
    AttemptId, Event, Happening, Millis, ProcessNumber, Routing, StoreKind, HOUR_MS,
};
use idempotency_lab::{
    CrashPoint, GrantError, GrantPoints, GrantResult, StoreOutcome, StoreStep, Table,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const ACCOUNTS: [&str; 2] = ["alice", "bob"];
const KEYS: [&str; 3] = ["k0", "k1", "k2"];
const MAX_HISTORY: usize = 30;

type Operation = (String, String);

fn points() -> impl Strategy<Value = i32> {
    prop_oneof![
        8 => Just(100),
        3 => Just(25),
        1 => Just(0),
        1 => Just(i32::MAX - 5),
    ]
}

fn crash_point() -> impl Strategy<Value = Option<CrashPoint>> {
    prop_oneof![
        1 => Just(None),
        3 => proptest::sample::select(&CrashPoint::ALL[..]).prop_map(Some),
    ]
}

fn routing() -> impl Strategy<Value = Routing> {
    prop_oneof![
        Just(Routing::RoundRobin),
        Just(Routing::KeyHash),
        Just(Routing::Only(1)),
        Just(Routing::Only(2)),
    ]
}

/// What any history may do: send, retry, crash, restart, run one or two
/// processes, route, change how long things take, wait. `clock` is how far one
/// move of the clock may go.
fn action(clock: u64) -> impl Strategy<Value = Action> {
    let lose = proptest::bool::weighted(0.25);
    prop_oneof![
        6 => (0..ACCOUNTS.len(), 0..KEYS.len(), points(), lose).prop_map(
            |(account, key, points, lose_acknowledgement)| Action::Send {
                grant: GrantPoints::new(KEYS[key], ACCOUNTS[account], points),
                lose_acknowledgement,
            }
        ),
        5 => lose.prop_map(|lose_acknowledgement| Action::RetrySame {
            lose_acknowledgement
        }),
        1 => lose.prop_map(|lose_acknowledgement| Action::RetryFresh {
            lose_acknowledgement
        }),
        3 => crash_point().prop_map(|point| Action::SetCrashPoint { point }),
        1 => Just(Action::Restart),
        2 => (1..=2u8).prop_map(|count| Action::Set(Setting::Processes(count))),
        1 => routing().prop_map(|routing| Action::Set(Setting::Routing(routing))),
        1 => (0..=1_500u64).prop_map(|ms| Action::Set(Setting::ProcessingMs(ms))),
        1 => (50..=4_000u64).prop_map(|ms| Action::Set(Setting::CallerTimeoutMs(ms))),
        1 => any::<bool>().prop_map(|paused| Action::Set(Setting::Paused(paused))),
        1 => Just(Action::Step),
        3 => (1..=4_000u64).prop_map(|ms| Action::Wait { ms }),
        1 => (1..=clock).prop_map(|ms| Action::MoveClock { ms }),
    ]
}

/// (a): one transaction from the start. Thirty moves of at most 45 minutes stay
/// well inside the 24-hour retention: no receipt expires.
fn transactional_history() -> impl Strategy<Value = Vec<Action>> {
    vec(action(45 * 60_000), 0..=MAX_HISTORY).prop_map(|actions| {
        let mut history = vec![Action::Set(Setting::Store(StoreKind::OneTransaction))];
        history.extend(actions);
        history
    })
}

/// (b): a store to start with (not the transaction, though a history may switch
/// to it), the ledger check on or off, and beside the common actions: switching
/// the store or the check, short retentions and clock moves of up to two days,
/// so receipts expire.
fn any_store_history() -> impl Strategy<Value = Vec<Action>> {
    let kind = proptest::sample::select(&StoreKind::ALL[..]);
    let extra = prop_oneof![
        1 => kind.clone().prop_map(|kind| Action::Set(Setting::Store(kind))),
        1 => any::<bool>().prop_map(|on| Action::Set(Setting::LedgerCheck(on))),
        1 => (1..=6u32).prop_map(|hours| Action::Set(Setting::RetentionHours(hours))),
    ];
    let step = prop_oneof![
        12 => action(2 * 24 * HOUR_MS),
        2 => extra,
    ];
    let first = prop_oneof![
        1 => Just(StoreKind::InMemory),
        1 => Just(StoreKind::ReceiptFirst),
        1 => Just(StoreKind::BalanceFirst),
    ];
    (first, any::<bool>(), vec(step, 0..=MAX_HISTORY)).prop_map(|(kind, ledger, actions)| {
        let mut history = vec![
            Action::Set(Setting::Store(kind)),
            Action::Set(Setting::LedgerCheck(ledger)),
        ];
        history.extend(actions);
        history
    })
}

/// Runs a history (refused actions are simply not recorded), then releases the
/// consumers and lets the world run until idle.
fn run(actions: &[Action]) -> Lab {
    let mut lab = Lab::new();
    for action in actions {
        let _ = lab.dispatch(action.clone());
    }
    lab.dispatch(Action::Set(Setting::Paused(false)))
        .expect("unpausing is always accepted");
    lab.skip_to_idle().unwrap();
    lab
}

/// Each attempt's operation, points and process, as sent.
fn sent(log: &[Event]) -> BTreeMap<AttemptId, (Operation, i32, ProcessNumber)> {
    log.iter()
        .filter_map(|e| match &e.what {
            Happening::Sent {
                attempt,
                process,
                grant,
                ..
            } => Some((
                *attempt,
                (
                    (grant.account_id.clone(), grant.key.clone()),
                    grant.points,
                    *process,
                ),
            )),
            _ => None,
        })
        .collect()
}

/// Every attempt's caller hears exactly one thing: an answer or its timeout.
fn every_caller_hears_once(log: &[Event]) -> Result<(), TestCaseError> {
    let mut heard: BTreeMap<AttemptId, u32> = sent(log).keys().map(|id| (*id, 0)).collect();
    for event in log {
        if let Happening::Answered { attempt, .. } | Happening::TimedOut { attempt, .. } =
            &event.what
        {
            *heard.get_mut(attempt).expect("heard only after sending") += 1;
        }
    }
    prop_assert!(heard.values().all(|n| *n == 1), "{:?}", heard);
    Ok(())
}

// ---------------------------------------------------------------------------
// (a) One transaction: at most once, and nothing committed is lost.

fn check_transactional(lab: &Lab) -> Result<(), TestCaseError> {
    let state = lab.state();
    let log: Vec<Event> = state.world().events().to_vec();
    let durable = state.world().durable_store();
    let attempts = sent(&log);
    every_caller_hears_once(&log)?;

    // Commits per operation, from the log: never two.
    let mut committed: BTreeMap<Operation, (AttemptId, i32, usize)> = BTreeMap::new();
    let mut conflicts: BTreeSet<AttemptId> = BTreeSet::new();
    for (i, event) in log.iter().enumerate() {
        match &event.what {
            Happening::Expired { .. } => {
                return Err(TestCaseError::fail("no receipt expires inside the window"));
            }
            Happening::Store {
                attempt,
                durable,
                step,
            } => {
                prop_assert!(*durable, "every handling uses the durable store");
                let (op, points, _) = &attempts[attempt];
                match step {
                    StoreStep::Committed => {
                        let first = committed.insert(op.clone(), (*attempt, *points, i));
                        prop_assert!(
                            first.is_none(),
                            "{:?} committed by {:?} and again by attempt {}",
                            op,
                            first,
                            attempt
                        );
                    }
                    StoreStep::Conflict => {
                        prop_assert!(committed.contains_key(op), "a conflict with no commit");
                        conflicts.insert(*attempt);
                    }
                    StoreStep::Staged(_) => {}
                    other => {
                        return Err(TestCaseError::fail(format!(
                            "a transaction writes nothing outside it: {other:?}"
                        )))
                    }
                }
            }
            _ => {}
        }
    }

    // Nothing committed is lost: each commit's receipt is in the table, and each
    // account's balance is the sum of its committed grants.
    let mut balances: BTreeMap<String, i32> = BTreeMap::new();
    let mut receipts: BTreeMap<Operation, GrantResult> = BTreeMap::new();
    for (op, (_, points, _)) in &committed {
        *balances.entry(op.0.clone()).or_default() += points;
        let receipt = durable.receipt(&op.0, &op.1);
        prop_assert!(receipt.is_some(), "the receipt of {:?} is lost", op);
        let receipt = receipt.unwrap();
        prop_assert_eq!(receipt.points, *points);
        prop_assert!(durable.in_ledger(&op.0, &op.1));
        receipts.insert(op.clone(), receipt);
    }
    let mut real: Vec<(String, i32)> = durable.balances();
    real.sort();
    prop_assert_eq!(real, balances.into_iter().collect::<Vec<_>>());
    prop_assert_eq!(durable.receipts_page(0).1, committed.len());

    // What every store handling and every caller saw agrees with the commits.
    for (i, event) in log.iter().enumerate() {
        match &event.what {
            Happening::Handled { attempt, store, .. } => {
                let (op, _, _) = &attempts[attempt];
                let commit = committed.get(op);
                match store {
                    Ok(StoreOutcome::Applied(r)) => {
                        prop_assert_eq!(commit.map(|c| c.0), Some(*attempt));
                        prop_assert_eq!(Some(r), receipts.get(op));
                    }
                    Ok(StoreOutcome::Replayed(r)) => {
                        prop_assert!(commit.is_some_and(|c| c.2 < i && c.0 != *attempt));
                        prop_assert_eq!(Some(r), receipts.get(op));
                    }
                    Err(GrantError::PayloadMismatch { stored, .. }) => {
                        prop_assert_eq!(Some(stored), receipts.get(op));
                    }
                    Err(_) => prop_assert!(commit.is_none_or(|c| c.0 != *attempt)),
                }
                if conflicts.contains(attempt) {
                    prop_assert!(!matches!(store, Ok(StoreOutcome::Applied(_))));
                }
            }
            // Success is reported only after commit.
            Happening::Answered {
                attempt,
                answer: Ok(r),
                ..
            } => {
                let (op, _, _) = &attempts[attempt];
                prop_assert!(committed.get(op).is_some_and(|c| c.2 < i));
                prop_assert_eq!(Some(r), receipts.get(op));
            }
            _ => {}
        }
    }

    // The panel agrees on the store's promises (a purchase retried under a
    // fresh key is paid twice whatever the store: not the store's to keep).
    for invariant in Invariant::ALL
        .into_iter()
        .filter(|i| *i != Invariant::PaidOnce)
    {
        prop_assert!(
            state.invariants().holds(invariant),
            "{:?} broken: {:?}",
            invariant,
            state.invariants().first_break(invariant)
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// (b) Any store: a model of what stands in each store, from the log.

/// Where a write lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Store {
    Durable,
    Memory(ProcessNumber),
}

/// What stands of one operation in one store.
#[derive(Debug, Clone, Default)]
struct Row {
    /// How many times its points were added here.
    grants: u32,
    /// Its receipt, by points, while it stands.
    receipt: Option<i32>,
    /// Its receipt was swept after its last grant: kept as long as promised.
    swept: bool,
    /// The attempt that wrote here last.
    last_writer: AttemptId,
}

/// The model's findings: the first attempt it blames for each broken promise,
/// and when
/// (in [`Invariant::ALL`]'s order), and what the tables should hold now.
#[derive(Debug, Default)]
struct Model {
    rows: BTreeMap<(Store, Operation), Row>,
    balances: BTreeMap<(Store, String), i64>,
    /// Every grant of each operation, in any store, in order.
    grants: BTreeMap<Operation, Vec<AttemptId>>,
    /// How many grants each purchase had, in any store: a purchase is an
    /// account and the key its first request was sent under (a fresh key adds
    /// `-fresh-N` to it; these histories type no such key by hand).
    paid: BTreeMap<Operation, u32>,
    blamed: [Option<(AttemptId, Millis)>; Invariant::COUNT],
    /// The time of the event being replayed.
    now: Millis,
}

impl Model {
    fn blame(&mut self, invariant: Invariant, attempt: AttemptId) {
        let slot = &mut self.blamed[invariant as usize];
        slot.get_or_insert((attempt, self.now));
    }

    fn grant(&mut self, attempt: AttemptId, store: Store, op: &Operation, points: i32) {
        let row = self.rows.entry((store, op.clone())).or_default();
        row.grants += 1;
        row.swept = false;
        row.last_writer = attempt;
        *self.balances.entry((store, op.0.clone())).or_default() += i64::from(points);
        let grants = self.grants.entry(op.clone()).or_default();
        grants.push(attempt);
        if grants.len() == 2 {
            self.blame(Invariant::AtMostOnce, attempt);
        }
        let stem = match op.1.rsplit_once("-fresh-") {
            Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
            _ => &op.1,
        };
        let paid = self
            .paid
            .entry((op.0.clone(), stem.to_owned()))
            .or_default();
        *paid += 1;
        if *paid == 2 {
            self.blame(Invariant::PaidOnce, attempt);
        }
    }

    fn receipt(&mut self, attempt: AttemptId, store: Store, op: &Operation, points: i32) {
        let row = self.rows.entry((store, op.clone())).or_default();
        row.receipt = Some(points);
        row.last_writer = attempt;
    }

    /// The world is between two writes: every operation in every store must
    /// have its points and its receipt together (a receipt the sweeper took
    /// after the last grant excused).
    fn look(&mut self) {
        let mut found = Vec::new();
        for row in self.rows.values() {
            if row.grants > 0 && row.receipt.is_none() && !row.swept {
                found.push((Invariant::GrantedHasReceipt, row.last_writer));
            }
            if row.receipt.is_some() && row.grants == 0 {
                found.push((Invariant::ReceiptHasGrant, row.last_writer));
            }
        }
        for (invariant, attempt) in found {
            self.blame(invariant, attempt);
        }
    }

    fn replay(log: &[Event]) -> Result<Self, TestCaseError> {
        let attempts = sent(log);
        let mut model = Model::default();
        for event in log {
            model.now = event.at;
            match &event.what {
                Happening::Store {
                    attempt,
                    durable,
                    step,
                } => {
                    let (op, points, process) = &attempts[attempt];
                    let store = if *durable {
                        Store::Durable
                    } else {
                        Store::Memory(*process)
                    };
                    match step {
                        StoreStep::Wrote(Table::Balance) => {
                            model.grant(*attempt, store, op, *points)
                        }
                        StoreStep::Wrote(Table::Receipt) => {
                            model.receipt(*attempt, store, op, *points)
                        }
                        StoreStep::WroteBoth | StoreStep::Committed => {
                            model.receipt(*attempt, store, op, *points);
                            model.grant(*attempt, store, op, *points);
                        }
                        // Staged writes are nobody's until commit; a conflict
                        // and a ledger recognition write nothing.
                        StoreStep::Staged(_)
                        | StoreStep::Conflict
                        | StoreStep::RecognisedByLedger => {}
                    }
                    // Mid-handling: the next write may come before anyone looks.
                    continue;
                }
                Happening::Expired {
                    account_id, key, ..
                } => {
                    let row = model
                        .rows
                        .get_mut(&(Store::Durable, (account_id.clone(), key.clone())));
                    prop_assert!(
                        row.as_ref().is_some_and(|r| r.receipt.is_some()),
                        "swept a receipt that does not stand: {} {}",
                        account_id,
                        key
                    );
                    let row = row.unwrap();
                    row.receipt = None;
                    row.swept = true;
                }
                Happening::ProcessEnded { process } => {
                    let gone = Store::Memory(*process);
                    model.rows.retain(|(store, _), _| *store != gone);
                    model.balances.retain(|(store, _), _| *store != gone);
                }
                _ => {}
            }
            model.look();
        }
        Ok(model)
    }

    /// The model's tables for `store`: balances by account, receipts' points by
    /// operation.
    fn tables(&self, store: Store) -> (Vec<(String, i32)>, BTreeMap<Operation, i32>) {
        let balances = self
            .balances
            .iter()
            .filter(|((s, _), _)| *s == store)
            .map(|((_, account), b)| (account.clone(), i32::try_from(*b).expect("fits")))
            .collect();
        let receipts = self
            .rows
            .iter()
            .filter(|((s, _), _)| *s == store)
            .filter_map(|((_, op), row)| row.receipt.map(|p| (op.clone(), p)))
            .collect();
        (balances, receipts)
    }
}

fn real_tables(
    balances: Vec<(String, i32)>,
    receipts: Vec<GrantResult>,
) -> (Vec<(String, i32)>, BTreeMap<Operation, i32>) {
    let mut balances = balances;
    balances.sort();
    let receipts = receipts
        .into_iter()
        .map(|r| ((r.account_id, r.key), r.points))
        .collect();
    (balances, receipts)
}

fn check_panel(lab: &Lab) -> Result<Model, TestCaseError> {
    let state = lab.state();
    let world = state.world();
    let log: Vec<Event> = world.events().to_vec();
    every_caller_hears_once(&log)?;
    let model = Model::replay(&log)?;

    // The model's tables are the real ones: the log told every write.
    let durable = world.durable_store();
    prop_assert_eq!(
        model.tables(Store::Durable),
        real_tables(durable.balances(), durable.receipts_page(usize::MAX).0)
    );
    for (op, grants) in &model.grants {
        let in_durable = model
            .rows
            .get(&(Store::Durable, op.clone()))
            .is_some_and(|r| r.grants > 0);
        prop_assert_eq!(durable.in_ledger(&op.0, &op.1), in_durable);
        prop_assert!(!grants.is_empty());
    }
    for (slot, number) in (1..).zip(world.process_numbers()) {
        let memory = world.memory_store(slot).expect("a running process");
        prop_assert_eq!(
            model.tables(Store::Memory(number)),
            real_tables(memory.balances(), memory.receipts()),
            "the memory of process {}",
            number
        );
    }

    // The panel says what the model found, and blames the same attempt.
    let panel = state.invariants();
    for invariant in Invariant::ALL {
        let blamed = model.blamed[invariant as usize];
        prop_assert_eq!(
            panel.holds(invariant),
            blamed.is_none(),
            "{:?}: the panel says {:?}, the model blames {:?}",
            invariant,
            panel.first_break(invariant),
            blamed
        );
        prop_assert_eq!(
            panel.first_break(invariant).map(|b| (b.attempt, b.at)),
            blamed
        );
    }
    Ok(model)
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn one_transaction_never_grants_twice_and_never_loses_a_commit(
        actions in transactional_history()
    ) {
        check_transactional(&run(&actions))?;
    }

    #[test]
    fn the_panel_reports_every_violation_of_every_store(actions in any_store_history()) {
        let lab = run(&actions);
        check_panel(&lab)?;
        // Crashes, two processes and expiries replay as they happened, byte for byte.
        let again = Lab::replay(lab.history()).expect("an accepted history replays");
        let log = |lab: &Lab| serde_json::to_string(&*lab.state().world().events()).unwrap();
        prop_assert_eq!(log(&again), log(&lab));
    }
}

/// The generators really make the situations the properties are about;
/// otherwise they could pass vacuously.
#[test]
fn generated_histories_cover_every_situation() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut count = |name: String| *seen.entry(name).or_default() += 1;
    for _ in 0..300 {
        let actions = transactional_history()
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let lab = run(&actions);
        for event in lab.state().world().events().iter() {
            match &event.what {
                Happening::Crashed { point, .. } => count(format!("a: crash {}", point.code())),
                Happening::Store {
                    step: StoreStep::Conflict,
                    ..
                } => count("a: conflict".into()),
                Happening::Handled {
                    store: Ok(StoreOutcome::Replayed(_)),
                    ..
                } => count("a: replayed".into()),
                Happening::ProcessStarted { slot: 2, .. } => count("a: two processes".into()),
                Happening::ClockMoved { .. } => count("a: clock moved".into()),
                _ => {}
            }
        }
    }
    for _ in 0..400 {
        let actions = any_store_history().new_tree(&mut runner).unwrap().current();
        let lab = run(&actions);
        let kind = match &actions[0] {
            Action::Set(Setting::Store(kind)) => kind.code(),
            _ => unreachable!(),
        };
        for invariant in Invariant::ALL {
            if !lab.state().invariants().holds(invariant) {
                count(format!("b: {kind} breaks {}", invariant.code()));
            }
        }
        for event in lab.state().world().events().iter() {
            match &event.what {
                Happening::Expired { .. } => count("b: expired".into()),
                Happening::Store {
                    step: StoreStep::RecognisedByLedger,
                    ..
                } => count("b: by ledger".into()),
                Happening::Crashed { point, .. } => count(format!("b: crash {}", point.code())),
                _ => {}
            }
        }
    }
    let mut wanted: Vec<String> = CrashPoint::ALL
        .iter()
        .flat_map(|p| {
            [
                format!("a: crash {}", p.code()),
                format!("b: crash {}", p.code()),
            ]
        })
        .collect();
    wanted.extend(
        [
            "a: conflict",
            "a: replayed",
            "a: two processes",
            "a: clock moved",
            "b: expired",
            "b: by ledger",
            "b: in-memory breaks at-most-once",
            "b: receipt-first breaks receipt-has-grant",
            "b: balance-first breaks at-most-once",
            "b: balance-first breaks granted-has-receipt",
        ]
        .map(String::from),
    );
    for name in wanted {
        assert!(
            seen.get(&name).copied().unwrap_or(0) >= 5,
            "{name}: {seen:#?}"
        );
    }
}
