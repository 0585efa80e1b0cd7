//! The scenarios a person recorded or opened, kept in their browser and
//! exported as one file: a list of teacher's files under a format name of its
//! own. Opening a file reads either kind, each scenario checked whole.

use serde::{Deserialize, Serialize};

use super::teacher::{TeacherError, TeacherFile, TeacherScenario};

/// What an exported list says it is.
pub const SHELF_FORMAT: &str = "idempotency-lab-scenarios";
/// Scenarios kept at most: a browser keeps a few megabytes for a page.
pub const MAX_SHELF: usize = 50;
/// The largest list file read (every scenario at its largest).
const MAX_SHELF_BYTES: usize = MAX_SHELF * super::teacher::MAX_TEACHER_BYTES;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shelf {
    scenarios: Vec<TeacherScenario>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShelfFile {
    format: String,
    version: u32,
    scenarios: Vec<TeacherFile>,
}

/// Why a scenario could not join the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShelfError {
    Full,
    /// In a list file: which scenario (from 1), and why.
    Scenario(Option<usize>, TeacherError),
}

impl std::fmt::Display for ShelfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShelfError::Full => write!(
                f,
                "{MAX_SHELF} scenarios are kept already: delete one (export them first)"
            ),
            ShelfError::Scenario(Some(n), error) => write!(f, "scenario {n}: {error}"),
            ShelfError::Scenario(None, error) => write!(f, "{error}"),
        }
    }
}

impl Shelf {
    pub fn scenarios(&self) -> &[TeacherScenario] {
        &self.scenarios
    }

    /// Adds a scenario, or finds the same one already kept: its place.
    pub fn add(&mut self, scenario: TeacherScenario) -> Result<usize, ShelfError> {
        if let Some(at) = self.scenarios.iter().position(|s| *s == scenario) {
            return Ok(at);
        }
        if self.scenarios.len() >= MAX_SHELF {
            return Err(ShelfError::Full);
        }
        self.scenarios.push(scenario);
        Ok(self.scenarios.len() - 1)
    }

    /// Puts an edited scenario in the place of the one it was opened from.
    pub fn replace(&mut self, at: usize, scenario: TeacherScenario) -> Result<usize, ShelfError> {
        match self.scenarios.get_mut(at) {
            Some(kept) => {
                *kept = scenario;
                Ok(at)
            }
            None => self.add(scenario),
        }
    }

    pub fn remove(&mut self, at: usize) -> Option<TeacherScenario> {
        (at < self.scenarios.len()).then(|| self.scenarios.remove(at))
    }

    /// The list as kept and exported.
    pub fn to_json(&self) -> String {
        let file = ShelfFile {
            format: SHELF_FORMAT.to_string(),
            version: 1,
            scenarios: self.scenarios.iter().map(|s| s.file().clone()).collect(),
        };
        serde_json::to_string(&file).expect("a list serializes")
    }

    /// What the browser kept. Never fails: a kept scenario this lab can no
    /// longer read is left out, and counted so the page can say so.
    pub fn from_kept(json: &str) -> (Shelf, usize) {
        let Ok(file) = serde_json::from_str::<ShelfFile>(json) else {
            return (Shelf::default(), usize::from(!json.trim().is_empty()));
        };
        let total = file.scenarios.len();
        let scenarios: Vec<_> = file
            .scenarios
            .into_iter()
            .filter_map(|f| TeacherScenario::check(f).ok())
            .take(MAX_SHELF)
            .collect();
        let dropped = total - scenarios.len();
        (Shelf { scenarios }, dropped)
    }
}

/// The scenarios of a file a person chose: one teacher's file, or an exported
/// list. Refused whole when any scenario in it is.
pub fn read_scenarios(text: &str) -> Result<Vec<TeacherScenario>, ShelfError> {
    let is_list = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|v| v.get("format").and_then(|f| f.as_str()) == Some(SHELF_FORMAT));
    if !is_list || text.len() > MAX_SHELF_BYTES {
        return TeacherScenario::parse(text)
            .map(|s| vec![s])
            .map_err(|e| ShelfError::Scenario(None, e));
    }
    let file: ShelfFile = crate::lab::read_json(text)
        .map_err(|e| ShelfError::Scenario(None, TeacherError::Parse(e)))?;
    if file.scenarios.len() > MAX_SHELF {
        return Err(ShelfError::Full);
    }
    file.scenarios
        .into_iter()
        .enumerate()
        .map(|(n, f)| TeacherScenario::check(f).map_err(|e| ShelfError::Scenario(Some(n + 1), e)))
        .collect()
}
