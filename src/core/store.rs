//! `PointStore`: balances and receipts behind one lock.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use super::error::GrantError;
use super::grant::{GrantPoints, GrantResult};

/// What the store did with a grant, as opposed to what the caller eventually hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOutcome {
    /// First time this (account, key) was seen: points added, receipt stored.
    Applied(GrantResult),
    /// A repeat of a grant already applied: the stored receipt, nothing changed.
    Replayed(GrantResult),
}

impl StoreOutcome {
    pub fn receipt(&self) -> &GrantResult {
        match self {
            StoreOutcome::Applied(r) | StoreOutcome::Replayed(r) => r,
        }
    }

    pub fn into_receipt(self) -> GrantResult {
        match self {
            StoreOutcome::Applied(r) | StoreOutcome::Replayed(r) => r,
        }
    }
}

/// Receipts are scoped to the account: the same key under two accounts is two operations.
type ScopedKey = (String, String);

#[derive(Debug, Default)]
struct Ledger {
    balances: HashMap<String, i32>,
    receipts: HashMap<ScopedKey, GrantResult>,
}

/// The points store. `Clone` gives another handle to the *same* store, as the
/// article requires: every caller must share one instance for the lock to mean anything.
#[derive(Debug, Clone, Default)]
pub struct PointStore {
    ledger: Arc<Mutex<Ledger>>,
}

impl PointStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies a grant at most once per (account, key) and returns its receipt.
    pub fn apply(&self, grant: &GrantPoints) -> Result<GrantResult, GrantError> {
        self.apply_detailed(grant).map(StoreOutcome::into_receipt)
    }

    /// Like [`apply`](Self::apply), but also says whether this call changed anything.
    pub fn apply_detailed(&self, grant: &GrantPoints) -> Result<StoreOutcome, GrantError> {
        validate(grant)?;
        // One critical section spans the lookup, the balance change and the receipt,
        // so two concurrent callers with the same key cannot both miss the receipt.
        let mut ledger = self.lock();
        let scoped = (grant.account_id.clone(), grant.key.clone());
        if let Some(stored) = ledger.receipts.get(&scoped) {
            if stored.points != grant.points {
                return Err(GrantError::PayloadMismatch {
                    stored: stored.clone(),
                    rejected: grant.clone(),
                });
            }
            return Ok(StoreOutcome::Replayed(stored.clone()));
        }
        let current = ledger.balances.get(&grant.account_id).copied().unwrap_or(0);
        // Checked before any write: an overflow leaves balance and receipts untouched.
        let balance = current
            .checked_add(grant.points)
            .ok_or(GrantError::Overflow)?;
        let receipt = GrantResult {
            key: grant.key.clone(),
            account_id: grant.account_id.clone(),
            points: grant.points,
            balance,
        };
        ledger.balances.insert(grant.account_id.clone(), balance);
        ledger.receipts.insert(scoped, receipt.clone());
        Ok(StoreOutcome::Applied(receipt))
    }

    /// The current balance: a separate read, never taken from a receipt. 0 for an unknown account.
    pub fn balance(&self, account_id: &str) -> i32 {
        self.lock().balances.get(account_id).copied().unwrap_or(0)
    }

    /// The stored receipt for (account, key), if that grant was applied.
    pub fn receipt(&self, account_id: &str, key: &str) -> Option<GrantResult> {
        self.lock()
            .receipts
            .get(&(account_id.to_owned(), key.to_owned()))
            .cloned()
    }

    /// Every balance, ordered by account, for display.
    pub fn balances(&self) -> BTreeMap<String, i32> {
        self.lock()
            .balances
            .iter()
            .map(|(a, b)| (a.clone(), *b))
            .collect()
    }

    /// Every receipt, ordered by (account, key), for display.
    pub fn receipts(&self) -> Vec<GrantResult> {
        let ledger = self.lock();
        let mut all: Vec<GrantResult> = ledger.receipts.values().cloned().collect();
        all.sort_by(|a, b| (&a.account_id, &a.key).cmp(&(&b.account_id, &b.key)));
        all
    }

    fn lock(&self) -> MutexGuard<'_, Ledger> {
        // A panic while holding the lock cannot leave the ledger half-written:
        // every path above checks before it writes, so the data is still whole.
        self.ledger
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Checks that need no state. These errors are final: a retry cannot fix them.
fn validate(grant: &GrantPoints) -> Result<(), GrantError> {
    if grant.key.trim().is_empty() {
        return Err(GrantError::EmptyKey);
    }
    if grant.account_id.trim().is_empty() {
        return Err(GrantError::EmptyAccount);
    }
    if grant.points <= 0 {
        return Err(GrantError::NonPositivePoints);
    }
    Ok(())
}
