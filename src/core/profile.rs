//! An operation that is idempotent by nature: setting an account's preferred
//! language. It says what the state must be, not how to change it, so doing it
//! twice leaves the same state as doing it once, with no key and no receipt.
//! Adding points says "add 100": each time adds 100 more. That is why a grant
//! needs a key and a receipt, and this does not.

use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

/// A language an account may prefer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Language {
    English,
    Persian,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::English, Language::Persian];

    /// A short stable name (a BCP 47 tag), for `data-` attributes.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Persian => "fa",
        }
    }
}

/// What setting a preference did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LanguageSet {
    /// What it was before (`None`: never set).
    pub previous: Option<Language>,
    pub language: Language,
}

impl LanguageSet {
    /// Whether the state changed: false for every repeat.
    pub fn changed(&self) -> bool {
        self.previous != Some(self.language)
    }
}

/// Accounts' preferences. `Clone` gives another handle to the same table.
#[derive(Debug, Clone, Default)]
pub struct Profiles {
    languages: Arc<Mutex<HashMap<String, Language>>>,
}

impl Profiles {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `account_id`'s preferred language: the same call made again finds
    /// it set and changes nothing.
    pub fn set_language(&self, account_id: &str, language: Language) -> LanguageSet {
        let previous = self.lock().insert(account_id.to_owned(), language);
        LanguageSet { previous, language }
    }

    pub fn language(&self, account_id: &str) -> Option<Language> {
        self.lock().get(account_id).copied()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Language>> {
        // One map operation per call: a poisoned lock still guards whole data.
        self.languages
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
