#![cfg(not(target_arch = "wasm32"))]
//! The picture names people as the narration names them: a teacher reads
//! "Alice" (or «آلیس») aloud while the stage and the timeline show the same
//! name, never the account's bare id in another script. Every account the
//! course draws has a person's name in every language, spelled as the
//! narration spells it, and no step's narration names someone it draws in any
//! other way.

use std::collections::BTreeSet;

use idempotency_lab::i18n::Lang;
use idempotency_lab::walkthrough::{Content, Tour};

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");

fn content(lang: Lang) -> Content {
    let path = format!(
        "{}/walkthrough/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        lang.tag()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Content::parse(SCRIPTS, Box::leak(text.into_boxed_str()), lang.tag())
        .unwrap_or_else(|e| panic!("{}: {e}", lang.tag()))
}

/// Whether `text` has `word` as a word of its own (not inside a longer one).
fn has_word(text: &str, word: &str) -> bool {
    let lower = text.to_lowercase();
    let word = word.to_lowercase();
    lower.match_indices(&word).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The narration as the room reads it, without its placeholders (`{balance:alice}`
/// is a number on the screen, not a name).
fn said(narration: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in narration.chars() {
        match c {
            '{' => inside = true,
            '}' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// Every problem with the names in `lang`, as `s3 step 2: ...`.
fn misnamed(lang: Lang) -> Vec<String> {
    let content = content(lang);
    let stage = &lang.texts().stage;
    let mut drawn = BTreeSet::new();
    let mut found = Vec::new();
    let mut narrations = String::new();
    for (i, script) in content.scripts.scenarios.iter().enumerate() {
        let text = &content.text.scenarios[&script.id];
        for n in 0..script.steps.len() {
            let lab = Tour::open(&content.scripts, i, n).unwrap().lab;
            let narration = &said(&text.steps[n].narration);
            narrations.push_str(narration);
            for row in lab.state().timeline() {
                let account = row.attempt.grant.account_id.clone();
                let name = stage.person(&account);
                let mentioned = has_word(narration, &account) || has_word(narration, &name);
                if mentioned && !narration.contains(name.as_ref()) {
                    found.push(format!(
                        "{} {} step {}: the narration names `{account}` otherwise than the \
                         picture's «{name}»",
                        lang.tag(),
                        script.id,
                        n + 1
                    ));
                }
                drawn.insert(account);
            }
        }
    }
    for account in &drawn {
        let name = stage.person(account);
        if name == account.as_str() && lang.info().rtl {
            found.push(format!(
                "{}: `{account}` has no person's name (stage.person.{account})",
                lang.tag()
            ));
        }
        if !narrations.contains(name.as_ref()) {
            found.push(format!(
                "{}: no narration names «{name}», the picture's name for `{account}`",
                lang.tag()
            ));
        }
    }
    found
}

#[test]
fn the_picture_names_people_as_the_narration_does_in_every_language() {
    for lang in Lang::ALL {
        let problems = misnamed(lang);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}

#[test]
fn a_person_is_named_in_the_pages_language_and_an_unknown_account_as_it_is() {
    let (en, fa) = (&Lang::En.texts().stage, &Lang::Fa.texts().stage);
    assert_eq!(en.person("alice"), "Alice");
    assert_eq!(fa.person("alice"), "آلیس");
    assert_eq!(fa.person("carol"), "کارول");
    // An account the course names nobody for, as it is (an invisible character shown).
    assert_eq!(en.person("account-7"), "account-7");
    assert_ne!(en.person("a\u{200b}b"), "a\u{200b}b");
    // The id beside the name only where they differ by more than a capital.
    assert!(!en.id_beside("alice"));
    assert!(fa.id_beside("alice"));
    assert!(!fa.id_beside("account-7"));
    // An account shown by its id already gets no second copy of it.
    assert!(!fa.id_beside("acct\u{202e}-7"));
    // The store's read says the person too.
    assert!(fa.read("alice", Some(200)).contains("آلیس"));
}
