//! A key is not a credential. Whoever is signed in says which account a request
//! acts on; the request may name an account, but a store that believed it would
//! let anyone who guessed another account's key read that account's receipt,
//! or add to its balance. The check is made before the store is asked.

use super::error::GrantError;
use super::grant::GrantPoints;

/// Refuses `grant` unless it acts on the account of whoever is signed in.
/// Nobody signed in means the request's account is trusted as named.
pub fn authorize(signed_in: Option<&str>, grant: &GrantPoints) -> Result<(), GrantError> {
    authorize_account(signed_in, &grant.account_id)
}

/// Refuses any request (a grant, a balance read) that acts on `account_id`
/// unless it is the account of whoever is signed in.
pub fn authorize_account(signed_in: Option<&str>, account_id: &str) -> Result<(), GrantError> {
    match signed_in {
        Some(account) if account != account_id => Err(GrantError::Forbidden {
            signed_in: account.to_owned(),
            named: account_id.to_owned(),
        }),
        _ => Ok(()),
    }
}
