#![cfg(not(target_arch = "wasm32"))]
//! Natural order of accounts and keys: runs of ASCII digits compare as numbers
//! (`burst-2` < `burst-10`), everything else character by character, and texts
//! that differ only in leading zeros fall back to plain order, so the order is
//! total. The store lists its receipts by (account, key) in that order.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 10,000).

mod common;

use std::cmp::Ordering;

use idempotency_lab::core::natural_cmp;
use idempotency_lab::{GrantPoints, GrantResult, PointStore};
use proptest::collection::vec;
use proptest::prelude::*;

fn sorted(texts: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
    all.sort_by(|a, b| natural_cmp(a, b));
    all
}

fn assert_ascending(texts: &[&str]) {
    for pair in texts.windows(2) {
        assert_eq!(natural_cmp(pair[0], pair[1]), Ordering::Less, "{pair:?}");
        assert_eq!(natural_cmp(pair[1], pair[0]), Ordering::Greater, "{pair:?}");
    }
    for text in texts {
        assert_eq!(natural_cmp(text, text), Ordering::Equal, "{text:?}");
    }
    let mut reversed: Vec<&str> = texts.to_vec();
    reversed.reverse();
    assert_eq!(sorted(&reversed), texts, "sorting puts them in this order");
}

/// A piece of a text as natural order sees it.
#[derive(Debug)]
enum Token {
    /// A run of ASCII digits: its first digit, and its value as digits without
    /// leading zeros (so any length compares).
    Number {
        first: char,
        value: String,
    },
    Char(char),
}

fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let run: String = chars[start..i].iter().collect();
            out.push(Token::Number {
                first: chars[start],
                value: run.trim_start_matches('0').to_owned(),
            });
        } else {
            out.push(Token::Char(chars[i]));
            i += 1;
        }
    }
    out
}

fn token_cmp(a: &Token, b: &Token) -> Ordering {
    match (a, b) {
        (Token::Number { value: x, .. }, Token::Number { value: y, .. }) => {
            x.len().cmp(&y.len()).then_with(|| x.cmp(y))
        }
        (Token::Char(x), Token::Char(y)) => x.cmp(y),
        // A digit against any other character: as characters (never equal).
        (Token::Number { first, .. }, Token::Char(c)) => first.cmp(c),
        (Token::Char(c), Token::Number { first, .. }) => c.cmp(first),
    }
}

/// The rule, written independently: compare the texts token by token (a text
/// that runs out first is smaller), and fall back to plain order on a tie.
fn model_cmp(a: &str, b: &str) -> Ordering {
    let (x, y) = (tokens(a), tokens(b));
    for (p, q) in x.iter().zip(&y) {
        let order = token_cmp(p, q);
        if order != Ordering::Equal {
            return order;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

// ---------------------------------------------------------------------------------
// Concrete orders
// ---------------------------------------------------------------------------------

#[test]
fn numbers_inside_names_count_as_numbers() {
    assert_ascending(&["burst-1", "burst-2", "burst-10"]);
    assert_ascending(&[
        "burst-1",
        "burst-2",
        "burst-9",
        "burst-10",
        "burst-11",
        "burst-100",
    ]);
    assert_ascending(&["a9", "a10", "b1"]);
    assert_ascending(&["x", "x1", "x1a", "x2", "x10"]);
    assert_ascending(&["order-2-fresh-9", "order-2-fresh-10", "order-10-fresh-1"]);
    assert_ascending(&["1", "2", "10", "a"]);
    assert_eq!(
        sorted(&["burst-10", "burst-2", "burst-1"]),
        ["burst-1", "burst-2", "burst-10"]
    );
}

#[test]
fn numbers_longer_than_any_machine_integer_still_compare_by_value() {
    let nines = format!("k{}", "9".repeat(40));
    let ten_to_40 = format!("k1{}", "0".repeat(40));
    assert_ascending(&[
        "k18446744073709551615",
        "k18446744073709551616",
        &nines,
        &ten_to_40,
    ]);
    // Leading zeros do not make a number bigger.
    let padded = format!("k{}2", "0".repeat(50));
    assert_ascending(&["k1", &padded, "k3"]);
}

#[test]
fn text_without_digits_is_in_plain_order_non_ascii_included() {
    assert_ascending(&["", "a", "ab", "b"]);
    assert_ascending(&["Z", "a"]);
    assert_ascending(&["z", "é", "پ"]);
    // ب (U+0628) before پ (U+067E) before ی (U+06CC), as code points go.
    assert_ascending(&["ب", "پ", "ی"]);
    assert_ascending(&["حساب", "حساب-الف"]);
    assert_ascending(&["é1", "é2", "é10", "ê1"]);
    assert_ascending(&["سفارش-1", "سفارش-2", "سفارش-10"]);
}

#[test]
fn a_digit_against_another_character_compares_as_characters() {
    // '-' < '0'..'9' < 'A' < '_' < 'a' < 'é'
    assert_ascending(&["a-", "a1", "aA", "a_", "aa", "aé"]);
    assert_ascending(&["a-9", "a10"]);
    assert_ascending(&["a10", "aa"]);
}

#[test]
fn leading_zeros_give_a_fixed_order_not_a_tie() {
    for (a, b) in [
        ("a01", "a1"),
        ("a001", "a01"),
        ("0", "00"),
        ("00", "000"),
        ("burst-007", "burst-7"),
        ("a01b1", "a1b01"),
    ] {
        let order = natural_cmp(a, b);
        assert_ne!(order, Ordering::Equal, "{a:?} {b:?}");
        // Equal in value: plain order decides.
        assert_eq!(order, a.cmp(b), "{a:?} {b:?}");
        assert_eq!(natural_cmp(b, a), order.reverse(), "{a:?} {b:?}");
    }
    // Only when all else is equal: a different value still wins.
    assert_eq!(natural_cmp("a01", "a2"), Ordering::Less);
    assert_eq!(natural_cmp("a02", "a1"), Ordering::Greater);
    assert_ascending(&["a0", "a00", "a01", "a1", "a2"]);
}

// ---------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------

/// Short texts over few characters, digits and zeros weighted up, so that
/// prefixes, equal numbers and leading zeros come up often.
fn text() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        4 => prop::sample::select(vec!['0', '0', '1', '2', '9']),
        3 => prop::sample::select(vec!['a', 'b', '-', 'é', 'پ', '/', ':', 'A']),
        1 => any::<char>(),
    ];
    vec(c, 0..7).prop_map(|cs| cs.into_iter().collect())
}

fn text_without_digits() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        3 => prop::sample::select(vec!['a', 'b', '-', 'é', 'پ', '/', ':', 'A', '۱']),
        1 => any::<char>().prop_filter("no ASCII digit", |c| !c.is_ascii_digit()),
    ];
    vec(c, 0..7).prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// The order is the rule's: digits runs by value, the rest by character, a
    /// tie in value decided by plain order.
    #[test]
    fn natural_cmp_follows_the_rule(a in text(), b in text()) {
        prop_assert_eq!(natural_cmp(&a, &b), model_cmp(&a, &b), "{:?} {:?}", a, b);
    }

    /// Equal exactly for equal texts, and the same answer either way round.
    #[test]
    fn equal_only_for_equal_texts_and_antisymmetric(a in text(), b in text()) {
        prop_assert_eq!(natural_cmp(&a, &b) == Ordering::Equal, a == b);
        prop_assert_eq!(natural_cmp(&b, &a), natural_cmp(&a, &b).reverse());
        prop_assert_eq!(natural_cmp(&a, &a), Ordering::Equal);
    }

    /// Transitive: a ≤ b and b ≤ c give a ≤ c (strictly when either is strict).
    #[test]
    fn transitive_on_triples(mut abc in vec(text(), 3)) {
        abc.sort_by(|x, y| natural_cmp(x, y));
        let (a, b, c) = (&abc[0], &abc[1], &abc[2]);
        let ab = natural_cmp(a, b);
        let bc = natural_cmp(b, c);
        prop_assert_ne!(ab, Ordering::Greater);
        prop_assert_ne!(bc, Ordering::Greater);
        let expected = if ab == Ordering::Less || bc == Ordering::Less { Ordering::Less } else { Ordering::Equal };
        prop_assert_eq!(natural_cmp(a, c), expected, "{:?}", abc);
    }

    /// Sorting gives one order whatever order the texts came in, and every pair in
    /// it is in order (a comparison that is not total would break one of these).
    #[test]
    fn sorting_is_the_same_from_any_shuffle(
        (texts, shuffled) in vec(text(), 0..24).prop_flat_map(|t| (Just(t.clone()), Just(t).prop_shuffle()))
    ) {
        let mut one = texts.clone();
        one.sort_by(|a, b| natural_cmp(a, b));
        let mut other = shuffled;
        other.sort_unstable_by(|a, b| natural_cmp(a, b));
        prop_assert_eq!(&one, &other);
        for i in 0..one.len() {
            for j in i + 1..one.len() {
                prop_assert_ne!(natural_cmp(&one[i], &one[j]), Ordering::Greater, "{:?} {:?}", one[i], one[j]);
            }
        }
    }

    /// With no ASCII digit in either text, natural order is plain order.
    #[test]
    fn without_digits_it_is_plain_order(a in text_without_digits(), b in text_without_digits()) {
        prop_assert_eq!(natural_cmp(&a, &b), a.cmp(&b));
    }

    /// Same text around two different numbers: the numbers decide.
    #[test]
    fn a_number_between_the_same_texts_compares_by_value(
        prefix in text_without_digits(), suffix in text(), x in any::<u64>(), y in any::<u64>(),
    ) {
        let a = format!("{prefix}{x}{suffix}");
        let b = format!("{prefix}{y}{suffix}");
        if x != y {
            prop_assert_eq!(natural_cmp(&a, &b), x.cmp(&y), "{:?} {:?}", a, b);
        }
    }
}

// ---------------------------------------------------------------------------------
// The store lists its receipts in natural order
// ---------------------------------------------------------------------------------

fn grant(store: &PointStore, account: &str, key: &str, points: i32) -> GrantResult {
    store
        .apply(&GrantPoints::new(key, account, points))
        .unwrap_or_else(|e| panic!("{account} {key}: {e:?}"))
}

fn ids(receipts: &[GrantResult]) -> Vec<(String, String)> {
    receipts
        .iter()
        .map(|r| (r.account_id.clone(), r.key.clone()))
        .collect()
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// Keys burst-1..burst-12 applied in any order come back by number, with the
    /// balance each grant made; the first page is the first 5 of that order.
    #[test]
    fn receipts_are_listed_by_number_whatever_order_they_were_applied_in(
        order in Just((1..=12).collect::<Vec<u32>>()).prop_shuffle(),
    ) {
        let store = PointStore::new();
        let mut balance_after = std::collections::HashMap::new();
        let mut balance = 0;
        for &n in &order {
            // Each grant's points name its key, so a receipt cannot be mixed up.
            let points = i32::try_from(n).unwrap();
            balance += points;
            let receipt = grant(&store, "account-7", &format!("burst-{n}"), points);
            prop_assert_eq!(receipt.balance, balance);
            balance_after.insert(n, balance);
        }
        let all = store.receipts();
        let expected: Vec<(String, String)> =
            (1..=12).map(|n| ("account-7".to_owned(), format!("burst-{n}"))).collect();
        prop_assert_eq!(ids(&all), expected.clone());
        for (receipt, n) in all.iter().zip(1..=12u32) {
            prop_assert_eq!(receipt.points, i32::try_from(n).unwrap());
            prop_assert_eq!(receipt.balance, balance_after[&n]);
        }
        let (page, total) = store.receipts_page(5);
        prop_assert_eq!(total, 12);
        prop_assert_eq!(&page[..], &all[..5]);
        prop_assert_eq!(ids(&page), expected[..5].to_vec());
        // Pages of every size, none, and more than there are.
        for limit in [0, 1, 11, 12, 13, usize::MAX] {
            let (page, total) = store.receipts_page(limit);
            prop_assert_eq!(total, 12);
            prop_assert_eq!(&page[..], &all[..limit.min(12)]);
        }
    }

    /// Any receipts: listed by (account, key) in natural order, and a page of any
    /// size is the start of that list with the right total.
    #[test]
    fn a_page_is_the_start_of_the_whole_list(
        grants in vec((prop::sample::select(vec!["account-7", "account-10", "account-9", "a", "b"]), text()), 0..30),
        limit in 0usize..35,
    ) {
        let store = PointStore::new();
        let mut expected: Vec<(String, String)> = Vec::new();
        for (account, key) in &grants {
            if key.trim().is_empty() {
                continue;
            }
            grant(&store, account, key, 1);
            let id = ((*account).to_owned(), key.clone());
            if !expected.contains(&id) {
                expected.push(id);
            }
        }
        expected.sort_by(|x, y| model_cmp(&x.0, &y.0).then_with(|| model_cmp(&x.1, &y.1)));
        let all = store.receipts();
        prop_assert_eq!(ids(&all), expected.clone());
        let (page, total) = store.receipts_page(limit);
        prop_assert_eq!(total, expected.len());
        prop_assert_eq!(&page[..], &all[..limit.min(total)]);
    }
}

#[test]
fn accounts_come_in_natural_order_and_each_account_s_keys_after_it() {
    let store = PointStore::new();
    for (account, key) in [
        ("account-10", "burst-2"),
        ("account-9", "burst-10"),
        ("account-10", "burst-1"),
        ("account-9", "burst-9"),
        ("account-100", "k"),
    ] {
        grant(&store, account, key, 5);
    }
    let expected = [
        ("account-9", "burst-9"),
        ("account-9", "burst-10"),
        ("account-10", "burst-1"),
        ("account-10", "burst-2"),
        ("account-100", "k"),
    ]
    .map(|(a, k)| (a.to_owned(), k.to_owned()));
    assert_eq!(ids(&store.receipts()), expected);
    let (page, total) = store.receipts_page(3);
    assert_eq!(total, 5);
    assert_eq!(ids(&page), expected[..3]);
    // A replay adds no receipt.
    grant(&store, "account-9", "burst-9", 5);
    assert_eq!(store.receipts_page(0), (Vec::new(), 5));
}
