//! Setting an account's preferred language: idempotent by nature. Done twice it
//! leaves the state as done once, with no key and no receipt; the timeline says
//! the repeat changed nothing.

mod common;

use common::lab_of;
use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{Action, LabError, MarkerKind};
use idempotency_lab::sim::Happening;
use idempotency_lab::Language;

fn set(account: &str, language: Language) -> Action {
    Action::SetPreferredLanguage {
        account_id: account.into(),
        language,
    }
}

#[test]
fn setting_the_same_language_twice_changes_nothing_the_second_time() {
    let lab = lab_of(&[
        set("account-7", Language::English),
        set("account-7", Language::English),
    ]);
    let state = lab.state();
    assert_eq!(state.world().language("account-7"), Some(Language::English));
    let changed: Vec<Option<bool>> = state.markers().iter().map(|m| m.kind.changed()).collect();
    assert_eq!(changed, vec![Some(true), Some(false)]);
    assert!(matches!(
        &state.markers()[1].kind,
        MarkerKind::LanguageSet {
            previous: Some(Language::English),
            language: Language::English,
            ..
        }
    ));
    // No key, no queue, no attempt, no points.
    assert!(state.timeline().is_empty());
    assert_eq!(state.store().balance("account-7"), 0);
    assert!(state
        .world()
        .events()
        .iter()
        .all(|e| matches!(e.what, Happening::LanguageSet { .. })));
}

#[test]
fn another_language_changes_it_and_says_what_it_was() {
    let lab = lab_of(&[
        set("account-7", Language::English),
        set("account-7", Language::Persian),
        set("account-8", Language::Persian),
    ]);
    let state = lab.state();
    assert_eq!(state.world().language("account-7"), Some(Language::Persian));
    assert_eq!(state.world().language("account-8"), Some(Language::Persian));
    assert_eq!(state.world().language("account-9"), None);
    assert!(matches!(
        &state.markers()[1].kind,
        MarkerKind::LanguageSet {
            previous: Some(Language::English),
            language: Language::Persian,
            ..
        }
    ));
    assert_eq!(state.markers()[1].kind.changed(), Some(true));
    assert_eq!(
        state.markers()[2].kind.changed(),
        Some(true),
        "another account"
    );
}

#[test]
fn the_preference_outlives_a_restart() {
    let lab = lab_of(&[
        set("account-7", Language::English),
        Action::Restart,
        set("account-7", Language::English),
    ]);
    let last = lab.state().markers().last().unwrap();
    assert_eq!(last.kind.changed(), Some(false));
}

#[test]
fn a_blank_account_is_refused_and_nothing_is_recorded() {
    let mut lab = idempotency_lab::lab::Lab::new();
    for account in ["", "   ", " account-7", "account\u{200b}-7"] {
        assert!(matches!(
            lab.dispatch(set(account, Language::English)),
            Err(LabError::Account(_))
        ));
    }
    assert!(lab.history().actions.is_empty());
    assert!(lab.state().markers().is_empty());
}

#[test]
fn the_timeline_says_the_repeat_changed_nothing_in_both_languages() {
    let lab = lab_of(&[
        set("account-7", Language::English),
        set("account-7", Language::English),
    ]);
    let [first, second] = lab.state().markers() else {
        panic!("two markers");
    };
    let say = |lang: Lang, m| lang.texts().marker_text(m);
    assert!(say(Lang::En, first).contains("set to English."));
    assert!(!say(Lang::En, first).contains("nothing changed"));
    assert!(say(Lang::En, second).contains("nothing changed"));
    assert!(say(Lang::En, second).contains("adding 100 points twice adds 200"));
    assert!(say(Lang::Fa, first).contains("انگلیسی شد."));
    assert!(say(Lang::Fa, second).contains("چیزی تغییر نکرد"));
    let json = serde_json::to_string(&set("account-7", Language::Persian)).unwrap();
    assert_eq!(
        json,
        r#"{"set-preferred-language":{"account_id":"account-7","language":"persian"}}"#
    );
}
