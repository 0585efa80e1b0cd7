//! Runs a scenario's script on a lab, step by step, and checks the files that
//! make the walkthrough against each other.

use super::fact::{Fact, FactError, Value};
use super::marks::parse_mark;
use super::narration::{placeholders, LanguageFile, ScenarioText, TemplateError};
use super::script::{Answer, Check, Compare, Question, Scenario, Scripts, Step, Than};
use crate::lab::{parse_integer, read_json, FieldError, Lab, LabError, LabState};
use crate::sim::AttemptId;

/// The scripts and one language's words, checked to fit each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    pub scripts: Scripts,
    pub text: LanguageFile,
}

/// What is wrong with the walkthrough's files, named so a translator can find it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentError {
    /// A file is not valid JSON of the expected shape.
    Parse {
        file: String,
        error: crate::lab::ReadError,
    },
    /// Scenario ids must be `s1`, `s2`, … in order.
    ScenarioId {
        found: String,
        expected: String,
    },
    /// A scenario must have at least one step.
    NoSteps(String),
    /// The language file is for another language than it was loaded as.
    Language {
        found: String,
        expected: String,
    },
    /// The language file lacks a scenario, or has one the scripts do not.
    MissingScenario(String),
    ExtraScenario(String),
    /// A scenario's steps and its narration do not match one for one.
    StepCount {
        scenario: String,
        script: usize,
        text: usize,
    },
    /// A piece of text is empty or missing: which scenario, which step (from 1),
    /// and which piece.
    MissingText {
        scenario: String,
        step: Option<usize>,
        piece: &'static str,
    },
    /// Text that the script has no use for (a question on a step without one).
    ExtraText {
        scenario: String,
        step: usize,
        piece: String,
    },
    /// A step shows code the scripts do not have, or an excerpt marks a line
    /// it does not have.
    Code {
        scenario: String,
        id: String,
    },
    /// A scenario must end with a challenge of at least one check.
    NoChallenge(String),
    /// A piece of text that is not narration holds a digit or a brace: only
    /// narration and explanations are filled from the world, and a question
    /// from the facts of its premise.
    HandWritten {
        scenario: String,
        step: Option<usize>,
        piece: &'static str,
    },
    /// A question on the last step: nothing would reveal its answer.
    QuestionOnLastStep(String),
    /// A course question that does not name its premise: the facts a learner
    /// needs to answer it (step from 1).
    NoPremise {
        scenario: String,
        step: usize,
    },
    /// A question's text reads a fact its premise does not name.
    NotInPremise {
        scenario: String,
        step: usize,
        fact: String,
    },
    /// A question's text reads the fact its answer is read from: it would
    /// tell the answer before it is asked.
    ReadsAnswer {
        scenario: String,
        step: usize,
        fact: String,
    },
    /// A fact name that the lab does not know.
    Fact {
        scenario: String,
        error: FactError,
    },
    /// The lab refused one of the script's actions.
    Refused {
        scenario: String,
        step: usize,
        error: LabError,
    },
    /// A piece of narration could not be filled in from the world.
    Template {
        scenario: String,
        step: usize,
        error: TemplateError,
    },
}

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContentError::Parse { file, error } => write!(f, "{file}: {error:?}"),
            ContentError::ScenarioId { found, expected } => {
                write!(f, "scenario `{found}` where `{expected}` belongs")
            }
            ContentError::NoSteps(s) => write!(f, "{s} has no steps"),
            ContentError::Language { found, expected } => {
                write!(f, "the `{expected}` file says it is `{found}`")
            }
            ContentError::MissingScenario(s) => write!(f, "no text for {s}"),
            ContentError::ExtraScenario(s) => write!(f, "text for {s}, which has no script"),
            ContentError::StepCount {
                scenario,
                script,
                text,
            } => write!(
                f,
                "{scenario}: {script} steps in the script, {text} in the text"
            ),
            ContentError::MissingText {
                scenario,
                step,
                piece,
            } => match step {
                Some(step) => write!(f, "{scenario} step {step}: no {piece}"),
                None => write!(f, "{scenario}: no {piece}"),
            },
            ContentError::ExtraText {
                scenario,
                step,
                piece,
            } => write!(f, "{scenario} step {step}: `{piece}` has no use"),
            ContentError::NoChallenge(s) => write!(f, "{s} has no challenge"),
            ContentError::Code { scenario, id } => write!(f, "{scenario}: no code excerpt `{id}`"),
            ContentError::HandWritten {
                scenario,
                step,
                piece,
            } => match step {
                Some(step) => write!(f, "{scenario} step {step}: a digit or brace in the {piece}"),
                None => write!(f, "{scenario}: a digit or brace in the {piece}"),
            },
            ContentError::QuestionOnLastStep(s) => {
                write!(f, "{s}: a question on the last step is never revealed")
            }
            ContentError::NoPremise { scenario, step } => write!(
                f,
                "{scenario} step {step}: the question names no premise (the facts its answer needs)"
            ),
            ContentError::NotInPremise {
                scenario,
                step,
                fact,
            } => write!(
                f,
                "{scenario} step {step}: the question reads `{fact}`, which its premise does not name"
            ),
            ContentError::ReadsAnswer {
                scenario,
                step,
                fact,
            } => write!(
                f,
                "{scenario} step {step}: the question reads `{fact}`, the fact its answer is read from"
            ),
            ContentError::Fact { scenario, error } => write!(f, "{scenario}: {error}"),
            ContentError::Refused {
                scenario,
                step,
                error,
            } => write!(
                f,
                "{scenario} step {step}: the lab refused an action: {error}"
            ),
            ContentError::Template {
                scenario,
                step,
                error,
            } => write!(f, "{scenario} step {step}: {error}"),
        }
    }
}

impl Content {
    /// Reads and checks the scripts and the `language` file.
    pub fn parse(scripts: &str, text: &str, language: &str) -> Result<Content, ContentError> {
        let parse_error = |file: &str, error| ContentError::Parse {
            file: file.to_string(),
            error,
        };
        let scripts: Scripts = read_json(scripts).map_err(|e| parse_error("scenarios.json", e))?;
        let text: LanguageFile =
            read_json(text).map_err(|e| parse_error(&format!("{language}.json"), e))?;
        if text.language != language {
            return Err(ContentError::Language {
                found: text.language,
                expected: language.to_string(),
            });
        }
        let content = Content { scripts, text };
        content.check()?;
        Ok(content)
    }

    fn check(&self) -> Result<(), ContentError> {
        for (i, scenario) in self.scripts.scenarios.iter().enumerate() {
            let expected = format!("s{}", i + 1);
            if scenario.id != expected {
                return Err(ContentError::ScenarioId {
                    found: scenario.id.clone(),
                    expected,
                });
            }
            check_script(scenario, Rules::Course)?;
            for id in scenario.steps.iter().filter_map(|s| s.code.as_ref()) {
                let fits =
                    self.scripts.code.get(id).is_some_and(|e| {
                        e.highlight.iter().all(|n| (1..=e.lines.len()).contains(n))
                    });
                if !fits {
                    return Err(ContentError::Code {
                        scenario: scenario.id.clone(),
                        id: id.clone(),
                    });
                }
            }
            let text = self
                .text
                .scenarios
                .get(&scenario.id)
                .ok_or_else(|| ContentError::MissingScenario(scenario.id.clone()))?;
            check_text(scenario, text, Rules::Course)?;
        }
        if let Some(extra) = self
            .text
            .scenarios
            .keys()
            .find(|id| !self.scripts.scenarios.iter().any(|s| &s.id == *id))
        {
            return Err(ContentError::ExtraScenario(extra.clone()));
        }
        Ok(())
    }

    pub fn scenario(&self, index: usize) -> Option<(&Scenario, &ScenarioText)> {
        let scenario = self.scripts.scenarios.get(index)?;
        Some((scenario, self.text.scenarios.get(&scenario.id)?))
    }

    /// The index of the scenario with this id (`s3`).
    pub fn find(&self, id: &str) -> Option<usize> {
        self.scripts.scenarios.iter().position(|s| s.id == id)
    }
}

/// Which scenarios a check is for: the course's, which must be complete, or a
/// teacher's, which may leave out what only the course needs (a challenge the
/// lab can check, its hint and its "met", a question's explanation and hint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    Course,
    Teacher,
}

pub(super) fn check_script(scenario: &Scenario, rules: Rules) -> Result<(), ContentError> {
    let fact_error = |error| ContentError::Fact {
        scenario: scenario.id.clone(),
        error,
    };
    let Some(last) = scenario.steps.last() else {
        return Err(ContentError::NoSteps(scenario.id.clone()));
    };
    if last.question.is_some() {
        return Err(ContentError::QuestionOnLastStep(scenario.id.clone()));
    }
    for (n, step) in scenario.steps.iter().enumerate() {
        if let Some(question) = &step.question {
            Fact::parse(question.answer.fact()).map_err(fact_error)?;
            if question.premise.is_none() && rules == Rules::Course {
                return Err(ContentError::NoPremise {
                    scenario: scenario.id.clone(),
                    step: n + 1,
                });
            }
            for name in question.premise() {
                Fact::parse(name).map_err(fact_error)?;
            }
        }
        for mark in &step.marks {
            parse_mark(mark).map_err(fact_error)?;
        }
    }
    if scenario.challenge.is_empty() && rules == Rules::Course {
        return Err(ContentError::NoChallenge(scenario.id.clone()));
    }
    for check in &scenario.challenge {
        Fact::parse(&check.fact).map_err(fact_error)?;
        if let Than::Fact(name) = &check.than {
            Fact::parse(name).map_err(fact_error)?;
        }
    }
    Ok(())
}

pub(super) fn check_text(
    scenario: &Scenario,
    text: &ScenarioText,
    rules: Rules,
) -> Result<(), ContentError> {
    let id = &scenario.id;
    if text.steps.len() != scenario.steps.len() {
        return Err(ContentError::StepCount {
            scenario: id.clone(),
            script: scenario.steps.len(),
            text: text.steps.len(),
        });
    }
    let missing = |step: Option<usize>, piece| ContentError::MissingText {
        scenario: id.clone(),
        step,
        piece,
    };
    let blank = |s: &str| s.trim().is_empty();
    // Text that is shown as written: no number of its own, no placeholder.
    let written = |s: &str| s.chars().any(|c| c.is_numeric() || c == '{' || c == '}');
    let hand_written = |step: Option<usize>, piece| ContentError::HandWritten {
        scenario: id.clone(),
        step,
        piece,
    };
    // What a teacher may leave out.
    let optional = |piece: &str| {
        rules == Rules::Teacher
            && matches!(piece, "challenge" | "hint" | "challenge_met" | "explain")
    };
    for (piece, value) in [
        ("title", &text.title),
        ("challenge", &text.challenge),
        ("hint", &text.hint),
        ("challenge_met", &text.challenge_met),
    ] {
        if blank(value) && !optional(piece) {
            return Err(missing(None, piece));
        }
        if written(value) {
            return Err(hand_written(None, piece));
        }
    }
    for (n, (step, words)) in scenario.steps.iter().zip(&text.steps).enumerate() {
        let n = n + 1;
        if blank(&words.narration) {
            return Err(missing(Some(n), "narration"));
        }
        let extra = |piece: &str| ContentError::ExtraText {
            scenario: id.clone(),
            step: n,
            piece: piece.to_string(),
        };
        let Some(question) = &step.question else {
            if words.question.is_some() {
                return Err(extra("question"));
            }
            if words.explain.is_some() {
                return Err(extra("explain"));
            }
            if words.hint.is_some() {
                return Err(extra("hint"));
            }
            if let Some(code) = words.choices.keys().next() {
                return Err(extra(code));
            }
            continue;
        };
        if words.question.as_deref().is_none_or(blank) {
            return Err(missing(Some(n), "question"));
        }
        // A question may read the facts of its premise, and no number else.
        if let Some(asked) = &words.question {
            premise_reads(id, n - 1, question, asked)?;
        }
        if words.choices.values().any(|label| written(label)) {
            return Err(hand_written(Some(n), "choice label"));
        }
        if words.explain.as_deref().is_none_or(blank) && !optional("explain") {
            return Err(missing(Some(n), "explain"));
        }
        if words.hint.as_deref().is_none_or(blank) && !optional("hint") {
            return Err(missing(Some(n), "hint"));
        }
        if words.hint.as_deref().is_some_and(written) {
            return Err(hand_written(Some(n), "hint"));
        }
        let codes: &[String] = match &question.answer {
            Answer::Number { .. } => &[],
            Answer::Choice { choices, .. } => choices,
        };
        if codes
            .iter()
            .any(|c| words.choices.get(c).is_none_or(|label| blank(label)))
        {
            return Err(missing(Some(n), "choice label"));
        }
        if let Some(code) = words.choices.keys().find(|c| !codes.contains(c)) {
            return Err(extra(code));
        }
    }
    Ok(())
}

/// Holds a question's text (`asked`, at `step` from 0) to its premise: no
/// number written by hand, and a placeholder only for a fact the premise
/// names that is not the answer's own.
pub(super) fn premise_reads(
    scenario: &str,
    step: usize,
    question: &Question,
    asked: &str,
) -> Result<(), ContentError> {
    let at = step + 1;
    let names = placeholders(asked).map_err(|error| match error {
        TemplateError::Digit(_) => ContentError::HandWritten {
            scenario: scenario.to_string(),
            step: Some(at),
            piece: "question",
        },
        error => ContentError::Template {
            scenario: scenario.to_string(),
            step: at,
            error,
        },
    })?;
    let fact_error = |error| ContentError::Fact {
        scenario: scenario.to_string(),
        error,
    };
    let answer = Fact::parse(question.answer.fact()).map_err(fact_error)?;
    for name in names {
        let fact = Fact::parse(name).map_err(fact_error)?;
        if fact == answer {
            return Err(ContentError::ReadsAnswer {
                scenario: scenario.to_string(),
                step: at,
                fact: name.to_string(),
            });
        }
        let named = question
            .premise()
            .iter()
            .any(|p| Fact::parse(p).is_ok_and(|p| p == fact));
        if !named {
            return Err(ContentError::NotInPremise {
                scenario: scenario.to_string(),
                step: at,
                fact: name.to_string(),
            });
        }
    }
    Ok(())
}

/// Carries out one step on the lab as the previous one left it.
pub fn run_step(lab: &mut Lab, step: &Step) -> Result<(), LabError> {
    for action in &step.actions {
        lab.dispatch(action.clone())?;
    }
    if step.idle {
        lab.skip_to_idle()?;
    }
    Ok(())
}

/// The lab after steps `0..=step` of `script`, from a new lab, and the step
/// reached (`step`, or the last one when there are fewer): any scenario, the
/// course's or a guest's.
pub fn play_to(script: &Scenario, step: usize) -> Result<(usize, Lab), ContentError> {
    let step = step.min(script.steps.len().saturating_sub(1));
    let mut lab = Lab::new();
    for (n, s) in script.steps.iter().take(step + 1).enumerate() {
        run_step(&mut lab, s).map_err(|error| ContentError::Refused {
            scenario: script.id.clone(),
            step: n + 1,
            error,
        })?;
    }
    Ok((step, lab))
}

/// Where a learner is: a scenario, a step in it (from 0), and the lab the script
/// made up to and including that step.
#[derive(Debug)]
pub struct Tour {
    pub scenario: usize,
    pub step: usize,
    pub lab: Lab,
}

impl Tour {
    /// The lab after steps `0..=step` of a scenario, from a new lab: how back,
    /// restart and a deep link reach a step.
    pub fn open(scripts: &Scripts, scenario: usize, step: usize) -> Result<Tour, ContentError> {
        let script = scripts
            .scenarios
            .get(scenario)
            .ok_or_else(|| ContentError::MissingScenario(format!("#{}", scenario + 1)))?;
        let (step, lab) = play_to(script, step)?;
        Ok(Tour {
            scenario,
            step,
            lab,
        })
    }

    /// Runs the next step on this lab. False at the last step.
    pub fn next(&mut self, scripts: &Scripts) -> Result<bool, ContentError> {
        let scenario = &scripts.scenarios[self.scenario];
        let Some(step) = scenario.steps.get(self.step + 1) else {
            return Ok(false);
        };
        run_step(&mut self.lab, step).map_err(|error| ContentError::Refused {
            scenario: scenario.id.clone(),
            step: self.step + 2,
            error,
        })?;
        self.step += 1;
        Ok(true)
    }

    /// A true step back: the world replayed from the start to the earlier step.
    /// False at the first step.
    pub fn back(&mut self, scripts: &Scripts) -> Result<bool, ContentError> {
        if self.step == 0 {
            return Ok(false);
        }
        *self = Tour::open(scripts, self.scenario, self.step - 1)?;
        Ok(true)
    }

    pub fn steps(&self, scripts: &Scripts) -> usize {
        scripts.scenarios[self.scenario].steps.len()
    }
}

/// The right answer to the question asked at a step of a scenario, read from
/// the world after the next step, and the attempt of the row that shows it (if
/// the fact reads a row). `None` when that step asks nothing.
pub fn answer(
    scripts: &Scripts,
    scenario: usize,
    step: usize,
) -> Result<Option<(Value, Option<AttemptId>)>, ContentError> {
    Ok(reveal(scripts, scenario, step)?.map(|r| (r.value, r.proof)))
}

/// A question's answer with the lab it was read from (the world after the
/// next step), which its explanation is told from: one replay for both.
pub struct Revealed {
    pub value: Value,
    pub proof: Option<AttemptId>,
    pub lab: Lab,
}

/// As [`answer`], with the lab after the next step.
pub fn reveal(
    scripts: &Scripts,
    scenario: usize,
    step: usize,
) -> Result<Option<Revealed>, ContentError> {
    let script = scripts
        .scenarios
        .get(scenario)
        .ok_or_else(|| ContentError::MissingScenario(format!("#{}", scenario + 1)))?;
    reveal_in(script, step)
}

/// As [`reveal`], for any scenario.
pub fn reveal_in(script: &Scenario, step: usize) -> Result<Option<Revealed>, ContentError> {
    let Some(question) = script.steps.get(step).and_then(|s| s.question.as_ref()) else {
        return Ok(None);
    };
    let (_, lab) = play_to(script, step + 1)?;
    let name = question.answer.fact();
    let fact_error = |error| ContentError::Fact {
        scenario: script.id.clone(),
        error,
    };
    let fact = Fact::parse(name).map_err(fact_error)?;
    let state = lab.state();
    let value = fact.read(state, name).map_err(fact_error)?;
    let proof = fact.row().and_then(|at| {
        let rows = state.timeline();
        at.index(rows.len()).map(|i| rows[i].attempt.id)
    });
    Ok(Some(Revealed { value, proof, lab }))
}

/// Whether the lab meets every check of a challenge. A fact the world has no
/// value for yet (no row at all) is not met.
pub fn met(checks: &[Check], state: &LabState) -> bool {
    checks
        .iter()
        .all(|check| holds(check, state).unwrap_or(false))
}

fn holds(check: &Check, state: &LabState) -> Result<bool, FactError> {
    let read = |name: &str| Fact::parse(name)?.read(state, name);
    let left = read(&check.fact)?;
    let right = match &check.than {
        Than::Number(n) => Value::Number(*n),
        Than::Code(c) => Value::Code(c.clone()),
        Than::Fact(name) => read(name)?,
    };
    Ok(match (check.is, left, right) {
        (Compare::Equal, l, r) => l == r,
        (Compare::Greater, Value::Number(l), Value::Number(r)) => l > r,
        (Compare::Less, Value::Number(l), Value::Number(r)) => l < r,
        _ => false,
    })
}

/// Whether a learner's answer is right: a number typed in any digits the lab
/// reads, or a choice's code. A typed answer that is no number is an error,
/// not a wrong answer, so the learner can fix it.
pub fn judge(expected: &Value, given: &str) -> Result<bool, FieldError> {
    match expected {
        Value::Number(n) => {
            let typed = parse_integer(given)?;
            Ok(typed == i128::from(*n))
        }
        Value::Code(code) => Ok(code == given),
    }
}
