//! Why a file or a link was refused, one sentence in the page's language: a
//! session (file or `#state=` link), a teacher's scenario (file, list or
//! `#teach=` link) and the course's files. Each error is data; this is the one
//! place that words it, so no parser's English and no Rust name reaches the page.

use super::catalog::Arg;
use super::texts::Texts;
use crate::lab::{
    Expected, FieldProblem, Found, ReadError, SessionError, MAX_ACTIONS, MAX_FIELD_CHARS,
    MAX_SENDS, MAX_SESSION_BYTES,
};
use crate::walkthrough::{
    ContentError, FactError, LinkError, Piece, ShelfError, TeacherError, TemplateError,
    MAX_LINK_CHARS, MAX_PIECE_CHARS, MAX_SHELF, MAX_TEACHER_BYTES, MAX_TEACHER_STEPS, TEACHER_ID,
    TEACHER_VERSION,
};

/// A count or a size in a refusal: grouped as the page writes numbers.
fn whole(n: impl TryInto<i128>) -> Arg<'static> {
    Arg::Whole(n.try_into().unwrap_or(i128::MAX))
}

impl Texts {
    fn said(&self, key: &str, args: &[(&str, Arg)]) -> String {
        self.catalog().say(key, args)
    }

    /// What a field holds where it should not.
    fn found(&self, found: &Found) -> String {
        match found {
            Found::Whole(n) => self.said("refusal.found.number", &[("value", whole(*n))]),
            Found::Fraction(written) => self.said(
                "refusal.found.number",
                &[("value", Arg::Text(self.catalog().written_number(written)))],
            ),
            Found::Text(text) => self.said("refusal.found.text", &[("value", Arg::Id(text))]),
            Found::YesNo(true) => self.said("refusal.found.true", &[]),
            Found::YesNo(false) => self.said("refusal.found.false", &[]),
            Found::Null => self.said("refusal.found.null", &[]),
            Found::List => self.said("refusal.found.list", &[]),
            Found::Object => self.said("refusal.found.object", &[]),
            Found::Value => self.said("refusal.found.value", &[]),
        }
    }

    /// What a file's field gets wrong.
    fn field_problem(&self, problem: &FieldProblem) -> String {
        let named = |key: &str, name: &str| self.said(key, &[("name", Arg::Id(name))]);
        match problem {
            FieldProblem::UnknownField(name) => named("session_error.problem.unknown_field", name),
            FieldProblem::UnknownName(name) => named("session_error.problem.unknown_name", name),
            FieldProblem::Missing(name) => named("session_error.problem.missing", name),
            FieldProblem::Twice(name) => named("refusal.problem.twice", name),
            FieldProblem::Wrong { found, expected } => {
                let found = Arg::Text(self.found(found));
                let fits = match expected {
                    Expected::Whole { min, max } => self.said(
                        "session_error.problem.whole",
                        &[("min", whole(*min)), ("max", whole(*max))],
                    ),
                    Expected::Text => self.said("session_error.problem.text", &[]),
                    Expected::YesNo => self.said("session_error.problem.yes_no", &[]),
                    Expected::List => self.said("refusal.problem.list", &[]),
                    Expected::Object => self.said("refusal.problem.object", &[]),
                    Expected::Other => {
                        return self.said("refusal.problem.not_here", &[("found", found)])
                    }
                };
                self.said(
                    "session_error.problem.wrong",
                    &[("found", found), ("fits", Arg::Text(fits))],
                )
            }
            FieldProblem::Unreadable => self.said("refusal.problem.unreadable", &[]),
        }
    }

    /// Where a field is and what it breaks: "action 2, field send.grant.points".
    fn bad_field(&self, path: &str, problem: &FieldProblem) -> String {
        let place = match crate::lab::field_place(path) {
            (Some(n), "") => self.said("session_error.place.action", &[("n", whole(n))]),
            (Some(n), field) => self.said(
                "session_error.place.action_field",
                &[("n", whole(n)), ("field", Arg::Id(field))],
            ),
            (None, "") => self.said("session_error.place.file", &[]),
            (None, field) => self.said("session_error.place.field", &[("field", Arg::Id(field))]),
        };
        let problem = Arg::Text(self.field_problem(problem));
        self.said(
            "session_error.bad_field",
            &[("place", Arg::Text(place)), ("problem", problem)],
        )
    }

    pub fn session_error(&self, error: &SessionError) -> String {
        match error {
            SessionError::BadField { path, problem } => self.bad_field(path, problem),
            SessionError::NoRoomForTime => self.said(
                "session_error.no_room_for_time",
                &[("max", whole(MAX_ACTIONS))],
            ),
            SessionError::Replay(e) => self.said(
                "session_error.replay",
                &[
                    ("n", whole(e.index + 1)),
                    ("error", Arg::Text(self.lab_error(&e.error))),
                ],
            ),
            SessionError::TooLarge { bytes } => self.said(
                "session_error.too_large",
                &[("bytes", whole(*bytes)), ("max", whole(MAX_SESSION_BYTES))],
            ),
            SessionError::UnsupportedVersion(v) => self.said(
                "session_error.unsupported_version",
                &[
                    ("version", whole(*v)),
                    ("supported", whole(crate::lab::SESSION_VERSION)),
                ],
            ),
            SessionError::TooManyActions(n) => self.said(
                "session_error.too_many_actions",
                &[("n", whole(*n)), ("max", whole(MAX_ACTIONS))],
            ),
            SessionError::TooManySends(n) => self.said(
                "session_error.too_many_sends",
                &[("n", whole(*n)), ("max", whole(MAX_SENDS))],
            ),
            SessionError::TextTooLong { index } => self.said(
                "session_error.text_too_long",
                &[("n", whole(index + 1)), ("max", whole(MAX_FIELD_CHARS))],
            ),
            // The parser's own words ("EOF while parsing…") mean nothing to a learner.
            SessionError::NotJson(_) => self.said("session_error.not_json", &[]),
            SessionError::BadLink => self.said("session_error.bad_link", &[]),
            SessionError::WrongFormat => self.said("session_error.wrong_format", &[]),
        }
    }

    /// A piece of a teacher's words: "the English narration of step 2".
    fn piece(&self, piece: &Piece) -> String {
        let language = Arg::Text(self.teacher.language(piece.lang).to_string());
        let field = ("field", Arg::Id(&piece.field));
        match piece.step {
            Some(n) => self.said(
                "refusal.piece.step",
                &[("language", language), field, ("n", whole(n))],
            ),
            None => self.said("refusal.piece.whole", &[("language", language), field]),
        }
    }

    /// Why a teacher's scenario (a file, or what a link or a list held) was refused.
    pub fn teacher_error(&self, error: &TeacherError) -> String {
        match error {
            TeacherError::TooLarge { bytes, limit } => self.said(
                "refusal.teacher.too_large",
                &[("bytes", whole(*bytes)), ("max", whole(*limit))],
            ),
            TeacherError::Parse(ReadError::NotJson(_)) => {
                self.said("refusal.teacher.not_json", &[])
            }
            TeacherError::Parse(ReadError::BadField { path, problem }) => {
                self.bad_field(path, problem)
            }
            TeacherError::Format(found) => {
                self.said("refusal.teacher.format", &[("found", Arg::Id(found))])
            }
            TeacherError::Version(v) => self.said(
                "refusal.teacher.version",
                &[
                    ("version", whole(*v)),
                    ("supported", whole(TEACHER_VERSION)),
                ],
            ),
            TeacherError::Scenarios(n) => {
                self.said("refusal.teacher.scenarios", &[("n", whole(*n))])
            }
            TeacherError::Id(id) => self.said(
                "refusal.teacher.id",
                &[("id", Arg::Id(id)), ("expected", Arg::Id(TEACHER_ID))],
            ),
            TeacherError::TooManySteps(n) => self.said(
                "refusal.teacher.too_many_steps",
                &[("n", whole(*n)), ("max", whole(MAX_TEACHER_STEPS))],
            ),
            TeacherError::NoLanguage => self.said("refusal.teacher.no_language", &[]),
            TeacherError::Language(tag) => {
                self.said("refusal.teacher.language", &[("tag", Arg::Id(tag))])
            }
            TeacherError::Code => self.said("refusal.teacher.code", &[]),
            TeacherError::TooLong { piece, chars } => self.said(
                "refusal.teacher.too_long",
                &[
                    ("piece", Arg::Text(self.piece(piece))),
                    ("n", whole(*chars)),
                    ("max", whole(MAX_PIECE_CHARS)),
                ],
            ),
            TeacherError::Markup(piece) => self.said(
                "refusal.teacher.markup",
                &[("piece", Arg::Text(self.piece(piece)))],
            ),
            TeacherError::Content(Some(lang), error) => self.said(
                "refusal.teacher.in_language",
                &[
                    (
                        "language",
                        Arg::Text(self.teacher.language(*lang).to_string()),
                    ),
                    ("error", Arg::Text(self.content_error(error))),
                ],
            ),
            TeacherError::Content(None, error) => self.content_error(error),
        }
    }

    /// Why a `#teach=` link was refused.
    pub fn link_error(&self, error: &LinkError) -> String {
        match error {
            LinkError::TooLong { chars } => self.said(
                "refusal.link.too_long",
                &[("n", whole(*chars)), ("max", whole(MAX_LINK_CHARS))],
            ),
            LinkError::Damaged => self.said("refusal.link.damaged", &[]),
            LinkError::Unpacks => {
                self.said("refusal.link.unpacks", &[("max", whole(MAX_TEACHER_BYTES))])
            }
            LinkError::Scenario(error) => self.teacher_error(error),
        }
    }

    /// Why a scenario file (one scenario, or a list of them) was not kept.
    pub fn shelf_error(&self, error: &ShelfError) -> String {
        match error {
            ShelfError::Full => self.said("refusal.shelf.full", &[("max", whole(MAX_SHELF))]),
            ShelfError::Scenario(Some(n), error) => self.said(
                "refusal.shelf.scenario",
                &[
                    ("n", whole(*n)),
                    ("error", Arg::Text(self.teacher_error(error))),
                ],
            ),
            ShelfError::Scenario(None, error) => self.teacher_error(error),
        }
    }

    fn fact_error(&self, error: &FactError) -> String {
        let (key, fact) = match error {
            FactError::Unknown(fact) => ("refusal.fact.unknown", fact),
            FactError::Missing(fact) => ("refusal.fact.missing", fact),
            FactError::NotDrawn(fact) => ("refusal.fact.not_drawn", fact),
        };
        self.said(key, &[("fact", Arg::Id(fact))])
    }

    fn template_error(&self, error: &TemplateError) -> String {
        match error {
            TemplateError::Unbalanced => self.said("refusal.template.unbalanced", &[]),
            TemplateError::Digit(c) => self.said(
                "refusal.template.digit",
                &[("digit", Arg::Text(c.to_string()))],
            ),
            TemplateError::Fact(error) => self.fact_error(error),
            TemplateError::NotANumber(fact) => {
                self.said("refusal.template.not_a_number", &[("fact", Arg::Id(fact))])
            }
        }
    }

    /// A refusal at a scenario's step (from 1), with what else it names.
    fn at_step(&self, key: &str, scenario: &str, step: usize, rest: &[(&str, Arg)]) -> String {
        let mut args = vec![("scenario", Arg::Id(scenario)), ("step", whole(step))];
        args.extend(rest.iter().cloned());
        self.said(key, &args)
    }

    /// Why the walkthrough's files (the course's, or a teacher's) were refused.
    pub fn content_error(&self, error: &ContentError) -> String {
        let at = |key, scenario, step, rest| self.at_step(key, scenario, step, rest);
        match error {
            ContentError::Parse { file, error } => match error {
                ReadError::NotJson(_) => {
                    self.said("refusal.content.not_json", &[("file", Arg::Id(file))])
                }
                ReadError::BadField { path, problem } => self.said(
                    "refusal.content.bad_file",
                    &[
                        ("file", Arg::Id(file)),
                        ("error", Arg::Text(self.bad_field(path, problem))),
                    ],
                ),
            },
            ContentError::ScenarioId { found, expected } => self.said(
                "refusal.content.scenario_id",
                &[("found", Arg::Id(found)), ("expected", Arg::Id(expected))],
            ),
            ContentError::NoSteps(s) => {
                self.said("refusal.content.no_steps", &[("scenario", Arg::Id(s))])
            }
            ContentError::Language { found, expected } => self.said(
                "refusal.content.language",
                &[("found", Arg::Id(found)), ("expected", Arg::Id(expected))],
            ),
            ContentError::MissingScenario(s) => self.said(
                "refusal.content.missing_scenario",
                &[("scenario", Arg::Id(s))],
            ),
            ContentError::ExtraScenario(s) => self.said(
                "refusal.content.extra_scenario",
                &[("scenario", Arg::Id(s))],
            ),
            ContentError::StepCount {
                scenario,
                script,
                text,
            } => self.said(
                "refusal.content.step_count",
                &[
                    ("scenario", Arg::Id(scenario)),
                    ("script", whole(*script)),
                    ("text", whole(*text)),
                ],
            ),
            ContentError::MissingText {
                scenario,
                step: Some(step),
                piece,
            } => at(
                "refusal.content.missing_text_at",
                scenario,
                *step,
                &[("piece", Arg::Id(piece))],
            ),
            ContentError::MissingText {
                scenario,
                step: None,
                piece,
            } => self.said(
                "refusal.content.missing_text",
                &[("scenario", Arg::Id(scenario)), ("piece", Arg::Id(piece))],
            ),
            ContentError::ExtraText {
                scenario,
                step,
                piece,
            } => at(
                "refusal.content.extra_text",
                scenario,
                *step,
                &[("piece", Arg::Id(piece))],
            ),
            ContentError::Code { scenario, id: code } => self.said(
                "refusal.content.code",
                &[("scenario", Arg::Id(scenario)), ("code", Arg::Id(code))],
            ),
            ContentError::NoChallenge(s) => {
                self.said("refusal.content.no_challenge", &[("scenario", Arg::Id(s))])
            }
            ContentError::HandWritten {
                scenario,
                step: Some(step),
                piece,
            } => at(
                "refusal.content.hand_written_at",
                scenario,
                *step,
                &[("piece", Arg::Id(piece))],
            ),
            ContentError::HandWritten {
                scenario,
                step: None,
                piece,
            } => self.said(
                "refusal.content.hand_written",
                &[("scenario", Arg::Id(scenario)), ("piece", Arg::Id(piece))],
            ),
            ContentError::QuestionOnLastStep(s) => {
                self.said("refusal.content.question_last", &[("scenario", Arg::Id(s))])
            }
            ContentError::NoPremise { scenario, step } => {
                at("refusal.content.no_premise", scenario, *step, &[])
            }
            ContentError::NotInPremise {
                scenario,
                step,
                fact,
            } => at(
                "refusal.content.not_in_premise",
                scenario,
                *step,
                &[("fact", Arg::Id(fact))],
            ),
            ContentError::ReadsAnswer {
                scenario,
                step,
                fact,
            } => at(
                "refusal.content.reads_answer",
                scenario,
                *step,
                &[("fact", Arg::Id(fact))],
            ),
            ContentError::Fact { scenario, error } => self.said(
                "refusal.content.fact",
                &[
                    ("scenario", Arg::Id(scenario)),
                    ("error", Arg::Text(self.fact_error(error))),
                ],
            ),
            ContentError::Refused {
                scenario,
                step,
                error,
            } => at(
                "refusal.content.refused",
                scenario,
                *step,
                &[("error", Arg::Text(self.lab_error(error)))],
            ),
            ContentError::Template {
                scenario,
                step,
                error,
            } => at(
                "refusal.content.template",
                scenario,
                *step,
                &[("error", Arg::Text(self.template_error(error)))],
            ),
        }
    }
}
