//! `PointStore`: balances and receipts behind one lock.

use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap as HashMap;

use super::error::GrantError;
use super::first_receipts::FirstReceipts;
use super::grant::{GrantPoints, GrantResult, StoreOutcome};
use super::natural_order::natural_cmp;
use super::pace::{CrashPoint, GrantStore, Pace, StoreStep};

/// One account's state. Receipts live under their account, so a key is scoped to
/// the account and a lookup needs no new string.
#[derive(Debug, Default)]
struct Account {
    balance: i32,
    /// Key -> what its receipt says. Key and account are already the map keys,
    /// so only the numbers are kept; a `GrantResult` is rebuilt when asked for.
    receipts: HashMap<String, StoredReceipt>,
}

#[derive(Debug, Clone, Copy)]
struct StoredReceipt {
    points: i32,
    balance: i32,
}

impl StoredReceipt {
    fn to_result(self, account_id: &str, key: &str) -> GrantResult {
        GrantResult {
            key: key.to_owned(),
            account_id: account_id.to_owned(),
            points: self.points,
            balance: self.balance,
        }
    }
}

#[derive(Debug, Default)]
struct Ledger {
    accounts: HashMap<String, Account>,
    /// How many receipts all accounts hold.
    receipts: usize,
    first: FirstReceipts,
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
        let account = ledger.accounts.get(&grant.account_id);
        if let Some(stored) = account.and_then(|a| a.receipts.get(&grant.key)) {
            let stored = stored.to_result(&grant.account_id, &grant.key);
            if stored.points != grant.points {
                return Err(GrantError::PayloadMismatch {
                    stored,
                    rejected: grant.clone(),
                });
            }
            return Ok(StoreOutcome::Replayed(stored));
        }
        let current = account.map_or(0, |a| a.balance);
        // Checked before any write: an overflow leaves balance and receipts untouched.
        let balance = current
            .checked_add(grant.points)
            .ok_or(GrantError::Overflow)?;
        let stored = StoredReceipt {
            points: grant.points,
            balance,
        };
        let account = match ledger.accounts.get_mut(&grant.account_id) {
            Some(account) => account,
            None => ledger.accounts.entry(grant.account_id.clone()).or_default(),
        };
        account.balance = balance;
        account.receipts.insert(grant.key.clone(), stored);
        ledger.receipts += 1;
        ledger.first.written(&grant.account_id, &grant.key);
        Ok(StoreOutcome::Applied(
            stored.to_result(&grant.account_id, &grant.key),
        ))
    }

    /// The current balance: a separate read, never taken from a receipt. 0 for an unknown account.
    pub fn balance(&self, account_id: &str) -> i32 {
        self.lock()
            .accounts
            .get(account_id)
            .map_or(0, |a| a.balance)
    }

    /// The stored receipt for (account, key), if that grant was applied.
    pub fn receipt(&self, account_id: &str, key: &str) -> Option<GrantResult> {
        self.lock()
            .accounts
            .get(account_id)?
            .receipts
            .get(key)
            .map(|r| r.to_result(account_id, key))
    }

    /// Whether (account, key) has a receipt, without building it.
    fn has_receipt(&self, account_id: &str, key: &str) -> bool {
        self.lock()
            .accounts
            .get(account_id)
            .is_some_and(|a| a.receipts.contains_key(key))
    }

    /// Every balance, ordered by account, for display. A sorted `Vec` rather than a
    /// `BTreeMap`: the page needs only the order, and the map costs 3 KB of Wasm.
    pub fn balances(&self) -> Vec<(String, i32)> {
        let mut all: Vec<(String, i32)> = self
            .lock()
            .accounts
            .iter()
            .map(|(id, a)| (id.clone(), a.balance))
            .collect();
        // As the durable store orders them: as a person reads the names.
        all.sort_unstable_by(|a, b| natural_cmp(&a.0, &b.0));
        all
    }

    /// Every receipt, ordered by (account, key) as a person reads them, for display.
    pub fn receipts(&self) -> Vec<GrantResult> {
        self.receipts_page(usize::MAX).0
    }

    /// The first `limit` receipts in (account, key) order, and how many there are in
    /// all: for a display that shows a page of a large table without copying it.
    /// Numbers inside names count as numbers: `burst-2` comes before `burst-10`.
    pub fn receipts_page(&self, limit: usize) -> (Vec<GrantResult>, usize) {
        let mut ledger = self.lock();
        let Ledger {
            accounts,
            receipts: total,
            first,
        } = &mut *ledger;
        let all = || {
            accounts
                .iter()
                .flat_map(|(id, a)| {
                    a.receipts
                        .keys()
                        .map(move |key| (id.as_str(), key.as_str()))
                })
                .collect::<Vec<_>>()
        };
        let receipt = |(id, key): (&str, &str)| accounts[id].receipts[key].to_result(id, key);
        let page = first.page(limit, all, receipt);
        (page, *total)
    }

    fn lock(&self) -> MutexGuard<'_, Ledger> {
        // A panic while holding the lock cannot leave the ledger half-written:
        // every path above checks before it writes, so the data is still whole.
        self.ledger
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The article's store behind the worker. It keeps everything in memory and
/// makes both writes in one step under its lock, so a crash "between the two
/// writes" can only come after both, and a restart forgets them all anyway.
impl GrantStore for PointStore {
    async fn apply_paced<P: Pace>(
        &self,
        grant: &GrantPoints,
        pace: &P,
    ) -> Result<StoreOutcome, GrantError> {
        pace.work().await;
        // Crash points lie on the path that writes: a first grant, not a replay
        // or a refusal.
        let writes = validate(grant).is_ok() && !self.has_receipt(&grant.account_id, &grant.key);
        if writes {
            pace.reach(CrashPoint::BeforeWrites).await;
        }
        let outcome = self.apply_detailed(grant);
        if let Ok(StoreOutcome::Applied(_)) = outcome {
            pace.note(StoreStep::WroteBoth, false);
            pace.reach(CrashPoint::BetweenWrites).await;
            pace.reach(CrashPoint::AfterCommit).await;
        }
        outcome
    }
}

/// Checks that need no state. These errors are final: a retry cannot fix them.
pub(crate) fn validate(grant: &GrantPoints) -> Result<(), GrantError> {
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
