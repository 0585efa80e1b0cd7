//! The words of the teacher's own scenarios (keys `teacher.*` in
//! `texts/<tag>.json`): the recorder, the list of a person's scenarios, and
//! what the page says when one is shared, opened or refused.

use std::ops::Deref;

use super::catalog::{Arg, Catalog};
use super::declare::words;
use crate::walkthrough::{FactError, RecordError, TemplateError};

words!(
    /// The teacher panel's messages that take no value.
    TeacherWords, "teacher." {
    title, intro, record, mark, undo, preview, finish, stop, stop_confirm, narration_en,
    narration_fa, fact_label, insert_fact, facts_hint, ask, question_fact, question_en,
    question_fa, explain_en, explain_fa, title_en, title_fa, challenge_en, challenge_fa,
    untitled, open_file, mine, none, play, edit, download, download_all, copy_link, copied,
    not_copied, delete, label, saved, link_label, languages_label, editing, kept_unread,
    not_kept,
});

pub struct TeacherTexts {
    lang: crate::i18n::Lang,
    catalog: &'static Catalog,
    words: TeacherWords,
}

impl Deref for TeacherTexts {
    type Target = TeacherWords;

    fn deref(&self) -> &TeacherWords {
        &self.words
    }
}

impl TeacherTexts {
    pub(super) fn new(lang: crate::i18n::Lang, catalog: &'static Catalog) -> TeacherTexts {
        TeacherTexts {
            lang,
            catalog,
            words: TeacherWords::read(catalog),
        }
    }

    /// While recording: the steps marked, and the actions the next mark takes.
    pub fn recording(&self, steps: usize, actions: usize) -> String {
        self.catalog.say(
            "teacher.recording",
            &[
                ("steps", Arg::Count(steps as u64)),
                ("actions", Arg::Count(actions as u64)),
            ],
        )
    }

    /// A scenario (from a link, a file or the recorder) was refused: why.
    pub fn refused(&self, reason: &str) -> String {
        self.catalog.say(
            "teacher.refused",
            &[("reason", Arg::Text(reason.to_owned()))],
        )
    }

    /// The link's length beside the most a link holds.
    pub fn link_size(&self, chars: usize, limit: usize) -> String {
        self.catalog.say(
            "teacher.link_size",
            &[
                ("n", Arg::Grouped(chars as u64)),
                ("limit", Arg::Grouped(limit as u64)),
            ],
        )
    }

    /// Too long for a link: the file carries it.
    pub fn link_too_long(&self, chars: usize, limit: usize) -> String {
        self.catalog.say(
            "teacher.link_too_long",
            &[
                ("n", Arg::Grouped(chars as u64)),
                ("limit", Arg::Grouped(limit as u64)),
            ],
        )
    }

    /// A step count, for the list of scenarios.
    pub fn steps(&self, n: usize) -> String {
        self.catalog
            .say("teacher.steps", &[("n", Arg::Count(n as u64))])
    }

    /// Opened from a link or a file, and added to the person's scenarios
    /// (`title` as shown: `TeacherScenario::shown_title`).
    pub fn opened(&self, title: &str) -> String {
        self.catalog
            .say("teacher.opened", &[("title", Arg::Text(title.to_owned()))])
    }

    /// The player's title for a teacher's scenario.
    pub fn player_title(&self, title: &str) -> String {
        self.catalog.say(
            "teacher.player_title",
            &[("title", Arg::Text(title.to_owned()))],
        )
    }

    /// A scenario written in another language than the page's.
    pub fn written_in(&self, language: &str) -> String {
        self.catalog.say(
            "teacher.written_in",
            &[("language", Arg::Text(language.to_owned()))],
        )
    }

    /// A language's name in the page's language.
    pub fn language(&self, lang: crate::i18n::Lang) -> &'static str {
        self.catalog.word(if lang == crate::i18n::Lang::Fa {
            "language_name.persian"
        } else {
            "language_name.english"
        })
    }

    /// Why a mark, an undo, a preview or the end of a recording was refused,
    /// in the page's words.
    pub fn record_error(&self, error: &RecordError) -> String {
        let say = |key: &str, args: &[(&str, Arg)]| self.catalog.say(key, args);
        let text = |s: &str| Arg::Text(s.to_owned());
        match error {
            RecordError::NoNarration => say("teacher.error.no_narration", &[]),
            RecordError::Languages { expected } => {
                let names: Vec<_> = expected.iter().map(|l| self.language(*l)).collect();
                say(
                    "teacher.error.languages",
                    &[(
                        "languages",
                        text(&names.join(self.catalog.word("separator"))),
                    )],
                )
            }
            RecordError::Template { lang, piece, error } => {
                let piece = self.catalog.word(match *piece {
                    "explanation" => "teacher.piece.explanation",
                    _ => "teacher.piece.narration",
                });
                let at = [
                    ("language", text(self.language(*lang))),
                    ("piece", text(piece)),
                ];
                let with = |name: &'static str, value: String| {
                    let mut args = at.to_vec();
                    args.push((name, Arg::Text(value)));
                    args
                };
                match error {
                    TemplateError::Unbalanced => say("teacher.error.unbalanced", &at),
                    TemplateError::Digit(c) => {
                        say("teacher.error.digit", &with("digit", c.to_string()))
                    }
                    TemplateError::NotANumber(fact) => {
                        say("teacher.error.not_a_number", &with("fact", fact.clone()))
                    }
                    TemplateError::Fact(FactError::Missing(fact)) => {
                        say("teacher.error.missing_fact", &with("fact", fact.clone()))
                    }
                    TemplateError::Fact(FactError::Unknown(fact) | FactError::NotDrawn(fact)) => {
                        say("teacher.error.unknown_fact", &with("fact", fact.clone()))
                    }
                }
            }
            RecordError::Title { lang, error } => say(
                "teacher.error.title",
                &[
                    ("language", text(self.language(*lang))),
                    ("problem", text(&self.lang.texts().field_error(*error))),
                ],
            ),
            RecordError::Question(_) => say("teacher.error.question", &[]),
            RecordError::NoQuestionText(lang) => say(
                "teacher.error.no_question_text",
                &[("language", text(self.language(*lang)))],
            ),
            RecordError::Unanswered { step, fact } => say(
                "teacher.error.unanswered",
                &[("step", Arg::Count(*step as u64)), ("fact", text(fact))],
            ),
            RecordError::HistoryChanged => say("teacher.error.history_changed", &[]),
            RecordError::TooManySteps => say(
                "teacher.error.too_many_steps",
                &[(
                    "n",
                    Arg::Count(crate::walkthrough::MAX_TEACHER_STEPS as u64),
                )],
            ),
            RecordError::NoSteps => say("teacher.error.no_steps", &[]),
            RecordError::QuestionLast => say("teacher.error.question_last", &[]),
            RecordError::Scenario(error) => say(
                "teacher.error.scenario",
                &[("reason", text(&self.lang.texts().teacher_error(error)))],
            ),
        }
    }
}
