//! A language file (`walkthrough/<lang>.json`): every word of the walkthrough in
//! one language, so a translator edits one file and no Rust. Numbers are never
//! written in it: `{fact}` placeholders read them from the world at that step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::fact::{Fact, FactError, Value};
use crate::lab::LabState;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageFile {
    /// The language's tag (`en`, `fa`), checked against the file's name.
    pub language: String,
    pub scenarios: BTreeMap<String, ScenarioText>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioText {
    /// The article section's title.
    pub title: String,
    /// One per step of the script, in order.
    pub steps: Vec<StepText>,
    /// What to make happen in the sandbox.
    pub challenge: String,
    /// A nudge towards it, without the answer.
    pub hint: String,
    /// Said when the lab sees the challenge met.
    pub challenge_met: String,
}

impl ScenarioText {
    /// The title as the page shows it: by the lab's one rule for text it did
    /// not write (`lab::visible`), so a character that cannot be seen, or one
    /// that turns the text around, is shown as its code (`⟨U+202E⟩`).
    pub fn shown_title(&self) -> String {
        crate::lab::visible(&self.title).into_owned()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepText {
    /// What the step shows, read after its actions ran.
    pub narration: String,
    /// The question, for a step that asks one.
    #[serde(default)]
    pub question: Option<String>,
    /// A label per choice code, for a choice question.
    #[serde(default)]
    pub choices: BTreeMap<String, String>,
    /// Said with the feedback, read from the world as the next step leaves it.
    #[serde(default)]
    pub explain: Option<String>,
    /// Said after a wrong answer: what to think about, written for this
    /// question (no number of its own: it leads to the answer, not to it).
    #[serde(default)]
    pub hint: Option<String>,
}

/// Why a piece of text could not be filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// A `{` with no `}` after it, or a `}` with no `{` before it.
    Unbalanced,
    /// A number written in the text instead of read from the world.
    Digit(char),
    Fact(FactError),
    /// Only numbers are stated in narration; codes are for answers.
    NotANumber(String),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::Unbalanced => write!(f, "a brace without its pair"),
            TemplateError::Digit(c) => {
                write!(f, "the digit `{c}` is written by hand; use a fact")
            }
            TemplateError::Fact(e) => write!(f, "{e}"),
            TemplateError::NotANumber(name) => write!(f, "`{name}` is not a number"),
        }
    }
}

/// Fills `{fact}` placeholders from the lab as it is, numbers written by
/// `number` (the language's digits). Text outside placeholders may hold no
/// digit at all, so every number a learner reads is the world's.
pub fn render(
    template: &str,
    state: &LabState,
    number: impl Fn(i64) -> String,
) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(template.len());
    walk(template, |piece| {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Fact(name) => {
                let fact = Fact::parse(name).map_err(TemplateError::Fact)?;
                match fact.read(state, name).map_err(TemplateError::Fact)? {
                    Value::Number(n) => out.push_str(&number(n)),
                    Value::Code(_) => return Err(TemplateError::NotANumber(name.to_string())),
                }
            }
        }
        Ok(())
    })?;
    Ok(out)
}

/// The facts a template's placeholders name, in order, without reading any
/// world: what a check needs before the text is told. Refused as [`render`]
/// refuses it: a brace without its pair, a digit written by hand.
pub fn placeholders(template: &str) -> Result<Vec<&str>, TemplateError> {
    let mut names = Vec::new();
    walk(template, |piece| {
        if let Piece::Fact(name) = piece {
            names.push(name);
        }
        Ok(())
    })?;
    Ok(names)
}

/// A template's pieces: text as written, and the name inside a placeholder.
enum Piece<'a> {
    Text(&'a str),
    Fact(&'a str),
}

/// Walks a template piece by piece, in order, refusing unbalanced braces and
/// any digit outside a placeholder.
fn walk<'a>(
    template: &'a str,
    mut each: impl FnMut(Piece<'a>) -> Result<(), TemplateError>,
) -> Result<(), TemplateError> {
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        each(Piece::Text(literal(&rest[..open])?))?;
        if rest[open..].starts_with('}') {
            return Err(TemplateError::Unbalanced);
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or(TemplateError::Unbalanced)?;
        let name = &after[..close];
        if name.contains('{') {
            return Err(TemplateError::Unbalanced);
        }
        each(Piece::Fact(name))?;
        rest = &after[close + 1..];
    }
    each(Piece::Text(literal(rest)?))
}

fn literal(text: &str) -> Result<&str, TemplateError> {
    match text.chars().find(|c| c.is_numeric()) {
        Some(digit) => Err(TemplateError::Digit(digit)),
        None => Ok(text),
    }
}
