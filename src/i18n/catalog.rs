//! One language's texts as data (`texts/<tag>.json`): how numbers are written,
//! which plural forms the language has, and every message by its key. A
//! translator edits that file and no Rust; [`Catalog::say`] fills a message's
//! `{placeholders}` from the values the page passes.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A language file as written: its settings, then its messages.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageFile {
    language: String,
    /// The ten digits, 0 to 9, as this language writes numbers in prose.
    digits: String,
    /// Between whole and tenths (1.5), and between thousands (10,000).
    decimal: String,
    group: String,
    /// Which plural forms the language tells apart: see [`PluralRule`].
    plural: PluralRule,
    texts: BTreeMap<String, Message>,
}

/// How a language picks the form of a message that depends on a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluralRule {
    /// "one" for exactly 1, "other" for the rest (English and many more).
    OneIsOne,
    /// "one" for 0 and 1, "other" for the rest (French, Portuguese).
    OneIsZeroOrOne,
    /// One form for every count (Persian, Turkish, Chinese).
    None,
}

impl PluralRule {
    fn category(self, n: u64) -> &'static str {
        match (self, n) {
            (PluralRule::OneIsOne, 1) | (PluralRule::OneIsZeroOrOne, 0 | 1) => "one",
            _ => "other",
        }
    }
}

/// A message: one text, or forms chosen by a count (`"by"` names it; `"=0"`
/// matches exactly that count, then the rule's `"one"`, then `"other"`).
#[derive(Debug, Clone)]
pub enum Message {
    Text(String),
    Forms(BTreeMap<String, String>),
}

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Message, D::Error> {
        deserializer.deserialize_any(MessageVisitor)
    }
}

/// A message is a text or an object of forms; said so when it is neither
/// (serde's untagged enums say only "did not match any variant").
struct MessageVisitor;

impl<'de> serde::de::Visitor<'de> for MessageVisitor {
    type Value = Message;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a text, or its forms picked by a count")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Message, E> {
        Ok(Message::Text(text.to_owned()))
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, map: M) -> Result<Message, M::Error> {
        let forms = serde::de::value::MapAccessDeserializer::new(map);
        BTreeMap::deserialize(forms).map(Message::Forms)
    }
}

impl Message {
    /// Every text of the message, with the name of its form ("" for a plain one).
    pub fn texts(&self) -> Vec<(&str, &str)> {
        match self {
            Message::Text(text) => vec![("", text.as_str())],
            Message::Forms(forms) => forms
                .iter()
                .filter(|(form, _)| form.as_str() != "by")
                .map(|(form, text)| (form.as_str(), text.as_str()))
                .collect(),
        }
    }

    /// The count that picks the form, for a message with forms.
    pub fn by(&self) -> Option<&str> {
        match self {
            Message::Text(_) => None,
            Message::Forms(forms) => forms.get("by").map(String::as_str),
        }
    }
}

/// A value put into a message. What it is decides how it is written: a count
/// in the language's digits, data (points, keys) as the article's code writes
/// it, kept whole inside right-to-left prose.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    /// How many, in the language's digits; it can pick a plural form.
    Count(u64),
    /// A count with thousands grouped (10,000).
    Grouped(u64),
    /// A whole number a refusal names (a size, a limit, a value found), with
    /// its sign and thousands grouped (-2,147,483,648); a minus sign stays on
    /// its left in right-to-left text.
    Whole(i128),
    /// Points or a balance, in the language's digits like every number the
    /// page shows; a minus sign stays on its left in right-to-left text. (A
    /// right-to-left language keeps one whole, where it must, by writing
    /// U+2068 and U+2069 around its placeholder.)
    Amount(i64),
    /// An attempt as the timeline's first column names it: "#12".
    Attempt(u64),
    /// A key or an account, with characters that cannot be seen shown as signs.
    Id(&'a str),
    /// The virtual clock's time, as the clock line writes it.
    Time(u64),
    /// A length of virtual time in words ("2 hours 30 minutes").
    Span(u64),
    /// Milliseconds to a tenth of a second, in the language's digits ("1.5").
    Seconds(u64),
    /// Words already said (another message, or a name).
    Text(String),
}

/// Why a language file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// Not JSON of a language file's shape: the parser's words.
    Shape(String),
    /// The file says it is another language.
    WrongLanguage { expected: String, found: String },
    /// Digits are not ten characters, or a separator is not one.
    Numbers,
    /// A message with forms lacks `"by"` or `"other"`.
    Forms(String),
    /// A `{` without its `}`, or the reverse, in this message.
    Unbalanced(String),
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::Shape(words) => write!(f, "not a language file: {words}"),
            CatalogError::WrongLanguage { expected, found } => {
                write!(f, "the file for {expected} says it is {found}")
            }
            CatalogError::Numbers => write!(
                f,
                "`digits` must be ten characters, `decimal` and `group` one each"
            ),
            CatalogError::Forms(key) => {
                write!(f, "`{key}` has forms but no `by` or no `other`")
            }
            CatalogError::Unbalanced(key) => write!(f, "`{key}` has a brace without its pair"),
        }
    }
}

/// One language's texts, read and checked.
#[derive(Debug)]
pub struct Catalog {
    rtl: bool,
    digits: [char; 10],
    decimal: char,
    group: char,
    plural: PluralRule,
    messages: BTreeMap<String, Message>,
}

fn one_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

impl Catalog {
    /// Reads the file for the language tagged `tag`, written `rtl` or not.
    pub fn parse(tag: &str, rtl: bool, json: &str) -> Result<Catalog, CatalogError> {
        let file: LanguageFile =
            serde_json::from_str(json).map_err(|e| CatalogError::Shape(e.to_string()))?;
        if file.language != tag {
            return Err(CatalogError::WrongLanguage {
                expected: tag.to_string(),
                found: file.language,
            });
        }
        let digits: Vec<char> = file.digits.chars().collect();
        let (Ok(digits), Some(decimal), Some(group)) = (
            <[char; 10]>::try_from(digits),
            one_char(&file.decimal),
            one_char(&file.group),
        ) else {
            return Err(CatalogError::Numbers);
        };
        for (key, message) in &file.texts {
            if let Message::Forms(forms) = message {
                if !forms.contains_key("by") || !forms.contains_key("other") {
                    return Err(CatalogError::Forms(key.clone()));
                }
            }
            for (_, text) in message.texts() {
                if placeholders(text).is_none() {
                    return Err(CatalogError::Unbalanced(key.clone()));
                }
            }
        }
        Ok(Catalog {
            rtl,
            digits,
            decimal,
            group,
            plural: file.plural,
            messages: file.texts,
        })
    }

    /// A catalog with no message, in which every key is shown as itself.
    pub fn empty(rtl: bool) -> Catalog {
        Catalog {
            rtl,
            digits: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
            decimal: '.',
            group: ',',
            plural: PluralRule::OneIsOne,
            messages: BTreeMap::new(),
        }
    }

    /// Every message by its key, for the tests that compare languages.
    pub fn messages(&self) -> &BTreeMap<String, Message> {
        &self.messages
    }

    /// A message that takes no value. A key the file lacks is shown as itself,
    /// in brackets, so a gap is seen, not hidden (the tests name every gap).
    pub fn word<'a>(&'a self, key: &'a str) -> &'a str {
        match self.messages.get(key) {
            Some(Message::Text(text)) => text,
            Some(Message::Forms(forms)) => forms.get("other").map_or(key, String::as_str),
            None => key,
        }
    }

    /// A message with its placeholders filled from `args`.
    pub fn say(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let Some(message) = self.messages.get(key) else {
            return format!("[{key}]");
        };
        let template = match message {
            Message::Text(text) => text.as_str(),
            Message::Forms(forms) => self.form(forms, args),
        };
        self.fill(template, args)
    }

    fn form<'m>(&self, forms: &'m BTreeMap<String, String>, args: &[(&str, Arg)]) -> &'m str {
        let count = forms.get("by").and_then(|by| {
            args.iter().find_map(|(name, arg)| match arg {
                Arg::Count(n) | Arg::Grouped(n) | Arg::Attempt(n) if name == by => Some(*n),
                Arg::Whole(n) if name == by => u64::try_from(*n).ok(),
                _ => None,
            })
        });
        let exact = count.and_then(|n| forms.get(&format!("={n}")));
        let category = count.and_then(|n| forms.get(self.plural.category(n)));
        exact
            .or(category)
            .or_else(|| forms.get("other"))
            .map_or("", String::as_str)
    }

    fn fill(&self, template: &str, args: &[(&str, Arg)]) -> String {
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                return out;
            };
            let name = &after[..close];
            match args.iter().find(|(n, _)| *n == name) {
                Some((_, arg)) => self.write(arg, &mut out),
                // Seen on the page and named by the tests, never dropped.
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }

    fn write(&self, arg: &Arg, out: &mut String) {
        match arg {
            Arg::Count(n) => out.push_str(&self.number(*n)),
            Arg::Grouped(n) => out.push_str(&self.grouped((*n).into())),
            Arg::Whole(n) if *n < 0 && self.rtl => {
                out.push_str(&format!("\u{2066}{}\u{2069}", self.grouped(*n)))
            }
            Arg::Whole(n) => out.push_str(&self.grouped(*n)),
            Arg::Amount(n) if *n < 0 && self.rtl => {
                out.push_str(&format!("\u{2066}{}\u{2069}", self.number(n)))
            }
            Arg::Amount(n) => out.push_str(&self.number(n)),
            Arg::Attempt(n) => {
                // Whole and left to right even before a neutral ("#2)").
                let n = self.number(n);
                if self.rtl {
                    out.push_str(&format!("\u{2066}#{n}\u{2069}"));
                } else {
                    out.push_str(&format!("#{n}"));
                }
            }
            Arg::Id(text) => {
                out.push_str(&format!("\u{2068}{}\u{2069}", crate::lab::visible(text)))
            }
            Arg::Time(ms) => out.push_str(&self.clock_time(*ms)),
            Arg::Span(ms) => out.push_str(&self.span(*ms)),
            Arg::Seconds(ms) => out.push_str(&self.seconds(*ms)),
            Arg::Text(text) => out.push_str(text),
        }
    }

    /// Data inside right-to-left prose is isolated, so it reads left to right.
    fn ltr(&self, text: &str, out: &mut String) {
        if self.rtl {
            out.push('\u{2068}');
            out.push_str(text);
            out.push('\u{2069}');
        } else {
            out.push_str(text);
        }
    }

    /// A number in this language's digits (a minus sign kept as it is).
    pub fn number(&self, n: impl std::fmt::Display) -> String {
        n.to_string()
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) => self.digits[d as usize],
                None => c,
            })
            .collect()
    }

    /// 10,000: thousands grouped, in this language's digits and separator.
    pub fn grouped(&self, n: i128) -> String {
        let digits = n.unsigned_abs().to_string();
        let mut out = String::with_capacity(digits.len() * 2);
        if n < 0 {
            out.push('-');
        }
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(self.group);
            }
            out.push(c);
        }
        self.number(out)
    }

    /// A number as a file wrote it ("-0.5", "2.5e3"): in this language's
    /// digits and decimal mark, kept whole in right-to-left text.
    pub fn written_number(&self, text: &str) -> String {
        let local = self.number(text.replace('.', &self.decimal.to_string()));
        let mut out = String::with_capacity(local.len() + 6);
        self.ltr(&local, &mut out);
        out
    }

    /// Milliseconds as seconds to a tenth ("1.2"), from integers only: the
    /// float printer would cost the bundle about 10 KB.
    fn seconds(&self, ms: u64) -> String {
        let tenths = (ms + 50) / 100;
        format!(
            "{}{}{}",
            self.number(tenths / 10),
            self.decimal,
            self.number(tenths % 10)
        )
    }

    /// The virtual clock for reading: seconds under an hour ("12.3 s"), then
    /// hours, minutes and seconds ("02:00:00.1"), with days in front from a
    /// day on ("1 d 02:00:00.1").
    pub fn clock_time(&self, ms: u64) -> String {
        let tenths = (ms + 50) / 100;
        if tenths < 36_000 {
            return self.say("time.seconds", &[("s", Arg::Seconds(ms))]);
        }
        let (days, rest) = (tenths / 864_000, tenths % 864_000);
        let hms = format!(
            "{:02}:{:02}:{:02}{}{}",
            rest / 36_000,
            rest / 600 % 60,
            rest / 10 % 60,
            self.decimal,
            rest % 10
        );
        let mut hms_text = String::new();
        self.ltr(&self.number(hms), &mut hms_text);
        if days == 0 {
            return hms_text;
        }
        self.say(
            "time.days",
            &[("days", Arg::Count(days)), ("time", Arg::Text(hms_text))],
        )
    }

    /// A length of virtual time in words, leaving out the parts that are zero.
    fn span(&self, ms: u64) -> String {
        let tenths = (ms + 50) / 100;
        let parts = [
            ("span.days", tenths / 864_000 * 10),
            ("span.hours", tenths / 36_000 % 24 * 10),
            ("span.minutes", tenths / 600 % 60 * 10),
            ("span.seconds", tenths % 600),
        ];
        let said: Vec<String> = parts
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(key, tenths)| self.span_part(key, tenths))
            .collect();
        if said.is_empty() {
            return self.span_part("span.seconds", 0);
        }
        said.join(self.word("span.and"))
    }

    /// One part of a span: a whole count picks its plural form; a part with
    /// tenths ("1.5 seconds") is said with the form for many.
    fn span_part(&self, key: &str, tenths: u64) -> String {
        let n = if tenths.is_multiple_of(10) {
            Arg::Count(tenths / 10)
        } else {
            Arg::Seconds(tenths * 100)
        };
        self.say(key, &[("n", n)])
    }
}

/// The placeholder names in a text, or `None` when a brace has no pair.
pub fn placeholders(text: &str) -> Option<Vec<&str>> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return None;
        }
        let after = &rest[open + 1..];
        let close = after.find(['{', '}'])?;
        if after[close..].starts_with('{') {
            return None;
        }
        names.push(&after[..close]);
        rest = &after[close + 1..];
    }
    Some(names)
}
