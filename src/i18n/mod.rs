//! The page's words. Every text lives in one data file per language
//! (`texts/<tag>.json`, beside the walkthrough's `walkthrough/<tag>.json`), so a
//! translator edits JSON, not Rust. This module knows the languages, keeps the
//! file of each language the page has read, and gives each view its words.
//!
//! Only the language in use is fetched: index.html's boot script starts that
//! fetch beside the Wasm's, and the app installs it before it mounts.

mod catalog;
mod declare;
mod explorer;
mod languages;
mod refusals;
mod stage;
mod teacher;
mod texts;
mod walk;

pub use catalog::{placeholders, Arg, Catalog, CatalogError, Message, PluralRule};
pub use explorer::{ExplorerTexts, ExplorerWords};
pub use languages::{Lang, LanguageInfo, LANGUAGES};
pub use stage::{StageTexts, StageWords};
pub use teacher::{TeacherTexts, TeacherWords};
pub use texts::{Texts, Words};
pub use walk::{WalkTexts, WalkWords};

use std::sync::OnceLock;

/// The texts of each language read so far. A language's file is read once and
/// kept for the page's life (a page holds at most a handful of languages).
static INSTALLED: [OnceLock<Texts>; LANGUAGES.len()] = [const { OnceLock::new() }; LANGUAGES.len()];

/// Reads `json` as `lang`'s texts and keeps them. A file that cannot be read
/// changes nothing and says why.
pub fn install(lang: Lang, json: &str) -> Result<(), CatalogError> {
    let catalog = Catalog::parse(lang.tag(), lang.info().rtl, json)?;
    let _ = INSTALLED[lang.index()].set(Texts::new(lang, catalog));
    Ok(())
}

/// Whether `lang`'s texts are here, so the page can switch to it now.
pub fn is_installed(lang: Lang) -> bool {
    INSTALLED[lang.index()].get().is_some()
}

/// The file for `lang` in this checkout, for native builds (tests, tools): the
/// page fetches it instead.
#[cfg(not(target_arch = "wasm32"))]
pub fn language_file(lang: Lang) -> String {
    let path = format!("{}/texts/{}.json", env!("CARGO_MANIFEST_DIR"), lang.tag());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

impl Lang {
    /// This language's words. Natively the file is read on first use; in the
    /// page it was installed before the mount. A language not installed shows
    /// each message's key, so a gap is seen, never hidden.
    pub fn texts(self) -> &'static Texts {
        let slot = &INSTALLED[self.index()];
        #[cfg(not(target_arch = "wasm32"))]
        if slot.get().is_none() {
            install(self, &language_file(self))
                .unwrap_or_else(|e| panic!("texts/{}.json: {e}", self.tag()));
        }
        slot.get().unwrap_or_else(|| {
            static NONE: OnceLock<Texts> = OnceLock::new();
            NONE.get_or_init(|| Texts::new(self, Catalog::empty(self.info().rtl)))
        })
    }

    /// The walkthrough's controls and messages in this language.
    pub fn walk(self) -> &'static WalkTexts {
        &self.texts().walk
    }

    /// A number in this language's digits, as the page shows every number:
    /// counts, amounts, balances, attempts. (Keys and accounts are data and
    /// stay as typed; attributes for suites keep ASCII digits.)
    pub fn number(self, n: impl std::fmt::Display) -> String {
        self.texts().catalog().number(n)
    }
}
