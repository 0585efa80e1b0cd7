#![cfg(not(target_arch = "wasm32"))]
//! The page's texts are data (`texts/<tag>.json`): every language has every
//! message the code asks for and no other, each with only the placeholders the
//! code fills, and the forms a count picks. A translator who misses a piece is
//! told which, by key.

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::i18n::{
    language_file, placeholders, Arg, Catalog, CatalogError, ExplorerWords, Lang, StageWords,
    TeacherWords, WalkWords, Words, LANGUAGES,
};

fn catalog(lang: Lang) -> Catalog {
    Catalog::parse(lang.tag(), lang.info().rtl, &language_file(lang))
        .unwrap_or_else(|e| panic!("texts/{}.json: {e}", lang.tag()))
}

/// Every placeholder a message uses, over all its forms.
fn names(catalog: &Catalog, key: &str) -> BTreeSet<String> {
    catalog.messages()[key]
        .texts()
        .into_iter()
        .flat_map(|(_, text)| placeholders(text).unwrap())
        .map(str::to_string)
        .collect()
}

/// The keys the code asks for: the fields of `Words` and `WalkWords`, and
/// every string literal in the text modules that names a message (a
/// placeholder's name, `("n", ...)`, is not one).
fn keys_in_code() -> BTreeSet<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/i18n");
    let mut keys: BTreeSet<String> = Words::KEYS
        .iter()
        .chain(WalkWords::KEYS)
        .chain(StageWords::KEYS)
        .chain(ExplorerWords::KEYS)
        .chain(TeacherWords::KEYS)
        .map(|k| k.to_string())
        .collect();
    for file in [
        "texts.rs",
        "walk.rs",
        "stage.rs",
        "explorer.rs",
        "teacher.rs",
        "catalog.rs",
        "refusals.rs",
    ] {
        let source = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let mut rest = source.as_str();
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else { break };
            let literal = &after[..close];
            let is_arg_name = after[close + 1..].starts_with(", Arg::")
                || after[close + 1..].starts_with(", count(")
                || after[close + 1..].starts_with(", self.hours(")
                || after[close + 1..].starts_with(", whole(");
            let looks_like_key = literal.len() > 2
                && literal.starts_with(|c: char| c.is_ascii_lowercase())
                && !literal.ends_with('.')
                && literal.contains(['.', '_'])
                && literal
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_');
            let before = rest[..open].trim_end();
            let called = before.ends_with("say(") || before.ends_with("word(");
            if called || (looks_like_key && !is_arg_name) {
                keys.insert(literal.to_string());
            }
            rest = &after[close + 1..];
        }
    }
    // A switch names its two messages in the view: `label="naive"`, `hint="naive_hint"`.
    let views = concat!(env!("CARGO_MANIFEST_DIR"), "/src/ui");
    for entry in std::fs::read_dir(views).unwrap() {
        let source = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for prop in ["label=\"", "hint=\""] {
            // A prop of its own (` label="…"`), not the end of `aria-label="…"`.
            for (at, _) in source.match_indices(prop) {
                let own = source[..at].ends_with(char::is_whitespace);
                let key = source[at + prop.len()..].split('"').next().unwrap();
                if own {
                    keys.insert(key.to_string());
                }
            }
        }
    }
    keys
}

#[test]
fn every_language_file_reads_and_has_exactly_the_messages_of_english() {
    let english = catalog(Lang::En);
    let wanted: BTreeSet<&String> = english.messages().keys().collect();
    let mut gaps = Vec::new();
    for lang in Lang::ALL {
        let texts = catalog(lang);
        let has: BTreeSet<&String> = texts.messages().keys().collect();
        for key in wanted.difference(&has) {
            gaps.push(format!("texts/{}.json lacks `{key}`", lang.tag()));
        }
        for key in has.difference(&wanted) {
            gaps.push(format!(
                "texts/{}.json has `{key}`, which English does not",
                lang.tag()
            ));
        }
    }
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

#[test]
fn the_code_asks_for_every_english_message_and_for_no_other() {
    let english: BTreeSet<String> = catalog(Lang::En).messages().keys().cloned().collect();
    let asked = keys_in_code();
    let missing: Vec<_> = asked.difference(&english).collect();
    let unused: Vec<_> = english.difference(&asked).collect();
    assert!(
        missing.is_empty(),
        "the code asks for messages texts/en.json lacks: {missing:?}"
    );
    assert!(
        unused.is_empty(),
        "texts/en.json has messages the code never asks for: {unused:?}"
    );
}

#[test]
fn a_translation_uses_only_the_placeholders_the_code_fills_and_leaves_out_none() {
    let english = catalog(Lang::En);
    let mut wrong = Vec::new();
    for lang in Lang::ALL {
        let texts = catalog(lang);
        for (key, message) in texts.messages() {
            let Some(reference) = english.messages().get(key) else {
                continue;
            };
            let known = names(&english, key);
            for name in names(&texts, key).difference(&known) {
                wrong.push(format!(
                    "{}: `{key}` uses {{{name}}}, which the code does not fill",
                    lang.tag()
                ));
            }
            // What English tells, every language tells (in some form).
            for name in known.difference(&names(&texts, key)) {
                wrong.push(format!(
                    "{}: `{key}` leaves out {{{name}}}, which English says",
                    lang.tag()
                ));
            }
            // A count that picks a form is one the code passes.
            if let Some(by) = message.by() {
                if reference.by() != Some(by) && !known.contains(by) {
                    wrong.push(format!(
                        "{}: `{key}` picks its form by `{by}`, which the code does not pass",
                        lang.tag()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_language_is_in_the_list_with_its_files_and_the_boot_script_knows_it() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/index.html")).unwrap();
    for (info, lang) in LANGUAGES.iter().zip(Lang::ALL) {
        assert_eq!(lang.tag(), info.tag);
        catalog(lang);
        let narration = format!(
            "{}/walkthrough/{}.json",
            env!("CARGO_MANIFEST_DIR"),
            info.tag
        );
        assert!(std::path::Path::new(&narration).exists(), "{narration}");
        let dir = if info.rtl { "rtl" } else { "ltr" };
        assert!(
            page.contains(&format!("{}: '{dir}'", info.tag)),
            "index.html's boot script lacks {}",
            info.tag
        );
    }
    let listed = page
        .split("const languages = {")
        .nth(1)
        .unwrap()
        .split('}')
        .next()
        .unwrap();
    assert_eq!(
        listed.matches(':').count(),
        LANGUAGES.len(),
        "the boot script lists other languages: {listed}"
    );
}

#[test]
fn a_message_fills_its_placeholders_by_kind_and_language() {
    let (en, fa) = (catalog(Lang::En), catalog(Lang::Fa));
    assert_eq!(
        en.say(
            "rows_range",
            &[
                ("from", Arg::Count(1)),
                ("to", Arg::Count(20)),
                ("total", Arg::Count(31))
            ]
        ),
        "Attempts 1–20 of 31"
    );
    assert_eq!(
        fa.say(
            "rows_range",
            &[
                ("from", Arg::Count(1)),
                ("to", Arg::Count(20)),
                ("total", Arg::Count(31))
            ]
        ),
        "تلاش‌های ۱ تا ۲۰ از ۳۱"
    );
    // Amounts in the language's digits too, kept whole inside right-to-left
    // prose, a minus on the number's left.
    assert_eq!(
        en.say("chart_floor", &[("floor", Arg::Amount(-5))]),
        "The scale starts at -5, not at 0."
    );
    assert!(fa
        .say("chart_floor", &[("floor", Arg::Amount(-5))])
        .contains("\u{2068}\u{2066}-۵\u{2069}\u{2069}"));
    assert!(fa
        .say("chart_floor", &[("floor", Arg::Amount(125))])
        .contains("\u{2068}۱۲۵\u{2069}"));
    // Zero has no sign to keep on its left.
    assert!(fa
        .say("chart_floor", &[("floor", Arg::Amount(0))])
        .contains("\u{2068}۰\u{2069}"));
    // What a view writes itself, by the same rule.
    assert_eq!(Lang::Fa.texts().num(-125), "-۱۲۵");
    assert_eq!(Lang::En.texts().num(10_006), "10006");
    assert_eq!(
        en.say(
            "stress",
            &[("n", Arg::Grouped(1_234_567)), ("percent", Arg::Count(30))]
        ),
        "Stress: 1,234,567 grants, 30% duplicates"
    );
    assert!(fa
        .say(
            "stress",
            &[("n", Arg::Grouped(10_000)), ("percent", Arg::Count(30))]
        )
        .contains("۱۰٬۰۰۰"));
    // A separator between thousands only: none before a first group of three.
    let progress = |n| {
        let args = [("answered", Arg::Grouped(n)), ("total", Arg::Grouped(999))];
        en.say("stress_progress", &args)
    };
    assert_eq!(
        progress(100_000),
        "Stress run under way: 100,000 of 999 answered."
    );
    assert_eq!(progress(0), "Stress run under way: 0 of 999 answered.");
    assert_eq!(
        en.say("retry_of", &[("attempt", Arg::Attempt(7))]),
        "automatic retry after #7"
    );
    assert!(fa
        .say("retry_of", &[("attempt", Arg::Attempt(7))])
        .contains("\u{2066}#۷\u{2069}"));
    assert_eq!(en.say("would_leak", &[("account", Arg::Id("a b")), ("points", Arg::Amount(100)), ("balance", Arg::Amount(250))]),
        "a store that trusted the request would have handed over \u{2068}a b\u{2069}'s receipt: +100, balance 250");
    // A placeholder the code did not fill is shown, never dropped.
    assert_eq!(en.say("at_time", &[]), "at {time}");
    // A key the file lacks is shown as itself.
    assert_eq!(en.say("no.such.key", &[]), "[no.such.key]");
    assert_eq!(en.word("no.such.key"), "no.such.key");
}

#[test]
fn a_count_picks_the_form_by_exact_match_then_by_the_languages_rule() {
    let (en, fa) = (catalog(Lang::En), catalog(Lang::Fa));
    let waiting = |c: &Catalog, n| c.say("producers_waiting", &[("n", Arg::Count(n))]);
    assert_eq!(waiting(&en, 0), "No producer is waiting");
    assert_eq!(waiting(&en, 1), "1 producer waiting for room");
    assert_eq!(waiting(&en, 2), "2 producers waiting for room");
    assert_eq!(waiting(&fa, 1), "۱ تولیدکننده منتظر جای خالی‌اند");
    assert_eq!(waiting(&fa, 0), "هیچ تولیدکننده‌ای منتظر نیست");
    let french = r#"{"language":"fr","digits":"0123456789","decimal":",","group":" ","plural":"one-is-zero-or-one",
        "texts":{"n":{"by":"n","one":"{n} reçu","other":"{n} reçus"}}}"#;
    let fr = Catalog::parse("fr", false, french).unwrap();
    let said: Vec<String> = [0, 1, 2]
        .map(|n| fr.say("n", &[("n", Arg::Count(n))]))
        .into();
    assert_eq!(said, ["0 reçu", "1 reçu", "2 reçus"]);
    // The form is picked by the count the message names, not by the first one given.
    let by_second = r#"{"language":"xx","digits":"0123456789","decimal":".","group":",","plural":"one-is-one",
        "texts":{"m":{"by":"b","one":"{a} and one","other":"{a} and {b}"}}}"#;
    let xx = Catalog::parse("xx", false, by_second).unwrap();
    let (a, b) = (("a", Arg::Count(1)), ("b", Arg::Count(2)));
    assert_eq!(xx.say("m", &[a.clone(), b.clone()]), "1 and 2");
    assert_eq!(
        xx.say("m", &[("a", Arg::Count(2)), ("b", Arg::Count(1))]),
        "2 and one"
    );
    assert_eq!(xx.messages()["m"].by(), Some("b"));
    assert_eq!(en.messages()["producers_waiting"].by(), Some("n"));
    assert_eq!(en.messages()["title"].by(), None);
}

#[test]
fn times_and_spans_are_said_in_each_language() {
    let (en, fa) = (catalog(Lang::En), catalog(Lang::Fa));
    assert_eq!(en.clock_time(12_340), "12.3 s");
    assert_eq!(en.clock_time(7_200_100), "02:00:00.1");
    // From the hour on, hours, minutes and seconds.
    assert_eq!(en.clock_time(3_599_900), "3599.9 s");
    assert_eq!(en.clock_time(3_600_000), "01:00:00.0");
    assert_eq!(en.clock_time(93_600_000), "1 d 02:00:00.0");
    assert_eq!(fa.clock_time(3_100), "۳٫۱ ثانیه");
    let span = |c: &Catalog, ms| c.say("marker.clock", &[("span", Arg::Span(ms))]);
    assert_eq!(span(&en, 0), "Clock moved forward by 0 seconds.");
    assert_eq!(span(&en, 1_000), "Clock moved forward by 1 second.");
    assert_eq!(span(&en, 1_500), "Clock moved forward by 1.5 seconds.");
    assert_eq!(
        span(&en, 90_061_000),
        "Clock moved forward by 1 day 1 hour 1 minute 1 second."
    );
    assert_eq!(span(&fa, 7_230_000), "ساعت ۲ ساعت و ۳۰ ثانیه جلو رفت.");
}

#[test]
fn a_broken_language_file_is_refused_with_the_reason() {
    let file = |settings: &str, texts: &str| {
        format!(r#"{{"language":"xx",{settings},"texts":{{{texts}}}}}"#)
    };
    let good = r#""digits":"0123456789","decimal":".","group":",","plural":"none""#;
    assert!(Catalog::parse("xx", false, &file(good, r#""a":"b""#)).is_ok());
    let refused = [
        (
            file(good, r#""a":"b""#),
            "yy",
            CatalogError::WrongLanguage {
                expected: "yy".into(),
                found: "xx".into(),
            },
        ),
        (
            file(
                r#""digits":"012","decimal":".","group":",","plural":"none""#,
                "",
            ),
            "xx",
            CatalogError::Numbers,
        ),
        (
            file(
                r#""digits":"0123456789","decimal":"..","group":",","plural":"none""#,
                "",
            ),
            "xx",
            CatalogError::Numbers,
        ),
        (
            file(good, r#""a":{"one":"x","other":"y"}"#),
            "xx",
            CatalogError::Forms("a".into()),
        ),
        (
            file(good, r#""a":{"by":"n","one":"x"}"#),
            "xx",
            CatalogError::Forms("a".into()),
        ),
        (
            file(good, r#""a":"{n""#),
            "xx",
            CatalogError::Unbalanced("a".into()),
        ),
        (
            file(good, r#""a":"n}""#),
            "xx",
            CatalogError::Unbalanced("a".into()),
        ),
        (
            file(good, r#""a":{"by":"n","other":"{{n}"}"#),
            "xx",
            CatalogError::Unbalanced("a".into()),
        ),
    ];
    for (json, tag, error) in refused {
        assert_eq!(
            Catalog::parse(tag, false, &json).unwrap_err(),
            error,
            "{json}"
        );
    }
    let shape = Catalog::parse("xx", false, r#"{"language":"xx"}"#).unwrap_err();
    assert!(matches!(shape, CatalogError::Shape(_)), "{shape:?}");
    // A message that is neither a text nor its forms is named for what it is.
    let number = Catalog::parse("xx", false, &file(good, r#""a":5"#)).unwrap_err();
    assert!(
        number
            .to_string()
            .contains("expected a text, or its forms picked by a count"),
        "{number}"
    );
}

#[test]
fn every_message_of_every_language_is_said_without_a_gap() {
    // The texts each language gives the page: no key shown in its place, no
    // placeholder left unfilled.
    for lang in Lang::ALL {
        let t = lang.texts();
        let plain: Vec<&str> = Words::KEYS.iter().map(|k| t.catalog().word(k)).collect();
        for (key, text) in Words::KEYS.iter().zip(plain) {
            assert!(
                !text.is_empty() && !text.contains('{'),
                "{}: `{key}` is {text:?}",
                lang.tag()
            );
        }
        let said = [
            t.how_to_do(2),
            t.nth_attempt(1),
            t.nth_attempt(3),
            t.balance_read_when(1_000, Some(3)),
            t.clock(1_000, &[1, 2]),
            t.chart_counts(1, 0, 2),
            t.receipts_expired(2, 24),
            t.store_shows_durable(1),
            t.language_failed(Lang::En, "HTTP 404"),
            t.walk.unknown_step("s1", "9", 4),
        ];
        let mut per_key = BTreeMap::new();
        for text in &said {
            assert!(
                !text.contains('{') && !text.contains('['),
                "{}: {text}",
                lang.tag()
            );
            *per_key.entry(text).or_insert(0) += 1;
        }
        assert!(
            per_key.values().all(|n| *n == 1),
            "two messages read the same: {per_key:?}"
        );
    }
}

/// Beside the clock while a walkthrough step plays: the step's end, in the
/// page's language and digits.
#[test]
fn the_clock_says_where_a_playing_step_ends() {
    assert_eq!(Lang::En.texts().clock_playing(6_000), "▶ playing to 6.0 s");
    let fa = Lang::Fa.texts().clock_playing(6_000);
    assert!(fa.starts_with("▶ در حال پخش تا ۶"), "{fa}");
}
