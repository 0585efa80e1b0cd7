#![cfg(not(target_arch = "wasm32"))]
//! Property tests: random histories of grants, retries, changed payloads, invalid input,
//! near-overflow amounts and lost acknowledgements, run through a real `PointWorker` and
//! checked against an independent model.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll};

use futures::executor::LocalPool;
use futures::future::join_all;
use futures::task::{noop_waker_ref, LocalSpawnExt};
use idempotency_lab::core::natural_cmp;
use idempotency_lab::{GrantError, GrantPoints, GrantResult, PointStore, PointWorker};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const ACCOUNTS: [&str; 3] = ["alice", "bob", "carol"];
const MAX_HISTORY: usize = 40;

#[derive(Debug, Clone)]
enum Invalid {
    EmptyKey,
    BlankKey,
    EmptyAccount,
    BlankAccount,
    ZeroPoints,
    NegativePoints(i32),
}

#[derive(Debug, Clone)]
enum Op {
    /// A new operation: a key never used before.
    Fresh { account: usize, points: i32 },
    /// The very same request as an earlier step (same account, key and points).
    Retry { of: usize },
    /// An earlier step's account and key with other points.
    Changed { of: usize, delta: i32 },
    /// An earlier step's key and points on a (possibly) different account.
    OtherAccount { of: usize, account: usize },
    /// Input the store must refuse before looking at any state.
    Invalid { kind: Invalid, account: usize },
    /// A fresh key worth almost `i32::MAX` points.
    NearOverflow { account: usize, below_max: i32 },
}

#[derive(Debug, Clone)]
struct Step {
    op: Op,
    lose_ack: bool,
}

fn invalid() -> impl Strategy<Value = Invalid> {
    prop_oneof![
        Just(Invalid::EmptyKey),
        Just(Invalid::BlankKey),
        Just(Invalid::EmptyAccount),
        Just(Invalid::BlankAccount),
        Just(Invalid::ZeroPoints),
        (i32::MIN..0).prop_map(Invalid::NegativePoints),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let account = 0..ACCOUNTS.len();
    let op = prop_oneof![
        4 => (account.clone(), 1..=1_000i32)
            .prop_map(|(account, points)| Op::Fresh { account, points }),
        3 => any::<usize>().prop_map(|of| Op::Retry { of }),
        1 => (any::<usize>(), 1..=500i32).prop_map(|(of, delta)| Op::Changed { of, delta }),
        1 => (any::<usize>(), account.clone())
            .prop_map(|(of, account)| Op::OtherAccount { of, account }),
        1 => (invalid(), account.clone()).prop_map(|(kind, account)| Op::Invalid { kind, account }),
        1 => (account, 0..=2_000i32)
            .prop_map(|(account, below_max)| Op::NearOverflow { account, below_max }),
    ];
    (op, proptest::bool::weighted(0.25)).prop_map(|(op, lose_ack)| Step { op, lose_ack })
}

/// A history, and how many deliveries are in flight at once (1 = one after another).
fn history() -> impl Strategy<Value = (Vec<Step>, usize)> {
    (
        vec(step(), 0..=MAX_HISTORY),
        prop_oneof![Just(1usize), 2..=PointWorker::CAPACITY],
    )
}

/// Turns steps into concrete requests. Only depends on earlier requests, never on answers.
fn resolve(steps: &[Step]) -> Vec<(GrantPoints, bool)> {
    let mut requests: Vec<(GrantPoints, bool)> = Vec::with_capacity(steps.len());
    let mut fresh = 0;
    let mut fresh_key = || {
        fresh += 1;
        format!("op-{fresh}")
    };
    for step in steps {
        let earlier = |of: usize| {
            requests
                .get(of % requests.len().max(1))
                .map(|r| r.0.clone())
        };
        let grant = match &step.op {
            Op::Fresh { account, points } => {
                GrantPoints::new(fresh_key(), ACCOUNTS[*account], *points)
            }
            Op::Retry { of } => {
                earlier(*of).unwrap_or_else(|| GrantPoints::new(fresh_key(), ACCOUNTS[0], 1))
            }
            Op::Changed { of, delta } => match earlier(*of) {
                Some(base) => {
                    let points = if (1..=1_000_000).contains(&base.points) {
                        base.points + delta
                    } else {
                        *delta
                    };
                    GrantPoints { points, ..base }
                }
                None => GrantPoints::new(fresh_key(), ACCOUNTS[0], *delta),
            },
            Op::OtherAccount { of, account } => match earlier(*of) {
                Some(base) => GrantPoints {
                    account_id: ACCOUNTS[*account].to_owned(),
                    ..base
                },
                None => GrantPoints::new(fresh_key(), ACCOUNTS[*account], 1),
            },
            Op::Invalid { kind, account } => {
                let account = ACCOUNTS[*account];
                match kind {
                    Invalid::EmptyKey => GrantPoints::new("", account, 5),
                    Invalid::BlankKey => GrantPoints::new(" \t\n ", account, 5),
                    Invalid::EmptyAccount => GrantPoints::new(fresh_key(), "", 5),
                    Invalid::BlankAccount => GrantPoints::new(fresh_key(), "  ", 5),
                    Invalid::ZeroPoints => GrantPoints::new(fresh_key(), account, 0),
                    Invalid::NegativePoints(p) => GrantPoints::new(fresh_key(), account, *p),
                }
            }
            Op::NearOverflow { account, below_max } => {
                GrantPoints::new(fresh_key(), ACCOUNTS[*account], i32::MAX - below_max)
            }
        };
        requests.push((grant, step.lose_ack));
    }
    requests
}

/// The independent model: balances in `i64`, receipts keyed by (account, key).
#[derive(Debug, Default)]
struct Model {
    balances: BTreeMap<String, i64>,
    receipts: BTreeMap<(String, String), GrantResult>,
}

impl Model {
    /// What the caller should hear for this delivery, updating the model as the store should.
    fn deliver(&mut self, grant: &GrantPoints, lose_ack: bool) -> Result<GrantResult, GrantError> {
        if grant.key.trim().is_empty() {
            return Err(GrantError::EmptyKey);
        }
        if grant.account_id.trim().is_empty() {
            return Err(GrantError::EmptyAccount);
        }
        if grant.points < 1 {
            return Err(GrantError::NonPositivePoints);
        }
        let scoped = (grant.account_id.clone(), grant.key.clone());
        let receipt = match self.receipts.get(&scoped) {
            Some(stored) if stored.points != grant.points => {
                return Err(GrantError::PayloadMismatch {
                    stored: stored.clone(),
                    rejected: grant.clone(),
                });
            }
            Some(stored) => stored.clone(),
            None => {
                let balance = self.balances.get(&grant.account_id).copied().unwrap_or(0)
                    + i64::from(grant.points);
                if balance > i64::from(i32::MAX) {
                    return Err(GrantError::Overflow);
                }
                let receipt = GrantResult {
                    key: grant.key.clone(),
                    account_id: grant.account_id.clone(),
                    points: grant.points,
                    balance: balance as i32,
                };
                self.balances.insert(grant.account_id.clone(), balance);
                self.receipts.insert(scoped, receipt.clone());
                receipt
            }
        };
        if lose_ack {
            Err(GrantError::Timeout)
        } else {
            Ok(receipt)
        }
    }

    fn state(&self) -> State {
        (
            self.balances
                .iter()
                .map(|(account, balance)| (account.clone(), *balance as i32))
                .collect(),
            {
                // The store lists receipts as a person reads them: op-2 before op-10.
                let mut receipts: Vec<GrantResult> = self.receipts.values().cloned().collect();
                receipts.sort_by(|a, b| {
                    natural_cmp(&a.account_id, &b.account_id)
                        .then_with(|| natural_cmp(&a.key, &b.key))
                });
                receipts
            },
        )
    }
}

type State = (Vec<(String, i32)>, Vec<GrantResult>);

fn store_state(store: &PointStore) -> State {
    (store.balances(), store.receipts())
}

/// Checks the store against the model, and each balance against the sum of the distinct
/// grants accepted on that account.
fn check_state(store: &PointStore, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(store_state(store), model.state());
    for account in ACCOUNTS {
        let accepted: i64 = model
            .receipts
            .values()
            .filter(|r| r.account_id == account)
            .map(|r| i64::from(r.points))
            .sum();
        prop_assert_eq!(i64::from(store.balance(account)), accepted, "{}", account);
    }
    Ok(())
}

/// Checks one answer against the model's, and the idempotency rules it stands for.
fn check_answer(
    grant: &GrantPoints,
    answer: &Result<GrantResult, GrantError>,
    expected: &Result<GrantResult, GrantError>,
    first_receipt: Option<&GrantResult>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(answer, expected, "for {:?}", grant);
    // A retry of an applied operation hears the first receipt, never a new one.
    if let (Some(first), Ok(receipt)) = (first_receipt, answer) {
        prop_assert_eq!(receipt, first);
    }
    Ok(())
}

/// Alternates between polling `future` and running the pool's tasks (the consumer) until
/// the future is done. `None` if it stops making progress: an answer that never comes.
fn drive<F: Future>(pool: &mut LocalPool, future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(noop_waker_ref());
    for _ in 0..1_000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return Some(output);
        }
        pool.run_until_stalled();
    }
    None
}

fn run_history(steps: &[Step], in_flight: usize) -> Result<(), TestCaseError> {
    let requests = resolve(steps);
    let store = PointStore::new();
    let (worker, consumer) = PointWorker::new(store.clone());
    let mut pool = LocalPool::new();
    pool.spawner()
        .spawn_local(consumer)
        .expect("spawn the consumer");
    let mut model = Model::default();
    let answered = Cell::new(0usize);
    let process = |grant: GrantPoints, lose_ack: bool| {
        let worker = &worker;
        let answered = &answered;
        async move {
            let answer = worker.process(grant, lose_ack).await;
            answered.set(answered.get() + 1);
            answer
        }
    };

    for chunk in requests.chunks(in_flight) {
        let first_receipts: Vec<Option<GrantResult>> = chunk
            .iter()
            .map(|(g, _)| store.receipt(&g.account_id, &g.key))
            .collect();
        let before = store_state(&store);
        // Up to CAPACITY deliveries in flight at once: they all fit in the queue, so they
        // are taken in submission order.
        let answers = drive(
            &mut pool,
            join_all(chunk.iter().cloned().map(|(g, l)| process(g, l))),
        );
        let Some(answers) = answers else {
            return Err(TestCaseError::fail("a delivery was never answered"));
        };
        prop_assert_eq!(answers.len(), chunk.len());

        let mut rejected_only = true;
        for (((grant, lose_ack), answer), first) in chunk.iter().zip(&answers).zip(&first_receipts)
        {
            let expected = model.deliver(grant, *lose_ack);
            check_answer(grant, answer, &expected, first.as_ref())?;
            rejected_only &= matches!(answer, Err(e) if *e != GrantError::Timeout);
            // A lost acknowledgement never means the grant was not applied.
            if *answer == Err(GrantError::Timeout) {
                prop_assert!(store.receipt(&grant.account_id, &grant.key).is_some());
            }
        }
        // A rejection never changes state.
        if rejected_only {
            prop_assert_eq!(store_state(&store), before);
        }
        check_state(&store, &model)?;
    }
    // Every call was answered exactly once, and nothing is left behind.
    prop_assert_eq!(answered.get(), requests.len());
    prop_assert_eq!(worker.queued(), 0);

    prop_assert!(drive(&mut pool, worker.shutdown()).is_some());
    let after = drive(
        &mut pool,
        process(GrantPoints::new("after-shutdown", ACCOUNTS[0], 1), false),
    );
    prop_assert_eq!(after, Some(Err(GrantError::WorkerStopped)));
    check_state(&store, &model)
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn random_histories_through_the_worker_match_the_model((steps, in_flight) in history()) {
        run_history(&steps, in_flight)?;
    }
}

/// The generator really produces the situations the property is about; otherwise the
/// property could pass vacuously.
#[test]
fn generated_histories_cover_every_kind_of_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..300 {
        let (steps, _) = history().new_tree(&mut runner).unwrap().current();
        let mut model = Model::default();
        for (grant, lose_ack) in resolve(&steps) {
            let existed = model
                .receipts
                .contains_key(&(grant.account_id.clone(), grant.key.clone()));
            let name = match model.deliver(&grant, lose_ack) {
                Ok(_) if existed => "replayed",
                Ok(_) => "applied",
                Err(GrantError::Timeout) if existed => "replay-timeout",
                Err(GrantError::Timeout) => "applied-timeout",
                Err(e) => e.code(),
            };
            *seen.entry(name).or_default() += 1;
        }
    }
    for name in [
        "applied",
        "replayed",
        "applied-timeout",
        "replay-timeout",
        "payload-mismatch",
        "empty-key",
        "empty-account",
        "non-positive-points",
        "overflow",
    ] {
        assert!(
            seen.get(name).copied().unwrap_or(0) >= 5,
            "{name}: {seen:?}"
        );
    }
}
