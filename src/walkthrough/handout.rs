//! A scenario on paper: its title, each step's narration as the world left
//! that step, each question with its choices (or room for a number), and an
//! answer key read from the world after the next step, exactly as the player
//! reveals it. Plain data, so the page prints it and tests read it.

use super::fact::Value;
use super::narration::ScenarioText;
use super::narration::{render, TemplateError};
use super::question::question_text_in;
use super::script::{Answer, Scenario};
use super::tour::{reveal_in, run_step, Content, ContentError};
use crate::lab::{Lab, Stage};

#[derive(Debug, Clone, PartialEq)]
pub struct Handout {
    /// The scenario's id (`s4`).
    pub id: String,
    pub title: String,
    pub steps: Vec<HandoutStep>,
    /// What to make happen in the sandbox afterwards, and its hint.
    pub challenge: String,
    pub hint: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HandoutStep {
    pub narration: String,
    /// The world as the stage draws it when the step has run: the picture
    /// printed beside the step's text.
    pub picture: Stage,
    /// The step shows the answer to the question before it: a student's copy
    /// leaves room to note what happened instead of telling it.
    pub reveals: bool,
    pub question: Option<HandoutQuestion>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandoutQuestion {
    /// As the player asks it: the facts of its premise read from the world
    /// after the next step.
    pub text: String,
    /// The choices' labels, in the script's order; none for a number.
    pub choices: Vec<String>,
    /// The right answer, in words (a choice's label, or the number).
    pub answer: String,
    /// Why, told from the world after the next step.
    pub explain: String,
}

/// The handout of the course's scenario `index`, numbers written by `number`
/// (the language's digits).
pub fn handout(
    content: &Content,
    index: usize,
    number: impl Fn(i64) -> String,
) -> Result<Handout, ContentError> {
    let (script, text) = content
        .scenario(index)
        .ok_or_else(|| ContentError::MissingScenario(format!("#{}", index + 1)))?;
    handout_of(script, text, number)
}

/// The handout of any scenario (the course's or a teacher's) in the language
/// of `text`. Building it plays the script whole and fills every piece of text
/// from the world, so it also proves the scenario can be played and told.
pub fn handout_of(
    script: &Scenario,
    text: &ScenarioText,
    number: impl Fn(i64) -> String,
) -> Result<Handout, ContentError> {
    let template_error = |step: usize, error: TemplateError| ContentError::Template {
        scenario: script.id.clone(),
        step,
        error,
    };
    let mut lab = Lab::new();
    let mut steps = Vec::with_capacity(script.steps.len());
    for (n, (step, words)) in script.steps.iter().zip(&text.steps).enumerate() {
        run_step(&mut lab, step).map_err(|error| ContentError::Refused {
            scenario: script.id.clone(),
            step: n + 1,
            error,
        })?;
        let narration =
            render(&words.narration, lab.state(), &number).map_err(|e| template_error(n + 1, e))?;
        let question = match (&step.question, reveal_in(script, n)?) {
            (Some(question), Some(revealed)) => {
                let label = |code: &str| words.choices.get(code).cloned().unwrap_or_default();
                let choices = match &question.answer {
                    Answer::Number { .. } => Vec::new(),
                    Answer::Choice { choices, .. } => choices.iter().map(|c| label(c)).collect(),
                };
                let answer = match &revealed.value {
                    Value::Number(n) => number(*n),
                    Value::Code(code) => label(code),
                };
                let explain = words.explain.as_deref().unwrap_or_default();
                let asked = question_text_in(script, text, n, revealed.lab.state(), &number)?;
                Some(HandoutQuestion {
                    text: asked.unwrap_or_default(),
                    choices,
                    answer,
                    explain: render(explain, revealed.lab.state(), &number)
                        .map_err(|e| template_error(n + 1, e))?,
                })
            }
            _ => None,
        };
        let reveals = n > 0 && script.steps[n - 1].question.is_some();
        steps.push(HandoutStep {
            narration,
            picture: lab.state().stage(),
            reveals,
            question,
        });
    }
    Ok(Handout {
        id: script.id.clone(),
        title: text.shown_title(),
        steps,
        challenge: text.challenge.clone(),
        hint: text.hint.clone(),
    })
}
