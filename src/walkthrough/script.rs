//! The scenario scripts (`walkthrough/scenarios.json`): for each section of the
//! article, the lab actions of each step, the question asked before the key step
//! and the challenge at the end. No text: words live in the language files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lab::Action;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scripts {
    pub scenarios: Vec<Scenario>,
    /// The lab's own source lines a step can show, by id.
    #[serde(default)]
    pub code: BTreeMap<String, Excerpt>,
}

/// A few lines of the lab's own Rust, exactly as they stand in `file` (a test
/// holds them to it), with the lines that decide the step marked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Excerpt {
    pub file: String,
    pub lines: Vec<String>,
    /// Lines to highlight, from 1 within the excerpt.
    pub highlight: Vec<usize>,
}

impl Excerpt {
    /// The lines without the indentation they all share, each with whether it
    /// is highlighted.
    pub fn shown(&self) -> Vec<(String, bool)> {
        let indent = self
            .lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let text = l.get(indent..).unwrap_or("").to_string();
                (text, self.highlight.contains(&(i + 1)))
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The article's section number: `s1` … `s11`.
    pub id: String,
    pub steps: Vec<Step>,
    /// What the learner is asked to make happen in a new sandbox afterwards:
    /// met when every check holds.
    pub challenge: Vec<Check>,
    /// Steps, from a new lab, that meet the challenge: what "show me" performs,
    /// and what the tests use to prove the challenge can be met.
    pub solution: Vec<Step>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What the step does, in order, on the lab as the previous step left it.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// Then let virtual time run until nothing more is due.
    #[serde(default)]
    pub idle: bool,
    /// Asked at this step; the next step reveals the answer.
    #[serde(default)]
    pub question: Option<Question>,
    /// The lab's own code that decides this step (an id in `Scripts::code`).
    #[serde(default)]
    pub code: Option<String>,
    /// The panels beside the stage the step needs, most needed first; the
    /// others stay out of the way until "Show everything". `None`: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shows: Option<Vec<Panel>>,
    /// What proves the step's point, as facts (`balance:alice`,
    /// `outcome:last`, `holds:at-most-once`): each is marked where the picture
    /// draws it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
}

/// A panel beside the stage in the walkthrough.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Panel {
    /// The three promises, each holding or broken.
    Promises,
    /// The balance after each attempt.
    Chart,
    /// One row per attempt.
    Timeline,
}

impl Panel {
    pub const ALL: [Panel; 3] = [Panel::Promises, Panel::Chart, Panel::Timeline];

    /// The stable name used in the scripts and in `data-panel`.
    pub fn code(self) -> &'static str {
        match self {
            Panel::Promises => "promises",
            Panel::Chart => "chart",
            Panel::Timeline => "timeline",
        }
    }
}

impl Step {
    /// Whether the step needs `panel` in view.
    pub fn shows(&self, panel: Panel) -> bool {
        self.shows.as_ref().is_none_or(|p| p.contains(&panel))
    }
}

/// A predict-then-reveal question. Its answer is a fact read from the world
/// after the next step, so it can never disagree with what the learner sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub answer: Answer,
    /// The facts a learner needs to answer it (`queue-capacity`,
    /// `points:last`): each must be on the screen when it is asked, stated by
    /// the narration, marked on the stage, or read into the question's own
    /// text, which may read these facts and no other. Empty when the answer
    /// needs no number; the course names it for every question, a teacher's
    /// scenario may leave it out (`None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub premise: Option<Vec<String>>,
}

impl Question {
    /// The facts named in its premise (none when it names none).
    pub fn premise(&self) -> &[String] {
        self.premise.as_deref().unwrap_or_default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Answer {
    /// Typed as a number.
    Number { fact: String },
    /// One of these codes; the right one is the fact's value.
    Choice { fact: String, choices: Vec<String> },
}

impl Answer {
    pub fn fact(&self) -> &str {
        match self {
            Answer::Number { fact } | Answer::Choice { fact, .. } => fact,
        }
    }
}

/// A challenge's test on the sandbox: `fact` compared with `than` (a number, a
/// code, or another fact).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub fact: String,
    pub is: Compare,
    pub than: Than,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compare {
    Equal,
    Greater,
    Less,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Than {
    Number(i64),
    Code(String),
    Fact(String),
}
