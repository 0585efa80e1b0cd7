//! A side effect outside the store: the confirmation email. Sent inline, a
//! retry sends it again; through an outbox written with the grant and relayed
//! with the operation's id, the customer gets one email, even when the relay
//! delivers twice or the process crashes after the commit.

mod common;

use common::{idle, lab_of, retry};
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Action, Lab, MarkerKind, Setting};
use idempotency_lab::sim::StoreKind;
use idempotency_lab::{CrashPoint, EmailVia, GrantPoints};

/// Emails on, through `via`; a grant whose acknowledgement is lost, then a retry.
fn lost_ack_then_retry(via: EmailVia, setup: &[Action]) -> Lab {
    let mut actions = vec![
        Action::Set(Setting::Email(true)),
        Action::Set(Setting::EmailVia(via)),
    ];
    actions.extend_from_slice(setup);
    actions.push(Action::Send {
        grant: GrantPoints::new("order-1042", "account-7", 100),
        lose_acknowledgement: true,
    });
    let mut lab = idle(lab_of(&actions));
    lab.dispatch(retry()).unwrap();
    idle(lab)
}

fn inbox(lab: &Lab) -> (Vec<String>, usize) {
    let (emails, dropped) = lab.state().world().inbox();
    (emails.into_iter().map(|e| e.key).collect(), dropped)
}

#[test]
fn inline_a_retry_sends_the_email_again() {
    let lab = lost_ack_then_retry(EmailVia::Inline, &[]);
    assert_eq!(
        inbox(&lab),
        (vec!["order-1042".into(), "order-1042".into()], 0)
    );
    assert_eq!(
        lab.state().store().balance("account-7"),
        100,
        "granted once"
    );
    // A page of the newest, and the count of all.
    let world = lab.state().world();
    assert_eq!(world.inbox_newest(1).0.len(), 1);
    assert_eq!(world.inbox_newest(5).0.len(), 2);
    assert_eq!(world.inbox_len(), 2);
}

#[test]
fn through_the_outbox_the_customer_gets_one_email() {
    let lab = lost_ack_then_retry(EmailVia::Outbox, &[]);
    // One row, relayed twice; the service dropped the copy by operation id.
    assert_eq!(inbox(&lab), (vec!["order-1042".into()], 1));
    assert_eq!(lab.state().world().outbox_pending(), 0);
    // The timeline says each delivery in words: one in the inbox, one dropped.
    let said: Vec<(bool, String, String)> = lab
        .state()
        .markers()
        .iter()
        .filter_map(|m| match m.kind {
            MarkerKind::Email { delivered, .. } => Some((
                delivered,
                Lang::En.texts().marker_text(m),
                Lang::Fa.texts().marker_text(m),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 2);
    assert!(said[0].0 && said[0].1.contains("in the inbox"));
    assert!(!said[1].0 && said[1].1.contains("dropped the copy"));
    assert!(said[1].2.contains("کنار گذاشت"));
}

#[test]
fn a_crash_after_the_commit_loses_the_inline_email_but_not_the_outbox_row() {
    let crash = [
        Action::Set(Setting::Store(StoreKind::OneTransaction)),
        Action::SetCrashPoint {
            point: Some(CrashPoint::AfterCommit),
        },
    ];
    // Inline: the crash came before the send; the retry's replay sends it.
    let inline = lost_ack_then_retry(EmailVia::Inline, &crash);
    assert_eq!(inbox(&inline).0.len(), 1);
    // The outbox row was committed with the points: sent once, whatever follows.
    let outbox = lost_ack_then_retry(EmailVia::Outbox, &crash);
    assert_eq!(inbox(&outbox).0, vec!["order-1042".to_string()]);
}

#[test]
fn a_grant_made_twice_writes_two_rows_and_the_service_keeps_one_email() {
    let lab = lost_ack_then_retry(
        EmailVia::Outbox,
        &[
            Action::Set(Setting::Store(StoreKind::BalanceFirst)),
            Action::SetCrashPoint {
                point: Some(CrashPoint::BetweenWrites),
            },
        ],
    );
    assert_eq!(
        lab.state().store().balance("account-7"),
        200,
        "granted twice"
    );
    assert_eq!(inbox(&lab), (vec!["order-1042".into()], 3));
}

#[test]
fn with_emails_off_nothing_is_sent_and_the_settings_are_part_of_the_history() {
    let lab = idle(lab_of(&[
        Action::Set(Setting::EmailVia(EmailVia::Outbox)),
        common::send("order-1042", 100),
    ]));
    assert_eq!(inbox(&lab), (vec![], 0));
    let settings = lab.state().settings();
    assert_eq!(
        (settings.email, settings.email_via),
        (false, EmailVia::Outbox)
    );
    let json = serde_json::to_string(&[
        Action::Set(Setting::Email(true)),
        Action::Set(Setting::EmailVia(EmailVia::Outbox)),
    ])
    .unwrap();
    assert_eq!(
        json,
        r#"[{"set":{"email":true}},{"set":{"email-via":"outbox"}}]"#
    );
    for via in EmailVia::ALL {
        assert_eq!(EmailVia::from_code(via.code()), Some(via));
    }
}
