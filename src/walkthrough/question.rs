//! A question's own words, told from the world. A question may state the
//! numbers its answer needs (the crowd that is about to call, the points of
//! the grant about to be sent) as `{fact}` placeholders, but only the facts its
//! premise names, never the fact its answer is read from. They are read from
//! the world as the question's step will leave it after the next step: the
//! world its answer and its explanation are read from, where the crowd has
//! called and the grant was sent. (The content checks hold a question's text to
//! its premise: `premise_reads` in `tour.rs`.)

use super::narration::{render, ScenarioText};
use super::script::Scenario;
use super::tour::{premise_reads, reveal_in, ContentError};
use crate::lab::LabState;

/// The question asked at `step` (from 0) of `script`, in the language of
/// `words`, its placeholders filled from the world after the next step and
/// its numbers written by `number` (the language's digits). `None` when the
/// step asks nothing. Plays the script to the step after; where that world is
/// at hand already (a [`Revealed`](super::Revealed)'s lab), use
/// [`question_text_in`].
pub fn question_text(
    script: &Scenario,
    words: &ScenarioText,
    step: usize,
    number: impl Fn(i64) -> String,
) -> Result<Option<String>, ContentError> {
    let Some(revealed) = reveal_in(script, step)? else {
        return Ok(None);
    };
    question_text_in(script, words, step, revealed.lab.state(), number)
}

/// As [`question_text`], told from `revealed`: the world after the step that
/// reveals the answer (what [`reveal_in`] returns with it).
pub fn question_text_in(
    script: &Scenario,
    words: &ScenarioText,
    step: usize,
    revealed: &LabState,
    number: impl Fn(i64) -> String,
) -> Result<Option<String>, ContentError> {
    let Some(question) = script.steps.get(step).and_then(|s| s.question.as_ref()) else {
        return Ok(None);
    };
    let asked = words
        .steps
        .get(step)
        .and_then(|w| w.question.as_deref())
        .ok_or_else(|| ContentError::MissingText {
            scenario: script.id.clone(),
            step: Some(step + 1),
            piece: "question",
        })?;
    premise_reads(&script.id, step, question, asked)?;
    render(asked, revealed, number)
        .map(Some)
        .map_err(|error| ContentError::Template {
            scenario: script.id.clone(),
            step: step + 1,
            error,
        })
}
