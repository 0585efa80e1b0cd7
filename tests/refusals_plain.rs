#![cfg(not(target_arch = "wasm32"))]
//! Every refusal of a malformed input (a session file, a `#state=` link, a
//! teacher's scenario file or `#teach=` link, the course's files) is one
//! sentence in the page's words, in each language: it names what it refuses
//! and never quotes the parser (its kinds, its types, its line and column,
//! its backticks) nor a Rust name.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::collections::BTreeMap;

use idempotency_lab::i18n::Lang;
use idempotency_lab::lab::{from_json, from_link_token, Action, Lab, MAX_SESSION_BYTES};
use idempotency_lab::walkthrough::{
    from_link, read_scenarios, Content, Recording, StepDraft, MAX_TEACHER_BYTES,
};
use idempotency_lab::GrantPoints;

/// What a refusal says on the page, as the page says it.
fn session(lang: Lang, text: &str) -> String {
    let t = lang.texts();
    let error = from_json(text).map(drop).expect_err("refused");
    format!("{} {}", t.import_failed, t.session_error(&error))
}

fn state_link(lang: Lang, token: &str) -> String {
    let t = lang.texts();
    let error = from_link_token(token).map(drop).expect_err("refused");
    format!("{} {}", t.link_failed, t.session_error(&error))
}

fn teacher_file(lang: Lang, text: &str) -> String {
    let t = lang.texts();
    let error = read_scenarios(text).map(drop).expect_err("refused");
    t.teacher.refused(&t.shelf_error(&error))
}

fn teach_link(lang: Lang, token: &str) -> String {
    let t = lang.texts();
    let error = from_link(token).map(drop).expect_err("refused");
    t.teacher.refused(&t.link_error(&error))
}

fn course(lang: Lang, scripts: &str, text: &str) -> String {
    let t = lang.texts();
    let error = Content::parse(scripts, text, "en")
        .map(drop)
        .expect_err("refused");
    format!("{} {}", lang.walk().load_failed, t.content_error(&error))
}

/// Words that only a parser or a program would write. Each is matched as a
/// whole word, case aside, so "mapping" or "constructs" in the lab's own
/// prose is not taken for one.
const PARSER_WORDS: &[&str] = &[
    "sequence",
    "expected",
    "column",
    "u8",
    "u64",
    "i64",
    "u32",
    "i32",
    "usize",
    "f64",
    "map",
    "struct",
    "enum",
    "variant",
    "newtype",
    "unit",
    "eof",
    "waitlength",
    "burstsize",
];

/// Pieces that are parser or program output wherever they stand.
const PARSER_PIECES: &[&str] = &[
    "`",
    "invalid type",
    "invalid value",
    "some(",
    "err(",
    "ok(",
    "at line",
    "line 1",
];

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn problems(case: &str, lang: Lang, said: &str, names: &[&str]) -> Vec<String> {
    let what = format!("{case} ({lang:?}): {said}");
    let mut found = Vec::new();
    let mut check = |ok: bool, why: String| {
        if !ok {
            found.push(why);
        }
    };
    check(!said.trim().is_empty(), format!("empty: {what}"));
    for word in words(said) {
        check(
            !PARSER_WORDS.contains(&word.as_str()),
            format!("parser word {word:?} in {what}"),
        );
        // A Rust variant or call written out: a name glued to its bracket.
        let camel = word.len() > 1 && said.to_lowercase().contains(&format!("{word}("));
        check(!camel, format!("a program's name {word:?} in {what}"));
    }
    let lower = said.to_lowercase();
    for piece in PARSER_PIECES {
        check(
            !lower.contains(piece),
            format!("parser piece {piece:?} in {what}"),
        );
    }
    // A number of more than four digits is grouped as the page writes them.
    let digits: Vec<char> = said
        .chars()
        .map(|c| match c {
            '\u{06F0}'..='\u{06F9}' => char::from(b'0' + (c as u32 - 0x06F0) as u8),
            c => c,
        })
        .collect();
    let longest = digits
        .split(|c| !c.is_ascii_digit())
        .map(<[char]>::len)
        .max()
        .unwrap_or(0);
    check(longest <= 4, format!("an ungrouped number in {what}"));
    if lang == Lang::Fa {
        check(
            said.chars().any(|c| ('\u{0627}'..='\u{06CC}').contains(&c)),
            format!("not Persian: {what}"),
        );
    }
    if !names.is_empty() {
        check(
            names.iter().any(|n| said.contains(&in_lang(lang, n))),
            format!("names none of {names:?}: {what}"),
        );
    }
    found
}

/// What a case names, as the page writes it in `lang`: its digits and
/// separators, and the few words a refusal names a thing by.
fn in_lang(lang: Lang, name: &str) -> String {
    if lang == Lang::En {
        return name.to_string();
    }
    let word = match name {
        "session" => "نشست",
        "link" => "پیوند",
        "scenario" => "سناریو",
        "action 1" => "کنش ۱",
        other => other,
    };
    word.chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(0x06F0 + (c as u32 - '0' as u32)).unwrap(),
            ',' => '\u{066C}',
            c => c,
        })
        .collect()
}

const HEAD: &str = r#""format":"idempotency-lab/session","version":4"#;

fn file(actions: &str) -> String {
    format!(r#"{{{HEAD},"actions":[{actions}]}}"#)
}

fn send(points: &str) -> String {
    format!(r#"{{"send":{{"grant":{{"key":"k","account_id":"a","points":{points}}}}}}}"#)
}

fn link(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(text)
}

fn packed(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(bytes, 9))
}

/// Session files: (case, text, what the English refusal names).
fn sessions() -> Vec<(&'static str, String, Vec<&'static str>)> {
    let many = vec![r#"{"wait":{"ms":1}}"#; 5_001].join(",");
    vec![
        ("empty", String::new(), vec!["session"]),
        ("words", "not json".into(), vec!["session"]),
        (
            "truncated",
            format!(r#"{{{HEAD},"actions":["#),
            vec!["session"],
        ),
        (
            "trailing garbage",
            format!("{} xyz", file("")),
            vec!["session"],
        ),
        (
            "byte-order mark",
            format!("\u{FEFF}{}", file("")),
            vec!["session"],
        ),
        (
            "binary",
            "\u{0}\u{1}\u{7f}\u{FFFD}PK\u{3}\u{4}".into(),
            vec!["session"],
        ),
        (
            "wrong format",
            r#"{"format":"other","version":3,"actions":[]}"#.into(),
            vec!["session"],
        ),
        (
            "version 99",
            r#"{"format":"idempotency-lab/session","version":99,"actions":[]}"#.into(),
            vec!["99"],
        ),
        (
            "version as text",
            r#"{"format":"idempotency-lab/session","version":"3","actions":[]}"#.into(),
            vec!["version"],
        ),
        (
            "negative version",
            r#"{"format":"idempotency-lab/session","version":-1,"actions":[]}"#.into(),
            vec!["version"],
        ),
        (
            "float version",
            r#"{"format":"idempotency-lab/session","version":3.5,"actions":[]}"#.into(),
            vec!["version"],
        ),
        (
            "version 1e400",
            r#"{"format":"idempotency-lab/session","version":1e400,"actions":[]}"#.into(),
            vec!["session"],
        ),
        (
            "format a number",
            r#"{"format":7,"version":3,"actions":[]}"#.into(),
            vec!["format"],
        ),
        (
            "format null",
            r#"{"format":null,"version":3,"actions":[]}"#.into(),
            vec!["format"],
        ),
        (
            "format missing",
            r#"{"version":3,"actions":[]}"#.into(),
            vec!["format"],
        ),
        (
            "actions an object",
            format!(r#"{{{HEAD},"actions":{{}}}}"#),
            vec!["actions"],
        ),
        (
            "actions null",
            format!(r#"{{{HEAD},"actions":null}}"#),
            vec!["actions"],
        ),
        ("actions missing", format!("{{{HEAD}}}"), vec!["actions"]),
        (
            "unknown field",
            format!(r#"{{{HEAD},"actions":[],"by":"me"}}"#),
            vec!["by"],
        ),
        ("unknown action", file(r#""explode""#), vec!["explode"]),
        // serde_json takes a value that is no action for no JSON at all.
        ("action a number", file("7"), vec!["session"]),
        ("action a list", file("[]"), vec!["session"]),
        ("points a list", file(&send("[]")), vec!["grant.points"]),
        ("points -0.0", file(&send("-0.0")), vec!["grant.points"]),
        ("points 1.5", file(&send("1.5")), vec!["grant.points"]),
        (
            "points huge",
            file(&send("9223372036854775807")),
            vec!["grant.points"],
        ),
        ("points text", file(&send(r#""5""#)), vec!["grant.points"]),
        ("points null", file(&send("null")), vec!["grant.points"]),
        ("points an object", file(&send("{}")), vec!["grant.points"]),
        ("points true", file(&send("true")), vec!["grant.points"]),
        ("points 1e400", file(&send("1e400")), vec!["session"]),
        (
            "points missing",
            file(r#"{"send":{"grant":{"key":"k","account_id":"a"}}}"#),
            vec!["points"],
        ),
        (
            "key a number",
            file(r#"{"send":{"grant":{"key":5,"account_id":"a","points":1}}}"#),
            vec!["grant.key"],
        ),
        (
            "naive a list",
            file(r#"{"set":{"naive":[]}}"#),
            vec!["set.naive"],
        ),
        (
            "naive text",
            file(r#"{"set":{"naive":"yes"}}"#),
            vec!["set.naive"],
        ),
        (
            "unknown setting",
            file(r#"{"set":{"colour":1}}"#),
            vec!["colour"],
        ),
        ("wait -5", file(r#"{"wait":{"ms":-5}}"#), vec!["wait.ms"]),
        ("wait 1.5", file(r#"{"wait":{"ms":1.5}}"#), vec!["wait.ms"]),
        (
            "wait overflow",
            file(r#"{"wait":{"ms":9223372036854775807}}"#),
            vec!["action 1"],
        ),
        (
            "burst text",
            file(r#"{"burst":{"n":"ten"}}"#),
            vec!["action 1"],
        ),
        (
            "sign-in invisible",
            file(r#"{"sign-in":{"account_id":"acc\u202eount"}}"#),
            vec!["action 1"],
        ),
        (
            "key too long",
            file(&format!(
                r#"{{"send":{{"grant":{{"key":"{}","account_id":"a","points":1}}}}}}"#,
                "k".repeat(200)
            )),
            vec!["action 1"],
        ),
        ("too many actions", file(&many), vec!["5,001"]),
        (
            "oversize",
            " ".repeat(MAX_SESSION_BYTES + 1),
            vec!["4,194,305"],
        ),
        (
            "bad escape",
            file(r#"{"check-balance":{"account_id":"\x"}}"#),
            vec!["session"],
        ),
        (
            "duplicate field",
            format!(r#"{{{HEAD},"version":3,"actions":[]}}"#),
            vec!["version"],
        ),
    ]
}

/// `#state=` tokens.
fn state_links() -> Vec<(&'static str, String, Vec<&'static str>)> {
    vec![
        ("not base64", "!!!not base64!!!".into(), vec!["link"]),
        (
            "not text",
            URL_SAFE_NO_PAD.encode([0xff, 0xfe, 0x00, 0x80]),
            vec!["link"],
        ),
        (
            "cut short",
            link(&file(&send("5")))[..40].to_string(),
            vec!["link"],
        ),
        (
            "wrong type inside",
            link(&file(&send("[]"))),
            vec!["grant.points"],
        ),
        (
            "oversize",
            "A".repeat(MAX_SESSION_BYTES / 3 * 4 + 8),
            vec!["session"],
        ),
        ("empty", String::new(), vec!["session"]),
    ]
}

/// A teacher's file that passes every check but what a case changes: two
/// steps recorded from the sandbox, in English.
fn teacher_json() -> serde_json::Value {
    let english = |text: &str| BTreeMap::from([(Lang::En, text.to_string())]);
    let said = |text: &str| StepDraft {
        narration: english(text),
        question: None,
    };
    let mut lab = Lab::new();
    let mut recording = Recording::new();
    lab.dispatch(Action::Send {
        grant: GrantPoints::new("k", "alice", 5),
        lose_acknowledgement: false,
    })
    .unwrap();
    lab.skip_to_idle().unwrap();
    recording.mark(&lab, said("One.")).unwrap();
    lab.dispatch(Action::Wait { ms: 1 }).unwrap();
    recording.mark(&lab, said("Two.")).unwrap();
    let scenario = recording
        .finish(&english("Title"), &BTreeMap::new())
        .unwrap();
    serde_json::from_str(&scenario.to_json()).unwrap()
}

fn teacher_edited(edit: impl Fn(&mut serde_json::Value)) -> String {
    let mut file = teacher_json();
    edit(&mut file);
    file.to_string()
}

fn teacher_files() -> Vec<(&'static str, String, Vec<&'static str>)> {
    type Edit = fn(&mut serde_json::Value);
    let set = |pointer: &'static str, value: serde_json::Value| {
        teacher_edited(|f| *f.pointer_mut(pointer).unwrap() = value.clone())
    };
    let edits: Vec<(&'static str, Edit, Vec<&'static str>)> = vec![
        (
            "unknown field in a step",
            |f| f["scripts"]["scenarios"][0]["steps"][0]["eval"] = "x".into(),
            vec!["eval"],
        ),
        (
            "unknown top field",
            |f| f["extra"] = 1.into(),
            vec!["extra"],
        ),
        (
            "languages a list",
            |f| f["languages"] = serde_json::json!([]),
            vec!["languages"],
        ),
        (
            "unknown action",
            |f| f["scripts"]["scenarios"][0]["steps"][0]["actions"][0] = "explode".into(),
            vec!["explode"],
        ),
    ];
    let mut cases: Vec<(&'static str, String, Vec<&'static str>)> = edits
        .into_iter()
        .map(|(case, edit, names)| (case, teacher_edited(edit), names))
        .collect();
    cases.extend([
        ("empty", String::new(), vec!["scenario"]),
        (
            "truncated",
            teacher_json().to_string()[..60].to_string(),
            vec!["scenario"],
        ),
        (
            "trailing garbage",
            format!("{} ]", teacher_json()),
            vec!["scenario"],
        ),
        (
            "version as text",
            set("/version", "1".into()),
            vec!["version"],
        ),
        ("version 3", set("/version", 3.into()), vec!["3"]),
        (
            "negative version",
            set("/version", (-1).into()),
            vec!["version"],
        ),
        (
            "format a list",
            set("/format", serde_json::json!([1])),
            vec!["format"],
        ),
        (
            "wrong format",
            set("/format", "something".into()),
            vec!["something"],
        ),
        (
            "scripts a list",
            set("/scripts", serde_json::json!([])),
            vec!["scripts"],
        ),
        (
            "steps null",
            set("/scripts/scenarios/0/steps", serde_json::Value::Null),
            vec!["steps"],
        ),
        (
            "points -0.0",
            set(
                "/scripts/scenarios/0/steps/0/actions/0/send/grant/points",
                (-0.0).into(),
            ),
            vec!["points"],
        ),
        (
            "title a number",
            set("/languages/en/scenarios/teacher/title", 7.into()),
            vec!["title"],
        ),
        (
            "unknown language",
            teacher_edited(|f| f["languages"]["xx"] = f["languages"]["en"].clone()),
            vec!["xx"],
        ),
        (
            "wait overflow",
            set(
                "/scripts/scenarios/0/steps/1/actions/0/wait/ms",
                9_223_372_036_854_775_807_u64.into(),
            ),
            vec!["2"],
        ),
        (
            "markup",
            set(
                "/languages/en/scenarios/teacher/steps/0/narration",
                "<b>x</b>".into(),
            ),
            vec!["1"],
        ),
        (
            "too long",
            set(
                "/languages/en/scenarios/teacher/steps/0/narration",
                "a".repeat(3_000).into(),
            ),
            vec!["3,000"],
        ),
        (
            "unknown fact",
            set(
                "/languages/en/scenarios/teacher/steps/0/narration",
                "{password}".into(),
            ),
            vec!["password"],
        ),
        (
            "oversize",
            " ".repeat(MAX_TEACHER_BYTES * 157),
            vec!["10,289,152"],
        ),
    ]);
    cases
}

fn teach_links() -> Vec<(&'static str, String, Vec<&'static str>)> {
    vec![
        ("not base64", "not base64 at all!".into(), vec!["link"]),
        ("not deflate", link("plain text"), vec!["link"]),
        (
            "cut short",
            packed(teacher_json().to_string().as_bytes())[..30].to_string(),
            vec!["link"],
        ),
        ("deflate bomb", packed(&vec![b' '; 4 << 20]), vec!["65,536"]),
        ("too long", "A".repeat(12_001), vec!["12,001"]),
        (
            "malformed inside",
            packed(b"{\"format\": [true]}"),
            vec!["format"],
        ),
        ("not text inside", packed(&[0xff, 0xfe, 0xfd]), vec!["link"]),
    ]
}

fn course_files() -> Vec<(&'static str, String, String, Vec<&'static str>)> {
    let scripts = include_str!("../walkthrough/scenarios.json").to_string();
    let text = include_str!("../walkthrough/en.json").to_string();
    vec![
        (
            "scripts empty",
            String::new(),
            text.clone(),
            vec!["scenarios.json"],
        ),
        (
            "scripts cut",
            scripts[..scripts.len() / 2].to_string(),
            text.clone(),
            vec!["scenarios.json"],
        ),
        (
            "scripts a list",
            "[]".into(),
            text.clone(),
            vec!["scenarios.json"],
        ),
        (
            "scenarios text",
            r#"{"scenarios":"x","code":{}}"#.into(),
            text.clone(),
            vec!["scenarios.json"],
        ),
        (
            "words a number",
            scripts.clone(),
            r#"{"language":5,"scenarios":{}}"#.into(),
            vec!["en.json"],
        ),
        (
            "words another language",
            scripts.clone(),
            text.replacen(r#""language": "en""#, r#""language": "fa""#, 1),
            vec!["fa"],
        ),
    ]
}

#[test]
fn the_teacher_file_the_cases_change_is_accepted() {
    let text = teacher_json().to_string();
    assert!(read_scenarios(&text).is_ok(), "{text}");
}

#[test]
fn every_malformed_input_is_refused_in_the_pages_words() {
    let mut cases = 0;
    let mut found = Vec::new();
    for lang in Lang::ALL {
        for (case, text, names) in sessions() {
            found.extend(problems(case, lang, &session(lang, &text), &names));
            cases += 1;
        }
        for (case, token, names) in state_links() {
            found.extend(problems(case, lang, &state_link(lang, &token), &names));
            cases += 1;
        }
        for (case, text, names) in teacher_files() {
            found.extend(problems(case, lang, &teacher_file(lang, &text), &names));
            cases += 1;
        }
        for (case, token, names) in teach_links() {
            found.extend(problems(case, lang, &teach_link(lang, &token), &names));
            cases += 1;
        }
        for (case, scripts, text, names) in course_files() {
            found.extend(problems(case, lang, &course(lang, &scripts, &text), &names));
            cases += 1;
        }
    }
    assert!(cases >= 2 * 40, "{cases}");
    assert!(
        found.is_empty(),
        "{} refusals not plain:\n{}",
        found.len(),
        found.join("\n")
    );
}
