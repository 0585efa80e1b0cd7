//! Which timeline row a store's receipt leads to: the picture's receipts are
//! links into the history, as its callers and tokens are.

use crate::core::StoreOutcome;
use crate::sim::{AttemptId, ProcessNumber};

use super::state::LabState;

impl LabState {
    /// The attempt that wrote the receipt of (`account`, `key`) in a store: in
    /// `process`'s memory, or in the durable store shared by every process
    /// (`None`). The newest attempt whose store applied the operation; where
    /// none did (a crash between the receipt and the balance), the newest
    /// attempt of the operation that store could have seen.
    pub fn receipt_row(
        &self,
        process: Option<ProcessNumber>,
        account: &str,
        key: &str,
    ) -> Option<AttemptId> {
        let of_operation = |row: &&super::AttemptRow| {
            row.attempt.grant.account_id == account
                && row.attempt.grant.key == key
                && process.is_none_or(|p| row.attempt.process == p)
        };
        let rows = self.timeline();
        rows.iter()
            .rev()
            .filter(of_operation)
            .find(|row| {
                matches!(
                    row.handled.as_ref().map(|h| &h.store),
                    Some(Ok(StoreOutcome::Applied(_)))
                )
            })
            .or_else(|| rows.iter().rev().find(of_operation))
            .map(|row| row.attempt.id)
    }

    /// The operation (account, key) an attempt belongs to: the receipt its row
    /// stands for in the picture.
    pub fn operation_of(&self, attempt: AttemptId) -> Option<(String, String)> {
        self.attempt_by_id(attempt)
            .map(|a| (a.grant.account_id.clone(), a.grant.key.clone()))
    }
}
