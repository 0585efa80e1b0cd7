//! A teacher's own scenario: one script and its words in one language or
//! both, in one file of the same shape as the course's (`scenarios.json` plus
//! one language file each, under a format name and version), so a file a
//! teacher shares can later join the course by a pull request. Whatever it
//! comes from (the recorder, a link, a file someone sent) it is checked whole
//! before anything is shown: a file that fails any check is refused with the
//! reason and nothing of it is used.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::handout::handout_of;
use super::narration::{LanguageFile, ScenarioText};
use super::script::{Scenario, Scripts};
use super::tour::{check_script, check_text, ContentError, Rules};
use crate::i18n::Lang;
use crate::lab::{read_json, ReadError};

/// What a teacher's file says it is.
pub const TEACHER_FORMAT: &str = "idempotency-lab-scenario";
/// The version this lab writes and reads. 2: messages take time on the
/// network; a version 1 file, made when they arrived at once, is read as one
/// whose first step sets a transit of 0 first.
pub const TEACHER_VERSION: u32 = 2;
/// The id of a teacher's scenario in its file (the course's are `s1`…).
pub const TEACHER_ID: &str = "teacher";
/// The largest file the lab reads (a recorded scenario is a few kilobytes).
pub const MAX_TEACHER_BYTES: usize = 64 * 1024;
/// Steps in one scenario, at most.
pub const MAX_TEACHER_STEPS: usize = 40;
/// Characters in one piece of text (a narration, a question, a title), at most.
pub const MAX_PIECE_CHARS: usize = 2_000;

/// A teacher's scenario as written to a file and into a link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeacherFile {
    pub format: String,
    pub version: u32,
    /// Exactly as `walkthrough/scenarios.json`, with one scenario.
    pub scripts: Scripts,
    /// Exactly as `walkthrough/<lang>.json`, by language tag.
    pub languages: BTreeMap<String, LanguageFile>,
}

/// A teacher's file that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeacherScenario {
    file: TeacherFile,
}

/// Why a teacher's file is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeacherError {
    TooLarge {
        bytes: usize,
        limit: usize,
    },
    /// Not JSON of the file's shape: where, and what is wrong.
    Parse(ReadError),
    /// Not a teacher's scenario at all.
    Format(String),
    /// Written by a lab newer (or older) than this one.
    Version(u32),
    /// A file holds exactly one scenario, named `teacher`.
    Scenarios(usize),
    Id(String),
    TooManySteps(usize),
    /// The file has words in no language.
    NoLanguage,
    /// A language the lab does not have, or a file that names another one.
    Language(String),
    /// A teacher's steps show none of the lab's code.
    Code,
    /// A piece of text is longer than any narration needs.
    TooLong {
        piece: Piece,
        chars: usize,
    },
    /// Markup in a piece of text: text is shown as text, never as a page.
    Markup(Piece),
    /// Whatever the course's files are held to (facts, steps, actions the lab
    /// refuses, narration that cannot be told), in that language.
    Content(Option<Lang>, ContentError),
}

impl std::fmt::Display for TeacherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TeacherError::TooLarge { bytes, limit } => write!(
                f,
                "the scenario is {} KB; the lab reads at most {} KB",
                bytes.div_ceil(1024),
                limit / 1024
            ),
            TeacherError::Parse(error) => write!(f, "not a scenario file: {error:?}"),
            TeacherError::Format(found) => {
                write!(f, "the file says it is `{found}`, not `{TEACHER_FORMAT}`")
            }
            TeacherError::Version(v) => write!(
                f,
                "the file is version {v}; this lab reads version {TEACHER_VERSION}"
            ),
            TeacherError::Scenarios(n) => {
                write!(
                    f,
                    "the file holds {n} scenarios; a teacher's file holds one"
                )
            }
            TeacherError::Id(id) => write!(f, "the scenario is `{id}`, not `{TEACHER_ID}`"),
            TeacherError::TooManySteps(n) => write!(
                f,
                "the scenario has {n} steps; at most {MAX_TEACHER_STEPS} are played"
            ),
            TeacherError::NoLanguage => write!(f, "the scenario has no words in any language"),
            TeacherError::Language(tag) => write!(f, "the lab has no language `{tag}`"),
            TeacherError::Code => write!(f, "a teacher's scenario shows none of the lab's code"),
            TeacherError::TooLong { piece, chars } => write!(
                f,
                "{piece} has {chars} characters; at most {MAX_PIECE_CHARS} are shown"
            ),
            TeacherError::Markup(piece) => {
                write!(f, "{piece} holds markup; a scenario's words are plain text")
            }
            TeacherError::Content(Some(lang), error) => write!(f, "{}: {error}", lang.tag()),
            TeacherError::Content(None, error) => write!(f, "{error}"),
        }
    }
}

impl TeacherScenario {
    /// Reads and checks a file's text.
    pub fn parse(text: &str) -> Result<TeacherScenario, TeacherError> {
        if text.len() > MAX_TEACHER_BYTES {
            return Err(TeacherError::TooLarge {
                bytes: text.len(),
                limit: MAX_TEACHER_BYTES,
            });
        }
        let file: TeacherFile = read_json(text).map_err(TeacherError::Parse)?;
        TeacherScenario::check(file)
    }

    /// Checks a file already read: everything [`TeacherScenario::parse`]
    /// holds it to but its size.
    pub fn check(mut file: TeacherFile) -> Result<TeacherScenario, TeacherError> {
        if file.format != TEACHER_FORMAT {
            return Err(TeacherError::Format(file.format));
        }
        if file.version == 1 {
            if let Some(first) = file
                .scripts
                .scenarios
                .first_mut()
                .and_then(|s| s.steps.first_mut())
            {
                first.actions.insert(0, crate::lab::before_transit());
            }
            file.version = TEACHER_VERSION;
        }
        if file.version != TEACHER_VERSION {
            return Err(TeacherError::Version(file.version));
        }
        let [script] = file.scripts.scenarios.as_slice() else {
            return Err(TeacherError::Scenarios(file.scripts.scenarios.len()));
        };
        if script.id != TEACHER_ID {
            return Err(TeacherError::Id(script.id.clone()));
        }
        if script.steps.len() > MAX_TEACHER_STEPS {
            return Err(TeacherError::TooManySteps(script.steps.len()));
        }
        if !file.scripts.code.is_empty() || script.steps.iter().any(|s| s.code.is_some()) {
            return Err(TeacherError::Code);
        }
        check_script(script, Rules::Teacher).map_err(|e| TeacherError::Content(None, e))?;
        if file.languages.is_empty() {
            return Err(TeacherError::NoLanguage);
        }
        for (tag, words) in &file.languages {
            let lang = Lang::from_tag(tag).ok_or_else(|| TeacherError::Language(tag.clone()))?;
            if words.language != *tag {
                return Err(TeacherError::Language(words.language.clone()));
            }
            let content = |e| TeacherError::Content(Some(lang), e);
            let text = match words.scenarios.keys().find(|id| *id != TEACHER_ID) {
                Some(extra) => return Err(content(ContentError::ExtraScenario(extra.clone()))),
                None => words
                    .scenarios
                    .get(TEACHER_ID)
                    .ok_or_else(|| content(ContentError::MissingScenario(TEACHER_ID.into())))?,
            };
            plain(lang, text)?;
            check_text(script, text, Rules::Teacher).map_err(content)?;
            // Played whole and told in this language: every action accepted,
            // every fact read where it is used, every answer revealed.
            handout_of(script, text, |n| n.to_string()).map_err(content)?;
        }
        Ok(TeacherScenario { file })
    }

    pub fn script(&self) -> &Scenario {
        &self.file.scripts.scenarios[0]
    }

    /// The languages it is written in, in the lab's order.
    pub fn languages(&self) -> Vec<Lang> {
        Lang::ALL
            .into_iter()
            .filter(|l| self.file.languages.contains_key(l.tag()))
            .collect()
    }

    /// Its words in `lang`, or, when it has none in `lang`, in the language it
    /// has: which one is returned beside them, so the page can mark it.
    pub fn words(&self, lang: Lang) -> (Lang, &ScenarioText) {
        let shown = if self.file.languages.contains_key(lang.tag()) {
            lang
        } else {
            self.languages()[0]
        };
        let text = &self.file.languages[shown.tag()].scenarios[TEACHER_ID];
        (shown, text)
    }

    /// The title, in `lang` when it has one, as written.
    pub fn title(&self, lang: Lang) -> &str {
        &self.words(lang).1.title
    }

    /// The same, as the page shows it (see [`ScenarioText::shown_title`]).
    pub fn shown_title(&self, lang: Lang) -> String {
        self.words(lang).1.shown_title()
    }

    pub fn file(&self) -> &TeacherFile {
        &self.file
    }

    /// The file's text, as downloaded and as put into a link.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.file).expect("a checked file serializes")
    }
}

/// A piece of a teacher's words, named by its language, its step (from 1)
/// when it is a step's, and its field in the file (`narration`, `choices.yes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub lang: Lang,
    pub step: Option<usize>,
    pub field: String,
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(n) => write!(f, "{}: step {n}'s {}", self.lang.tag(), self.field),
            None => write!(f, "{}: the {}", self.lang.tag(), self.field),
        }
    }
}

/// Refuses text that is too long or holds markup, naming the piece.
fn plain(lang: Lang, text: &ScenarioText) -> Result<(), TeacherError> {
    let whole = |field: &str| Piece {
        lang,
        step: None,
        field: field.into(),
    };
    let mut pieces: Vec<(Piece, &str)> = vec![
        (whole("title"), &text.title),
        (whole("challenge"), &text.challenge),
        (whole("hint"), &text.hint),
        (whole("challenge_met"), &text.challenge_met),
    ];
    for (n, step) in text.steps.iter().enumerate() {
        let at = |field: String| Piece {
            lang,
            step: Some(n + 1),
            field,
        };
        pieces.push((at("narration".into()), &step.narration));
        for (field, value) in [
            ("question", &step.question),
            ("explain", &step.explain),
            ("hint", &step.hint),
        ] {
            if let Some(value) = value {
                pieces.push((at(field.into()), value));
            }
        }
        for (code, label) in &step.choices {
            pieces.push((at(format!("choices.{code}")), label));
        }
    }
    for (piece, value) in pieces {
        let chars = value.chars().count();
        if chars > MAX_PIECE_CHARS {
            return Err(TeacherError::TooLong { piece, chars });
        }
        if has_markup(value) {
            return Err(TeacherError::Markup(piece));
        }
    }
    Ok(())
}

/// A tag, a comment or a declaration: `<` followed by a letter, `/`, `!` or
/// `?`. "a < b" and "<-" are words, not markup.
fn has_markup(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!' | b'?')))
}

#[cfg(test)]
mod tests {
    use super::has_markup;

    #[test]
    fn markup_is_a_tag_not_a_less_than() {
        for tagged in [
            "<b>x</b>",
            "a <script>",
            "</p>",
            "<!-- c -->",
            "<?xml",
            "x<i",
        ] {
            assert!(has_markup(tagged), "{tagged}");
        }
        for plain in ["a < b", "<- back", "<3", "", "<", "1 <2"] {
            assert!(!has_markup(plain), "{plain}");
        }
    }
}
