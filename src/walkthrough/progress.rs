//! What a learner has done in the walkthrough: the furthest step of each
//! scenario, the questions answered right, the challenges met. Kept in the
//! browser, and exported and imported as a file to carry it elsewhere.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::script::Scripts;

const FORMAT: &str = "idempotency-lab/progress";
const VERSION: u32 = 1;
/// A progress file is a few hundred bytes; anything far larger is not one.
pub const MAX_PROGRESS_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioProgress {
    /// The furthest step reached, from 1.
    #[serde(default)]
    pub furthest: usize,
    /// Steps (from 1) whose question was answered right.
    #[serde(default)]
    pub answered: BTreeSet<usize>,
    #[serde(default)]
    pub challenge: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    pub scenarios: BTreeMap<String, ScenarioProgress>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    scenarios: BTreeMap<String, ScenarioProgress>,
}

/// Where a learner stands in one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    NotStarted,
    /// Stepped as far as `furthest` of its `steps`, not to the end.
    AtStep {
        furthest: usize,
        steps: usize,
    },
    /// Walked to its last step; questions or the challenge are left.
    Walked {
        questions_left: usize,
        challenge_left: bool,
    },
    /// Walked, every question answered right, the challenge met.
    Done,
}

impl Standing {
    /// For suites and styles: `not-started`, `at-step`, `walked`, `done`.
    pub fn code(self) -> &'static str {
        match self {
            Standing::NotStarted => "not-started",
            Standing::AtStep { .. } => "at-step",
            Standing::Walked { .. } => "walked",
            Standing::Done => "done",
        }
    }
}

/// Why a progress file could not be read. Nothing of it is taken then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgressError {
    TooLarge,
    /// Not JSON of the progress file's shape.
    NotProgress,
    /// A progress file of a later version of the lab.
    Version(u32),
    /// It names a scenario the walkthrough does not have.
    UnknownScenario(String),
    /// It names a step, or a question, the scenario does not have.
    UnknownStep {
        scenario: String,
        step: usize,
    },
}

impl Progress {
    pub fn saw(&mut self, scenario: &str, step: usize) {
        let entry = self.scenarios.entry(scenario.to_string()).or_default();
        entry.furthest = entry.furthest.max(step);
    }

    pub fn answered(&mut self, scenario: &str, step: usize) {
        let entry = self.scenarios.entry(scenario.to_string()).or_default();
        entry.answered.insert(step);
    }

    pub fn met_challenge(&mut self, scenario: &str) {
        self.scenarios
            .entry(scenario.to_string())
            .or_default()
            .challenge = true;
    }

    pub fn of(&self, scenario: &str) -> ScenarioProgress {
        self.scenarios.get(scenario).cloned().unwrap_or_default()
    }

    /// Whether the scenario's last step was reached (its questions and
    /// challenge aside).
    pub fn walked(&self, scripts: &Scripts, scenario: &str) -> bool {
        matches!(
            self.standing(scripts, scenario),
            Standing::Walked { .. } | Standing::Done
        )
    }

    /// A scenario is done when its last step was reached, every question in it
    /// answered right, and its challenge met.
    pub fn done(&self, scripts: &Scripts, scenario: &str) -> bool {
        self.standing(scripts, scenario) == Standing::Done
    }

    /// Where a learner stands in a scenario, for the overview of sections:
    /// what is finished, and what is left to finish it.
    pub fn standing(&self, scripts: &Scripts, scenario: &str) -> Standing {
        let Some(script) = scripts.scenarios.iter().find(|s| s.id == scenario) else {
            return Standing::NotStarted;
        };
        let p = self.of(scenario);
        let steps = script.steps.len();
        if p.furthest == 0 {
            return Standing::NotStarted;
        }
        if p.furthest < steps {
            return Standing::AtStep {
                furthest: p.furthest,
                steps,
            };
        }
        let questions_left = script
            .steps
            .iter()
            .enumerate()
            .filter(|(n, s)| s.question.is_some() && !p.answered.contains(&(n + 1)))
            .count();
        if questions_left == 0 && p.challenge {
            Standing::Done
        } else {
            Standing::Walked {
                questions_left,
                challenge_left: !p.challenge,
            }
        }
    }

    /// Takes in what another record holds, losing nothing of either.
    pub fn merge(&mut self, other: Progress) {
        for (id, theirs) in other.scenarios {
            let mine = self.scenarios.entry(id).or_default();
            mine.furthest = mine.furthest.max(theirs.furthest);
            mine.answered.extend(theirs.answered);
            mine.challenge |= theirs.challenge;
        }
    }

    pub fn to_json(&self) -> String {
        let file = File {
            format: FORMAT.to_string(),
            version: VERSION,
            scenarios: self.scenarios.clone(),
        };
        serde_json::to_string_pretty(&file).expect("progress serializes")
    }

    /// Reads the record a browser kept, keeping what still fits the scripts and
    /// dropping the rest (a record made before the scripts changed): a learner's
    /// other scenarios are not lost to one step that went away. Empty when the
    /// text is no progress record at all.
    pub fn fitting(json: &str, scripts: &Scripts) -> Progress {
        let Ok(file) = serde_json::from_str::<File>(json) else {
            return Progress::default();
        };
        if file.format != FORMAT || file.version != VERSION {
            return Progress::default();
        }
        let mut kept = Progress::default();
        for (id, mut p) in file.scenarios {
            let Some(script) = scripts.scenarios.iter().find(|s| s.id == id) else {
                continue;
            };
            p.furthest = p.furthest.min(script.steps.len());
            p.answered.retain(|n| {
                *n > 0
                    && script
                        .steps
                        .get(*n - 1)
                        .is_some_and(|s| s.question.is_some())
            });
            kept.scenarios.insert(id, p);
        }
        kept
    }

    /// Reads a progress file, checked against the walkthrough's scripts.
    pub fn from_json(json: &str, scripts: &Scripts) -> Result<Progress, ProgressError> {
        if json.len() > MAX_PROGRESS_BYTES {
            return Err(ProgressError::TooLarge);
        }
        let file: File = serde_json::from_str(json).map_err(|_| ProgressError::NotProgress)?;
        if file.format != FORMAT {
            return Err(ProgressError::NotProgress);
        }
        if file.version != VERSION {
            return Err(ProgressError::Version(file.version));
        }
        for (id, p) in &file.scenarios {
            let script = scripts
                .scenarios
                .iter()
                .find(|s| &s.id == id)
                .ok_or_else(|| ProgressError::UnknownScenario(id.clone()))?;
            let bad = |step: usize| ProgressError::UnknownStep {
                scenario: id.clone(),
                step,
            };
            if p.furthest > script.steps.len() {
                return Err(bad(p.furthest));
            }
            if let Some(step) = p.answered.iter().find(|n| {
                **n == 0
                    || script
                        .steps
                        .get(**n - 1)
                        .is_none_or(|s| s.question.is_none())
            }) {
                return Err(bad(*step));
            }
        }
        Ok(Progress {
            scenarios: file.scenarios,
        })
    }
}
