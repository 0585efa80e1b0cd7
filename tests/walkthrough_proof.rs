#![cfg(not(target_arch = "wasm32"))]
//! Every number a step's narration names is proved on screen: the fact it is
//! read from is drawn by a part of the picture the step marks. An
//! explanation is said
//! with the next step's lab, so its numbers are proved by that step's marks.
//! The end-to-end test `e2e/proof.test.mjs` checks the same on the page.

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{LabState, StagePart};
use idempotency_lab::walkthrough::{mark, Content, Step, Tour};

const SCRIPTS: &str = include_str!("../walkthrough/scenarios.json");

fn content(lang: Lang) -> Content {
    let text = if lang == Lang::Fa {
        include_str!("../walkthrough/fa.json")
    } else {
        include_str!("../walkthrough/en.json")
    };
    Content::parse(SCRIPTS, text, lang.tag()).unwrap()
}

/// The fact names of a text's `{placeholders}`, in order.
fn placeholders(text: &str) -> Vec<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .collect()
}

/// Why the number `name` names is not proved by `step`'s marks in `state`.
fn unproved(name: &str, step: &Step, state: &LabState) -> Option<String> {
    let marked: Vec<StagePart> = step
        .marks
        .iter()
        .filter_map(|m| mark(m, state).ok())
        .collect();
    match mark(name, state) {
        Ok(part) if marked.contains(&part) => None,
        Ok(part) => Some(format!("`{name}` ({part:?}) is not marked")),
        Err(e) => Some(e.to_string()),
    }
}

fn problems(lang: Lang) -> Vec<String> {
    let content = content(lang);
    let mut found = Vec::new();
    for (i, scenario) in content.scripts.scenarios.iter().enumerate() {
        let text = &content.text.scenarios[&scenario.id];
        for (n, step) in scenario.steps.iter().enumerate() {
            let state_at = |n: usize| Tour::open(&content.scripts, i, n).unwrap();
            let tour = state_at(n);
            let words = &text.steps[n];
            for name in placeholders(&words.narration) {
                if let Some(why) = unproved(name, step, tour.lab.state()) {
                    found.push(format!("{} step {}: {why}", scenario.id, n + 1));
                }
            }
            let Some(explain) = &words.explain else {
                continue;
            };
            let next = &scenario.steps[n + 1];
            let shown = state_at(n + 1);
            for name in placeholders(explain) {
                if let Some(why) = unproved(name, next, shown.lab.state()) {
                    found.push(format!(
                        "{} step {} (explanation): {why}",
                        scenario.id,
                        n + 1
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn every_number_a_step_names_is_drawn_by_a_part_it_marks() {
    for lang in [Lang::En, Lang::Fa] {
        let found = problems(lang);
        assert!(found.is_empty(), "{lang:?}:\n{}", found.join("\n"));
    }
}

#[test]
fn a_number_whose_part_is_not_marked_is_found() {
    // s1 step 2 names both balances; without its marks neither is proved.
    let content = content(Lang::En);
    let tour = Tour::open(&content.scripts, 0, 1).unwrap();
    let mut step = content.scripts.scenarios[0].steps[1].clone();
    let state = tour.lab.state();
    assert_eq!(unproved("balance:alice", &step, state), None);
    step.marks.retain(|m| m != "balance:alice");
    assert_eq!(
        unproved("balance:alice", &step, state).as_deref(),
        Some("`balance:alice` (Balance(\"alice\")) is not marked")
    );
    // The same part marked by another name proves it.
    step.marks.push("account-balance:1".into());
    assert_eq!(unproved("balance:alice", &step, state), None);
    // A count of rows is proved by the timeline's count, marked.
    assert_eq!(
        unproved("rows", &step, state).as_deref(),
        Some("`rows` (Timeline) is not marked")
    );
    step.marks.push("rows".into());
    assert_eq!(unproved("rows", &step, state), None);
    assert_eq!(
        unproved("read-balance", &step, state).as_deref(),
        Some("`read-balance` (Read) is not marked")
    );
    assert_eq!(placeholders("a {b} c {d:e} {"), ["b", "d:e"]);
}
