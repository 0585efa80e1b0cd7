#![cfg(not(target_arch = "wasm32"))]
//! The world's settings as one value: each change sets its own field and no
//! other, the rule for allowed values sits at its edges, and a change reaches
//! the world through `configure` alone.

use idempotency_lab::core::MAX_ATTEMPTS;
use idempotency_lab::lab::{Action, Lab, LabError};
use idempotency_lab::sim::{
    Acknowledge, Routing, Setting, SettingError, Settings, StoreKind, World, HOUR_MS,
    MAX_PROCESSES, MAX_RETENTION_HOURS, MAX_SETTING_MS,
};
use idempotency_lab::{EmailVia, InFlightPolicy, RetryPolicy};

/// One change of every setting, each to a value other than its start value.
fn one_of_each() -> Vec<Setting> {
    vec![
        Setting::Paused(true),
        Setting::CallerTimeoutMs(700),
        Setting::ProcessingMs(30),
        Setting::Naive(true),
        Setting::Store(StoreKind::OneTransaction),
        Setting::Processes(2),
        Setting::Routing(Routing::KeyHash),
        Setting::RetentionHours(5),
        Setting::LedgerCheck(true),
        Setting::InFlight(InFlightPolicy::Wait),
        Setting::Acknowledge(Acknowledge::AfterWork),
        Setting::AutoRetry(Some(RetryPolicy {
            max_attempts: 4,
            seed: 9,
        })),
        Setting::Email(true),
        Setting::EmailVia(EmailVia::Outbox),
    ]
}

#[test]
fn the_start_values_are_the_articles() {
    let start = Settings::default();
    assert!(!start.paused && !start.naive && !start.ledger_check && !start.email);
    assert_eq!((start.caller_timeout_ms, start.processing_ms), (3_000, 100));
    assert_eq!((start.processes, start.retention_hours), (1, 24));
    assert_eq!(start.retention_ms(), 24 * HOUR_MS);
    assert_eq!(start.store, StoreKind::InMemory);
    assert_eq!(start.auto_retry, None);
    assert_eq!(start.email_through(), None);
    assert!(!start.keeps_records());
    assert_eq!(start.validate(), Ok(()));
    assert_eq!(World::new().settings(), start);
}

#[test]
fn each_change_sets_its_own_setting_and_no_other() {
    let start = Settings::default();
    let changes = one_of_each();
    for (i, change) in changes.iter().enumerate() {
        let changed = start.with(*change);
        assert_ne!(changed, start, "{change:?} changes something");
        // Every other change, applied on top, leaves this one in place.
        let all_but = changes
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .fold(start, |s, (_, c)| s.with(*c));
        let all = all_but.with(*change);
        assert_eq!(
            all_but.with(*change).with(*change),
            all,
            "{change:?} twice is once"
        );
        assert_ne!(
            all_but, all,
            "{change:?} is the only one that sets its field"
        );
    }
    let all = changes.iter().fold(start, |s, c| s.with(*c));
    assert_eq!(all.validate(), Ok(()));
    assert_eq!(all.email_through(), Some(EmailVia::Outbox));
    assert!(all.keeps_records());
    assert_eq!(all.retention_ms(), 5 * HOUR_MS);
}

#[test]
fn values_at_the_edges_are_allowed_and_beyond_them_refused() {
    let s = Settings::default();
    let ok = |c: Setting| assert_eq!(s.with(c).validate(), Ok(()), "{c:?}");
    let refused = |c: Setting, e: SettingError| assert_eq!(s.with(c).validate(), Err(e), "{c:?}");
    ok(Setting::CallerTimeoutMs(1));
    ok(Setting::CallerTimeoutMs(MAX_SETTING_MS));
    refused(Setting::CallerTimeoutMs(0), SettingError::CallerTimeout(0));
    refused(
        Setting::CallerTimeoutMs(MAX_SETTING_MS + 1),
        SettingError::CallerTimeout(MAX_SETTING_MS + 1),
    );
    ok(Setting::ProcessingMs(0));
    ok(Setting::ProcessingMs(MAX_SETTING_MS));
    refused(
        Setting::ProcessingMs(MAX_SETTING_MS + 1),
        SettingError::ProcessingTime(MAX_SETTING_MS + 1),
    );
    ok(Setting::Processes(1));
    ok(Setting::Processes(MAX_PROCESSES));
    refused(Setting::Processes(0), SettingError::Processes(0));
    refused(
        Setting::Processes(MAX_PROCESSES + 1),
        SettingError::Processes(MAX_PROCESSES + 1),
    );
    ok(Setting::Routing(Routing::Only(1)));
    ok(Setting::Routing(Routing::Only(MAX_PROCESSES)));
    refused(
        Setting::Routing(Routing::Only(0)),
        SettingError::RoutingSlot(0),
    );
    refused(
        Setting::Routing(Routing::Only(MAX_PROCESSES + 1)),
        SettingError::RoutingSlot(MAX_PROCESSES + 1),
    );
    ok(Setting::RetentionHours(1));
    ok(Setting::RetentionHours(MAX_RETENTION_HOURS));
    refused(Setting::RetentionHours(0), SettingError::Retention(0));
    refused(
        Setting::RetentionHours(MAX_RETENTION_HOURS + 1),
        SettingError::Retention((MAX_RETENTION_HOURS + 1).into()),
    );
    let retries = |n| {
        Setting::AutoRetry(Some(RetryPolicy {
            max_attempts: n,
            seed: 0,
        }))
    };
    ok(retries(1));
    ok(retries(MAX_ATTEMPTS));
    ok(Setting::AutoRetry(None));
    refused(retries(0), SettingError::MaxAttempts(0));
    refused(
        retries(MAX_ATTEMPTS + 1),
        SettingError::MaxAttempts((MAX_ATTEMPTS + 1).into()),
    );
    // Each reason says which setting and which values, and no two say the same.
    let reasons: Vec<String> = [
        SettingError::CallerTimeout(0),
        SettingError::ProcessingTime(1),
        SettingError::Processes(3),
        SettingError::RoutingSlot(3),
        SettingError::Retention(0),
        SettingError::MaxAttempts(0),
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    for (i, a) in reasons.iter().enumerate() {
        assert!(!a.is_empty());
        assert!(reasons[i + 1..].iter().all(|b| b != a), "{a}");
    }
}

/// The lab records a change it made and refuses, whole, one it cannot make.
#[test]
fn the_lab_changes_settings_through_the_world_and_refuses_what_the_world_refuses() {
    let mut lab = Lab::new();
    for change in one_of_each() {
        lab.dispatch(Action::Set(change)).unwrap();
    }
    let expected = one_of_each()
        .into_iter()
        .fold(Settings::default(), Settings::with);
    assert_eq!(lab.state().settings(), expected);
    assert_eq!(lab.state().world().process_numbers(), [1, 2]);
    let before = lab.history().actions.len();
    assert_eq!(
        lab.dispatch(Action::Set(Setting::Processes(0))),
        Err(LabError::Setting(SettingError::Processes(0)))
    );
    assert_eq!(lab.history().actions.len(), before, "nothing recorded");
    assert_eq!(lab.state().settings(), expected, "nothing changed");
}

/// A setting's change goes into the history as `{"set": {name: value}}`.
#[test]
fn a_change_is_written_as_set_and_the_settings_name() {
    let text: Vec<String> = one_of_each()
        .into_iter()
        .map(|c| serde_json::to_string(&Action::Set(c)).unwrap())
        .collect();
    assert_eq!(text[0], r#"{"set":{"paused":true}}"#);
    assert_eq!(text[1], r#"{"set":{"caller-timeout-ms":700}}"#);
    assert_eq!(text[6], r#"{"set":{"routing":{"by":"key-hash"}}}"#);
    for (t, change) in text.iter().zip(one_of_each()) {
        let back: Action = serde_json::from_str(t).unwrap();
        assert_eq!(back, Action::Set(change));
    }
    let whole = serde_json::to_string(&Settings::default()).unwrap();
    let back: Settings = serde_json::from_str(&whole).unwrap();
    assert_eq!(back, Settings::default());
}

/// Back to one process, every call reaches the one that stays: the switchboard
/// forgets the process taken away, and the round robin starts again.
#[test]
fn back_to_one_process_every_call_reaches_the_one_that_stays() {
    use idempotency_lab::lab::Outcome;
    use idempotency_lab::GrantPoints;
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::Processes(2))).unwrap();
    lab.dispatch(Action::Set(Setting::Processes(1))).unwrap();
    for key in ["a", "b", "c"] {
        lab.dispatch(Action::Send {
            grant: GrantPoints::new(key, "account-7", 1),
            lose_acknowledgement: false,
        })
        .unwrap();
    }
    lab.skip_to_idle().unwrap();
    let state = lab.state();
    let rows: Vec<(u32, Outcome)> = state
        .timeline()
        .iter()
        .map(|r| (r.attempt.process, r.outcome()))
        .collect();
    assert_eq!(rows, vec![(1, Outcome::Applied); 3]);
    assert_eq!(state.store().balance("account-7"), 3);
}
