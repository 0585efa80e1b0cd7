//! A durable store, simulated: what is committed outlives every process, what is
//! not is gone with the process that wrote it. Two tables, balances (with a
//! ledger row per granted operation) and receipts with a unique constraint on
//! (account, key), written in one of three orders.
//!
//! A real one would be a database: a unique index on (account, key) and one
//! transaction around both writes in SQL, or a conditional put in a key-value
//! store. Here the committed tables are the durable state; a transaction's
//! writes are only staged (nothing touches the tables) until commit makes both
//! at once under the tables' lock, so a crash before commit leaves nothing.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

use super::error::GrantError;
use super::first_receipts::FirstReceipts;
use super::grant::StoreOutcome;
use super::grant::{GrantPoints, GrantResult};
use super::natural_order::{natural_cmp, operation_order};
use super::pace::{CrashPoint, Pace, StoreStep, Table};
use super::store::validate;

/// The order in which the durable store makes a grant's two writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteOrder {
    /// The receipt, then the balance, each committed on its own.
    ReceiptFirst,
    /// The balance, then the receipt, each committed on its own.
    BalanceFirst,
    /// Both in one transaction; success is reported only after it commits.
    OneTransaction,
}

/// A receipt row: what the grant's receipt says, and when it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ReceiptRow {
    points: i32,
    balance: i32,
    written_at: u64,
}

/// A ledger row: the business record that an operation was granted. Unlike the
/// receipt it is never swept, so a late retry can still be recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LedgerRow {
    points: i32,
    balance: i32,
}

type Operation = (String, String);

#[derive(Debug, Default)]
struct Tables {
    balances: HashMap<String, i32>,
    receipts: HashMap<Operation, ReceiptRow>,
    /// Receipts by age, oldest first: the clock never goes back, so each new
    /// receipt is the youngest, and the sweeper only ever takes from the front.
    by_age: VecDeque<(u64, Operation)>,
    ledger: HashMap<Operation, LedgerRow>,
    first: FirstReceipts,
}

impl Tables {
    fn balance(&self, account: &str) -> i32 {
        self.balances.get(account).copied().unwrap_or(0)
    }

    /// What is committed for `grant`'s operation, if anything: its receipt, or,
    /// with `ledger_check`, its ledger row once the receipt is gone.
    fn find(&self, grant: &GrantPoints, ledger_check: bool) -> Option<(GrantResult, bool)> {
        let op = (grant.account_id.clone(), grant.key.clone());
        let result = |points, balance| GrantResult {
            key: grant.key.clone(),
            account_id: grant.account_id.clone(),
            points,
            balance,
        };
        if let Some(r) = self.receipts.get(&op) {
            return Some((result(r.points, r.balance), false));
        }
        if ledger_check {
            if let Some(l) = self.ledger.get(&op) {
                return Some((result(l.points, l.balance), true));
            }
        }
        None
    }

    /// Adds the points and the operation's ledger row; `None` on overflow.
    fn add_points(&mut self, grant: &GrantPoints) -> Option<i32> {
        let balance = self.balance(&grant.account_id).checked_add(grant.points)?;
        self.balances.insert(grant.account_id.clone(), balance);
        self.ledger.insert(
            (grant.account_id.clone(), grant.key.clone()),
            LedgerRow {
                points: grant.points,
                balance,
            },
        );
        Some(balance)
    }

    /// Inserts a receipt under the unique constraint: the receipt already there
    /// if another attempt wrote one first.
    fn insert_receipt(&mut self, grant: &GrantPoints, row: ReceiptRow) -> Result<(), GrantResult> {
        let op = (grant.account_id.clone(), grant.key.clone());
        if let Some(existing) = self.receipts.get(&op) {
            return Err(GrantResult {
                key: grant.key.clone(),
                account_id: grant.account_id.clone(),
                points: existing.points,
                balance: existing.balance,
            });
        }
        // At the back, unless a caller's clock ran backwards.
        let at = self.by_age.partition_point(|(t, _)| *t <= row.written_at);
        self.by_age.insert(at, (row.written_at, op.clone()));
        self.first.written(&op.0, &op.1);
        self.receipts.insert(op, row);
        Ok(())
    }
}

/// The durable store. `Clone` gives another handle to the same tables: every
/// process of the lab shares one.
#[derive(Debug, Clone, Default)]
pub struct DurableStore {
    tables: Arc<Mutex<Tables>>,
}

/// A stored receipt found where a new one was to go: the same points replay it,
/// other points are refused, as in the in-memory store.
fn replay_or_mismatch(
    stored: GrantResult,
    grant: &GrantPoints,
) -> Result<StoreOutcome, GrantError> {
    if stored.points != grant.points {
        Err(GrantError::PayloadMismatch {
            stored,
            rejected: grant.clone(),
        })
    } else {
        Ok(StoreOutcome::Replayed(stored))
    }
}

impl DurableStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Handles one grant in `order`. It reads what is committed first, then does
    /// its work, then writes: two attempts of one operation in flight at once can
    /// both find nothing, and only the unique constraint on receipts stops the
    /// second. With `ledger_check` a grant whose receipt has expired is still
    /// recognised from its ledger row.
    pub async fn apply_paced<P: Pace>(
        &self,
        order: WriteOrder,
        ledger_check: bool,
        grant: &GrantPoints,
        pace: &P,
    ) -> Result<StoreOutcome, GrantError> {
        validate(grant)?;
        if let Some((stored, by_ledger)) = self.lock().find(grant, ledger_check) {
            if by_ledger {
                pace.note(StoreStep::RecognisedByLedger, true);
            }
            return replay_or_mismatch(stored, grant);
        }
        pace.work().await;
        // Checked before any write: an overflow leaves every table untouched.
        let planned = self
            .lock()
            .balance(&grant.account_id)
            .checked_add(grant.points)
            .ok_or(GrantError::Overflow)?;
        pace.reach(CrashPoint::BeforeWrites).await;
        let receipt = |balance| ReceiptRow {
            points: grant.points,
            balance,
            written_at: pace.now(),
        };
        let applied = |balance| {
            Ok(StoreOutcome::Applied(GrantResult {
                key: grant.key.clone(),
                account_id: grant.account_id.clone(),
                points: grant.points,
                balance,
            }))
        };
        match order {
            WriteOrder::ReceiptFirst => {
                if let Err(stored) = self.lock().insert_receipt(grant, receipt(planned)) {
                    pace.note(StoreStep::Conflict, true);
                    return replay_or_mismatch(stored, grant);
                }
                pace.note(StoreStep::Wrote(Table::Receipt), true);
                pace.reach(CrashPoint::BetweenWrites).await;
                // The receipt promised `planned`; the balance is whatever it is now.
                self.lock().add_points(grant).ok_or(GrantError::Overflow)?;
                pace.note(StoreStep::Wrote(Table::Balance), true);
                pace.reach(CrashPoint::AfterCommit).await;
                applied(planned)
            }
            WriteOrder::BalanceFirst => {
                let balance = self.lock().add_points(grant).ok_or(GrantError::Overflow)?;
                pace.note(StoreStep::Wrote(Table::Balance), true);
                pace.reach(CrashPoint::BetweenWrites).await;
                if let Err(stored) = self.lock().insert_receipt(grant, receipt(balance)) {
                    // The points stay added: nothing takes a committed write back.
                    pace.note(StoreStep::Conflict, true);
                    return replay_or_mismatch(stored, grant);
                }
                pace.note(StoreStep::Wrote(Table::Receipt), true);
                pace.reach(CrashPoint::AfterCommit).await;
                applied(balance)
            }
            WriteOrder::OneTransaction => {
                // The transaction's writes live only here until commit; a crash
                // drops this future, and them with it.
                pace.note(StoreStep::Staged(Table::Balance), true);
                pace.reach(CrashPoint::BetweenWrites).await;
                pace.note(StoreStep::Staged(Table::Receipt), true);
                let balance = match self.commit(grant, pace.now())? {
                    Ok(balance) => balance,
                    Err(stored) => {
                        pace.note(StoreStep::Conflict, true);
                        return replay_or_mismatch(stored, grant);
                    }
                };
                pace.note(StoreStep::Committed, true);
                pace.reach(CrashPoint::AfterCommit).await;
                applied(balance)
            }
        }
    }

    /// Commits a transaction's two writes at once, or neither: the balance, or
    /// the receipt another attempt committed first (the unique constraint).
    fn commit(
        &self,
        grant: &GrantPoints,
        now: u64,
    ) -> Result<Result<i32, GrantResult>, GrantError> {
        let mut tables = self.lock();
        if let Some((stored, _)) = tables.find(grant, false) {
            return Ok(Err(stored));
        }
        let balance = tables.add_points(grant).ok_or(GrantError::Overflow)?;
        let row = ReceiptRow {
            points: grant.points,
            balance,
            written_at: now,
        };
        tables
            .insert_receipt(grant, row)
            .expect("no receipt was found under the same lock");
        Ok(Ok(balance))
    }

    /// The committed balance: 0 for an unknown account.
    pub fn balance(&self, account_id: &str) -> i32 {
        self.lock().balance(account_id)
    }

    /// The committed receipt for (account, key), if there is one.
    pub fn receipt(&self, account_id: &str, key: &str) -> Option<GrantResult> {
        let tables = self.lock();
        let row = tables
            .receipts
            .get(&(account_id.to_owned(), key.to_owned()))?;
        Some(GrantResult {
            key: key.to_owned(),
            account_id: account_id.to_owned(),
            points: row.points,
            balance: row.balance,
        })
    }

    /// Whether the ledger records (account, key) as granted.
    pub fn in_ledger(&self, account_id: &str, key: &str) -> bool {
        self.lock()
            .ledger
            .contains_key(&(account_id.to_owned(), key.to_owned()))
    }

    /// Every committed balance, ordered by account.
    pub fn balances(&self) -> Vec<(String, i32)> {
        let mut all: Vec<(String, i32)> = self
            .lock()
            .balances
            .iter()
            .map(|(a, b)| (a.clone(), *b))
            .collect();
        all.sort_unstable_by(|a, b| natural_cmp(&a.0, &b.0));
        all
    }

    /// The first `limit` receipts in (account, key) order, and how many there are.
    pub fn receipts_page(&self, limit: usize) -> (Vec<GrantResult>, usize) {
        let mut tables = self.lock();
        let Tables {
            receipts, first, ..
        } = &mut *tables;
        let all = || {
            receipts
                .keys()
                .map(|(a, k)| (a.as_str(), k.as_str()))
                .collect::<Vec<_>>()
        };
        let receipt = |(account, key): (&str, &str)| {
            let r = &receipts[&(account.to_owned(), key.to_owned())];
            GrantResult {
                key: key.to_owned(),
                account_id: account.to_owned(),
                points: r.points,
                balance: r.balance,
            }
        };
        let page = first.page(limit, all, receipt);
        (page, receipts.len())
    }

    /// When the oldest receipt was written, if any is stored: the sweeper's next date.
    pub fn oldest_receipt(&self) -> Option<u64> {
        self.lock().by_age.front().map(|(at, _)| *at)
    }

    /// Deletes every receipt written at or before `cutoff` and returns their
    /// operations, in (account, key) order. Balances and ledger rows stay.
    pub fn sweep(&self, cutoff: u64) -> Vec<(String, String)> {
        let mut tables = self.lock();
        let mut gone: Vec<Operation> = Vec::new();
        while tables.by_age.front().is_some_and(|(at, _)| *at <= cutoff) {
            let (_, op) = tables.by_age.pop_front().expect("checked above");
            tables.receipts.remove(&op);
            tables.first.deleted(&op.0, &op.1);
            gone.push(op);
        }
        gone.sort_unstable_by(|a, b| operation_order((&a.0, &a.1), (&b.0, &b.1)));
        gone
    }

    fn lock(&self) -> MutexGuard<'_, Tables> {
        // Every path checks before it writes, so a poisoned lock still guards whole data.
        self.tables
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
