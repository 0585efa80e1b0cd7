//! A key is not a credential: signed in, a caller acts on its own account only.
//! A request naming another account's key neither reads that account's receipt
//! nor changes its balance; the lab says what a trusting store would have leaked.

mod common;

use common::{idle, lab_of, row, send};
use idempotency_lab::lab::{Action, LabError, Outcome};
use idempotency_lab::sim::Happening;
use idempotency_lab::{GrantError, GrantPoints};

fn sign_in(account: &str) -> Action {
    Action::SignIn {
        account_id: Some(account.into()),
    }
}

fn send_for(account: &str, key: &str) -> Action {
    Action::Send {
        grant: GrantPoints::new(key, account, 100),
        lose_acknowledgement: false,
    }
}

#[test]
fn another_accounts_key_reads_no_receipt_and_changes_no_balance() {
    let mut lab = idle(lab_of(&[send("order-1042", 100)]));
    lab.dispatch(sign_in("account-8")).unwrap();
    lab.dispatch(send("order-1042", 100)).unwrap();
    let lab = idle(lab);
    let refused = row(&lab, 2);
    assert_eq!(
        refused.caller,
        Some(Err(GrantError::Forbidden {
            signed_in: "account-8".into(),
            named: "account-7".into(),
        }))
    );
    assert_eq!(refused.outcome(), Outcome::Forbidden);
    assert!(refused.never_handled && refused.handled.is_none());
    assert_eq!(refused.caller_receipt(), None, "no receipt read");
    // What a store that trusted the request would have handed over.
    let leak = refused.forbidden.as_ref().unwrap().leak.as_ref().unwrap();
    assert_eq!(
        (leak.account_id.as_str(), leak.points, leak.balance),
        ("account-7", 100, 100)
    );
    assert_eq!(lab.state().store().balance("account-7"), 100);
    assert_eq!(lab.state().store().balance("account-8"), 0);
    // The store was never asked.
    assert!(lab.state().world().events().iter().all(|e| !matches!(
        e.what,
        Happening::Taken { attempt: 2 } | Happening::Queued { attempt: 2 }
    )));
}

#[test]
fn with_no_receipt_stored_the_leak_would_have_been_a_grant() {
    let lab = idle(lab_of(&[sign_in("account-8"), send("order-2000", 100)]));
    let refused = row(&lab, 1);
    assert_eq!(refused.outcome(), Outcome::Forbidden);
    assert_eq!(refused.forbidden.as_ref().unwrap().leak, None);
    assert_eq!(lab.state().store().balance("account-7"), 0);
}

#[test]
fn the_signed_in_account_goes_through_and_signing_out_trusts_the_request_again() {
    let mut lab = idle(lab_of(&[
        sign_in("account-8"),
        send_for("account-8", "order-1"),
    ]));
    assert_eq!(row(&lab, 1).outcome(), Outcome::Applied);
    assert_eq!(lab.state().signed_in().as_deref(), Some("account-8"));
    lab.dispatch(Action::SignIn { account_id: None }).unwrap();
    lab.dispatch(send("order-2", 100)).unwrap();
    let lab = idle(lab);
    assert_eq!(row(&lab, 2).outcome(), Outcome::Applied);
    assert_eq!(lab.state().signed_in(), None);
}

#[test]
fn a_refused_request_is_not_what_retry_resends() {
    let lab = idle(lab_of(&[
        send_for("account-8", "order-1"),
        sign_in("account-8"),
        send("order-1042", 100),
    ]));
    let target = lab.state().retry_target().unwrap();
    assert_eq!(target.account_id, "account-8");
}

#[test]
fn an_account_the_form_would_refuse_cannot_sign_in() {
    let mut lab = idempotency_lab::lab::Lab::new();
    for account in ["", " account-7", "account-7 "] {
        assert!(matches!(
            lab.dispatch(sign_in(account)),
            Err(LabError::Account(_))
        ));
    }
    assert!(lab.history().actions.is_empty());
    let json = serde_json::to_string(&sign_in("account-8")).unwrap();
    assert_eq!(json, r#"{"sign-in":{"account_id":"account-8"}}"#);
}

/// A balance read is a request too: signed in as one account, a read of another
/// is refused (recorded, with why), and the account's balance is not shown.
#[test]
fn a_balance_read_of_another_account_is_refused() {
    let mut lab = idle(lab_of(&[send("order-1042", 100)]));
    lab.dispatch(sign_in("account-8")).unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "account-7".into(),
    })
    .unwrap();
    let read = lab.state().last_read().unwrap();
    assert_eq!(read.account_id, "account-7");
    assert_eq!(
        read.balance,
        Err(GrantError::Forbidden {
            signed_in: "account-8".into(),
            named: "account-7".into(),
        })
    );
    // Its own account reads as ever; signed out, the request is trusted again.
    lab.dispatch(Action::CheckBalance {
        account_id: "account-8".into(),
    })
    .unwrap();
    assert_eq!(lab.state().last_read().unwrap().balance, Ok(0));
    lab.dispatch(Action::SignIn { account_id: None }).unwrap();
    lab.dispatch(Action::CheckBalance {
        account_id: "account-7".into(),
    })
    .unwrap();
    assert_eq!(lab.state().last_read().unwrap().balance, Ok(100));
}
