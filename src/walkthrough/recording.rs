//! Recording a scenario from the sandbox: the teacher works the lab as usual
//! and marks a step whenever the picture says something; each step is what
//! the lab did since the last mark, with the words the teacher wrote for it.
//! A mark is refused, and nothing recorded, when its words cannot be told
//! from the world or the sandbox's history no longer follows the marks (an
//! undo or an import behind the recorder's back).

use std::collections::BTreeMap;

use super::fact::{Fact, Value};
use super::narration::{render, LanguageFile, ScenarioText, StepText, TemplateError};
use super::script::{Answer, Question, Scenario, Scripts, Step};
use super::teacher::{
    TeacherError, TeacherFile, TeacherScenario, MAX_TEACHER_STEPS, TEACHER_FORMAT, TEACHER_ID,
    TEACHER_VERSION,
};
use super::tour::play_to;
use crate::i18n::Lang;
use crate::lab::{Action, FieldError, Invariant, Lab};

/// The words of one step as the teacher wrote them, by language (a blank
/// piece is no piece).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepDraft {
    pub narration: BTreeMap<Lang, String>,
    pub question: Option<QuestionDraft>,
}

/// A question asked at a step, answered by a fact as the next step leaves it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuestionDraft {
    pub fact: String,
    pub text: BTreeMap<Lang, String>,
    /// Said once answered, told from the world after the next step.
    pub explain: BTreeMap<Lang, String>,
    /// A label per choice code and language (`yes`/`no` for a promise).
    pub labels: BTreeMap<String, BTreeMap<Lang, String>>,
}

/// Why a mark, an undo or the end of a recording was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// The step has no narration in any language.
    NoNarration,
    /// The first step was written in these languages; every step is.
    Languages {
        expected: Vec<Lang>,
    },
    /// A piece of the step's words cannot be told from the world.
    Template {
        lang: Lang,
        piece: &'static str,
        error: TemplateError,
    },
    /// The question's fact is not one the lab knows, or asks what no choice
    /// or number answers.
    Question(String),
    /// The question has no words in one of the step's languages.
    NoQuestionText(Lang),
    /// The question asked at the step before cannot be answered in the world
    /// as this step leaves it.
    Unanswered {
        step: usize,
        fact: String,
    },
    /// The sandbox's history no longer follows the marks.
    HistoryChanged,
    TooManySteps,
    /// Nothing to undo, preview or finish.
    NoSteps,
    /// The last step asks a question: one more step reveals its answer.
    QuestionLast,
    /// A title typed with what the lab's look-alike rule refuses in a key (a
    /// character that cannot be seen, two spaces in a row): refused where it
    /// is typed, as the key is; a file's title is shown by its codes instead.
    Title {
        lang: Lang,
        error: FieldError,
    },
    /// The scenario as a whole is refused as a file would be.
    Scenario(TeacherError),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::NoNarration => write!(f, "the step has no narration"),
            RecordError::Title { lang, error } => write!(f, "the {} title: {error}", lang.tag()),
            RecordError::Languages { expected } => {
                let tags: Vec<_> = expected.iter().map(|l| l.tag()).collect();
                write!(f, "every step is written in {}", tags.join(" and "))
            }
            RecordError::Template { lang, piece, error } => {
                write!(f, "{}: the {piece}: {error}", lang.tag())
            }
            RecordError::Question(fact) => write!(f, "no question can be asked of `{fact}`"),
            RecordError::NoQuestionText(lang) => {
                write!(f, "{}: the question has no words", lang.tag())
            }
            RecordError::Unanswered { step, fact } => write!(
                f,
                "step {step}'s question reads `{fact}`, which the world does not have now"
            ),
            RecordError::HistoryChanged => write!(
                f,
                "the sandbox went back before the last mark: undo the mark first"
            ),
            RecordError::TooManySteps => {
                write!(f, "a scenario has at most {MAX_TEACHER_STEPS} steps")
            }
            RecordError::NoSteps => write!(f, "no step is marked yet"),
            RecordError::QuestionLast => write!(
                f,
                "the last step asks a question: mark one more step to reveal its answer"
            ),
            RecordError::Scenario(error) => write!(f, "{error}"),
        }
    }
}

/// The codes a question about `fact` offers, when it is a choice: a promise
/// holds or not. `None` for a number (or a fact no question asks).
pub fn choices_of(fact: &Fact) -> Option<[&'static str; 2]> {
    matches!(fact, Fact::Holds(_)).then_some(["yes", "no"])
}

/// The facts a teacher can pick in the world as it is, with their values: what
/// narration states (numbers) and what a question asks (numbers, and whether
/// each promise holds).
pub fn offered(lab: &Lab) -> Vec<(String, Value)> {
    let state = lab.state();
    let mut names: Vec<String> = Vec::new();
    let mut accounts: Vec<&str> = Vec::new();
    for row in state.timeline() {
        let account = row.attempt.grant.account_id.as_str();
        if !accounts.contains(&account) {
            accounts.push(account);
        }
    }
    for account in &accounts {
        names.push(format!("balance:{account}"));
    }
    if state.settings().naive {
        names.extend(accounts.iter().map(|a| format!("naive-balance:{a}")));
    }
    for row in [
        "points:last",
        "attempt:last",
        "row-balance:last",
        "receipt-balance:last",
    ] {
        names.push(row.to_string());
    }
    for bare in [
        "rows",
        "queued",
        "waiting-for-room",
        "queue-capacity",
        "caller-timeout",
        "processing-time",
        "retention-hours",
        "emails",
        "read-balance",
    ] {
        names.push(bare.to_string());
    }
    names.extend(Invariant::ALL.map(|i| format!("holds:{}", i.code())));
    names
        .into_iter()
        .filter_map(|name| {
            let value = Fact::parse(&name).ok()?.read(state, &name).ok()?;
            Some((name, value))
        })
        .collect()
}

/// A scenario being recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recording {
    /// The sandbox's history at each mark.
    marks: Vec<Vec<Action>>,
    steps: Vec<Step>,
    words: Vec<StepDraft>,
}

impl Recording {
    pub fn new() -> Recording {
        Recording::default()
    }

    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    /// The languages the recording is written in (the first step's).
    pub fn languages(&self) -> Vec<Lang> {
        self.words
            .first()
            .map(|w| w.narration.keys().copied().collect())
            .unwrap_or_default()
    }

    /// The actions the lab took since the last mark.
    pub fn pending(&self, lab: &Lab) -> Result<Vec<Action>, RecordError> {
        since(
            self.marks.last().map_or(&[], Vec::as_slice),
            &lab.history().actions,
        )
    }

    /// Marks a step: what `lab` did since the last mark, told by `draft`.
    pub fn mark(&mut self, lab: &Lab, draft: StepDraft) -> Result<(), RecordError> {
        if self.steps.len() >= MAX_TEACHER_STEPS {
            return Err(RecordError::TooManySteps);
        }
        let actions = self.pending(lab)?;
        let draft = trimmed(draft);
        if draft.narration.is_empty() {
            return Err(RecordError::NoNarration);
        }
        let expected = self.languages();
        if !expected.is_empty() && draft.narration.keys().ne(expected.iter()) {
            return Err(RecordError::Languages { expected });
        }
        let state = lab.state();
        let tell = |lang: Lang, piece, text: &str| {
            render(text, state, |n| n.to_string())
                .map(drop)
                .map_err(|error| RecordError::Template { lang, piece, error })
        };
        for (lang, text) in &draft.narration {
            tell(*lang, "narration", text)?;
        }
        // The question before is answered now, or never.
        if let (Some(before), Some(words)) = (self.steps.last(), self.words.last()) {
            if let (Some(question), Some(asked)) = (&before.question, &words.question) {
                let fact = question.answer.fact();
                let read = Fact::parse(fact).and_then(|f| f.read(state, fact));
                if read.is_err() {
                    return Err(RecordError::Unanswered {
                        step: self.steps.len(),
                        fact: fact.to_string(),
                    });
                }
                for (lang, text) in &asked.explain {
                    tell(*lang, "explanation", text)?;
                }
            }
        }
        let question = match &draft.question {
            None => None,
            Some(asked) => Some(self.question(asked, &draft)?),
        };
        // Labels are for a choice: a number question keeps none.
        let mut draft = draft;
        if let (
            Some(Question {
                answer: Answer::Number { .. },
                ..
            }),
            Some(asked),
        ) = (&question, &mut draft.question)
        {
            asked.labels.clear();
        }
        self.marks.push(lab.history().actions.clone());
        self.steps.push(Step {
            actions,
            question,
            ..Step::default()
        });
        self.words.push(draft);
        Ok(())
    }

    fn question(&self, asked: &QuestionDraft, draft: &StepDraft) -> Result<Question, RecordError> {
        let refused = || RecordError::Question(asked.fact.clone());
        let fact = Fact::parse(&asked.fact).map_err(|_| refused())?;
        for lang in draft.narration.keys() {
            if !asked.text.contains_key(lang) {
                return Err(RecordError::NoQuestionText(*lang));
            }
        }
        let answer = match choices_of(&fact) {
            Some(codes) => Answer::Choice {
                fact: asked.fact.clone(),
                choices: codes.map(str::to_string).to_vec(),
            },
            None => Answer::Number {
                fact: asked.fact.clone(),
            },
        };
        // A teacher's question is asked in words alone: no premise to read.
        Ok(Question {
            answer,
            premise: None,
        })
    }

    /// Takes the last mark back: its actions belong to the next step again,
    /// and its words come back to be edited.
    pub fn undo(&mut self) -> Result<StepDraft, RecordError> {
        let words = self.words.pop().ok_or(RecordError::NoSteps)?;
        self.steps.pop();
        self.marks.pop();
        Ok(words)
    }

    /// The finished scenario, checked whole as a file is.
    pub fn finish(
        &self,
        title: &BTreeMap<Lang, String>,
        challenge: &BTreeMap<Lang, String>,
    ) -> Result<TeacherScenario, RecordError> {
        if self.steps.last().is_some_and(|s| s.question.is_some()) {
            return Err(RecordError::QuestionLast);
        }
        self.scenario(title, challenge)
    }

    /// The scenario so far, to play in the player: a question on the last
    /// step, which nothing reveals yet, is left out, and a missing title is
    /// `untitled`.
    pub fn preview(
        &self,
        title: &BTreeMap<Lang, String>,
        untitled: impl Fn(Lang) -> String,
    ) -> Result<TeacherScenario, RecordError> {
        let mut draft = self.clone();
        if let (Some(step), Some(words)) = (draft.steps.last_mut(), draft.words.last_mut()) {
            step.question = None;
            words.question = None;
        }
        let title = self
            .languages()
            .into_iter()
            .map(|l| {
                let given = title.get(&l).filter(|t| !t.trim().is_empty());
                (l, given.cloned().unwrap_or_else(|| untitled(l)))
            })
            .collect();
        draft.scenario(&title, &BTreeMap::new())
    }

    fn scenario(
        &self,
        title: &BTreeMap<Lang, String>,
        challenge: &BTreeMap<Lang, String>,
    ) -> Result<TeacherScenario, RecordError> {
        if self.steps.is_empty() {
            return Err(RecordError::NoSteps);
        }
        for (lang, typed) in title {
            if let Some(error) = crate::lab::look_alike_problem(typed.trim()) {
                return Err(RecordError::Title { lang: *lang, error });
            }
        }
        let languages = self
            .languages()
            .into_iter()
            .map(|lang| {
                let piece = |map: &BTreeMap<Lang, String>| {
                    map.get(&lang)
                        .map(|t| t.trim().to_string())
                        .unwrap_or_default()
                };
                let steps = self.words.iter().map(|w| step_text(w, lang)).collect();
                let text = ScenarioText {
                    title: piece(title),
                    steps,
                    challenge: piece(challenge),
                    hint: String::new(),
                    challenge_met: String::new(),
                };
                let file = LanguageFile {
                    language: lang.tag().to_string(),
                    scenarios: BTreeMap::from([(TEACHER_ID.to_string(), text)]),
                };
                (lang.tag().to_string(), file)
            })
            .collect();
        let file = TeacherFile {
            format: TEACHER_FORMAT.to_string(),
            version: TEACHER_VERSION,
            scripts: Scripts {
                scenarios: vec![Scenario {
                    id: TEACHER_ID.to_string(),
                    steps: self.steps.clone(),
                    challenge: Vec::new(),
                    solution: Vec::new(),
                }],
                code: BTreeMap::new(),
            },
            languages,
        };
        TeacherScenario::check(file).map_err(RecordError::Scenario)
    }

    /// A scenario opened again to be edited: the recording as it was when
    /// finished, and the lab its steps make, which becomes the sandbox.
    pub fn resume(scenario: &TeacherScenario) -> Result<(Recording, Lab), RecordError> {
        let script = scenario.script();
        let languages = scenario.languages();
        let mut recording = Recording::new();
        let mut lab = Lab::new();
        // Each step's lab as the player reaches it, so the marks are where
        // the player's steps are (a scenario checked whole always plays).
        for (n, step) in script.steps.iter().enumerate() {
            lab = play_to(script, n)
                .map_err(|e| RecordError::Scenario(TeacherError::Content(None, e)))?
                .1;
            recording.marks.push(lab.history().actions.clone());
            recording.steps.push(step.clone());
            recording.words.push(draft_of(scenario, &languages, n));
        }
        Ok((recording, lab))
    }
}

/// The actions of `now` after `before`: a run of waits that went on past a
/// mark counts from where the mark left it.
fn since(before: &[Action], now: &[Action]) -> Result<Vec<Action>, RecordError> {
    let Some((last, earlier)) = before.split_last() else {
        return Ok(now.to_vec());
    };
    if now.len() < before.len() || now[..earlier.len()] != *earlier {
        return Err(RecordError::HistoryChanged);
    }
    let rest = now[before.len()..].to_vec();
    match (last, &now[earlier.len()]) {
        (a, b) if a == b => Ok(rest),
        (Action::Wait { ms: was }, Action::Wait { ms: is }) if is > was => {
            Ok([vec![Action::Wait { ms: is - was }], rest].concat())
        }
        _ => Err(RecordError::HistoryChanged),
    }
}

/// The draft without blank pieces.
fn trimmed(draft: StepDraft) -> StepDraft {
    let keep = |map: BTreeMap<Lang, String>| {
        map.into_iter()
            .map(|(l, t)| (l, t.trim().to_string()))
            .filter(|(_, t)| !t.is_empty())
            .collect::<BTreeMap<_, _>>()
    };
    StepDraft {
        narration: keep(draft.narration),
        question: draft.question.map(|q| QuestionDraft {
            fact: q.fact.trim().to_string(),
            text: keep(q.text),
            explain: keep(q.explain),
            labels: q
                .labels
                .into_iter()
                .map(|(code, by_lang)| (code, keep(by_lang)))
                .collect(),
        }),
    }
}

fn step_text(words: &StepDraft, lang: Lang) -> StepText {
    let piece = |map: &BTreeMap<Lang, String>| map.get(&lang).cloned();
    StepText {
        narration: piece(&words.narration).unwrap_or_default(),
        question: words.question.as_ref().and_then(|q| piece(&q.text)),
        choices: words
            .question
            .as_ref()
            .map(|q| {
                q.labels
                    .iter()
                    .filter_map(|(code, by_lang)| Some((code.clone(), by_lang.get(&lang)?.clone())))
                    .collect()
            })
            .unwrap_or_default(),
        explain: words.question.as_ref().and_then(|q| piece(&q.explain)),
        hint: None,
    }
}

fn draft_of(scenario: &TeacherScenario, languages: &[Lang], n: usize) -> StepDraft {
    let text = |lang: Lang| &scenario.words(lang).1.steps[n];
    let by_lang = |f: &dyn Fn(&StepText) -> Option<String>| {
        languages
            .iter()
            .filter_map(|l| Some((*l, f(text(*l))?)))
            .collect::<BTreeMap<_, _>>()
    };
    let question = scenario.script().steps[n]
        .question
        .as_ref()
        .map(|q| QuestionDraft {
            fact: q.answer.fact().to_string(),
            text: by_lang(&|t| t.question.clone()),
            explain: by_lang(&|t| t.explain.clone()),
            labels: match &q.answer {
                Answer::Number { .. } => BTreeMap::new(),
                Answer::Choice { choices, .. } => choices
                    .iter()
                    .map(|code| (code.clone(), by_lang(&|t| t.choices.get(code).cloned())))
                    .collect(),
            },
        });
    StepDraft {
        narration: by_lang(&|t| Some(t.narration.clone())),
        question,
    }
}
