#![cfg(not(target_arch = "wasm32"))]
//! One reading of the page's address, and what wins when two are given.

use idempotency_lab::address::{Address, STATE_FRAGMENT};
use idempotency_lab::i18n::Lang;

fn walk(scenario: &str, step: Option<&str>) -> Option<(String, Option<String>)> {
    Some((scenario.to_owned(), step.map(str::to_owned)))
}

#[test]
fn each_part_of_the_address_is_read_by_its_rule() {
    assert_eq!(Address::parse("", ""), Address::default());
    let a = Address::parse(
        "?lang=fa&embed=1&settings=open&scenario=s3&step=2&presenter=1",
        "#state=abc-_",
    );
    assert_eq!(a.lang, Some(Lang::Fa));
    assert!(a.embed);
    assert!(a.settings_open);
    assert_eq!(a.walk, walk("s3", Some("2")));
    assert!(a.presenter);
    assert!(Address::parse("?presenter=true", "").presenter);
    assert_eq!(a.state.as_deref(), Some("abc-_"));
    // Without the question mark or the hash sign, as some callers give them.
    assert_eq!(Address::parse("lang=en", "").lang, Some(Lang::En));
    assert_eq!(
        Address::parse("", "state=abc").state,
        None,
        "the fragment starts with #"
    );
}

#[test]
fn values_the_page_does_not_know_are_as_if_absent() {
    for search in [
        "?lang=de",
        "?lang=",
        "?lang=FA",
        "?embed=yes",
        "?embed=0",
        "?step=2",
        "?settings=1",
        "?settings=OPEN",
        "?presenter=on",
        "?presenter=0",
    ] {
        let a = Address::parse(search, "#other");
        assert_eq!(a.lang, None, "{search}");
        assert!(!a.embed, "{search}");
        assert!(!a.settings_open, "{search}");
        assert!(!a.presenter, "{search}");
        assert_eq!(a.walk, None, "{search}: a step alone opens nothing");
        assert_eq!(a.state, None);
    }
    assert!(Address::parse("?embed=true", "").embed);
    assert_eq!(Address::parse("?scenario=s9", "").walk, walk("s9", None));
}

#[test]
fn a_parameter_given_twice_counts_by_its_first_value_and_escapes_are_read() {
    let a = Address::parse("?lang=fa&lang=en&scenario=s%201&scenario=s2&step=+3", "");
    assert_eq!(a.lang, Some(Lang::Fa));
    assert_eq!(a.walk, walk("s 1", Some(" 3")));
}

#[test]
fn a_walkthrough_step_and_a_session_together_each_keep_their_part() {
    let token = "eyJ2ZXJzaW9uIjoyfQ";
    let a = Address::parse(
        "?scenario=s1&step=1&lang=en",
        &format!("{STATE_FRAGMENT}{token}"),
    );
    assert_eq!(a.walk, walk("s1", Some("1")));
    assert_eq!(a.state.as_deref(), Some(token));
    assert_eq!(a.lang, Some(Lang::En));
}

#[test]
fn a_teachers_scenario_is_its_own_fragment_and_no_session() {
    let a = Address::parse("?lang=fa", "#teach=eJyr_-");
    assert_eq!(a.teach.as_deref(), Some("eJyr_-"));
    assert_eq!(a.state, None);
    let b = Address::parse("", &format!("{STATE_FRAGMENT}abc"));
    assert_eq!(b.teach, None);
    assert_eq!(Address::parse("", "teach=abc").teach, None);
}
