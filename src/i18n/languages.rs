//! The languages the page speaks. Adding one is a line here, its two files
//! (`texts/<tag>.json`, `walkthrough/<tag>.json`) and its tag in index.html's
//! boot script, which chooses the language before the Wasm arrives.

/// One language: its tag, its name in itself (the language switch shows every
/// language's name, whichever is in use), and its direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageInfo {
    pub tag: &'static str,
    pub name: &'static str,
    pub rtl: bool,
}

pub const LANGUAGES: [LanguageInfo; 2] = [
    LanguageInfo {
        tag: "en",
        name: "English",
        rtl: false,
    },
    LanguageInfo {
        tag: "fa",
        name: "فارسی",
        rtl: true,
    },
];

/// A language of [`LANGUAGES`], by its place in that list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lang(u8);

#[allow(non_upper_case_globals)]
impl Lang {
    pub const En: Lang = Lang(0);
    pub const Fa: Lang = Lang(1);

    pub const ALL: [Lang; LANGUAGES.len()] = {
        let mut all = [Lang(0); LANGUAGES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Lang(i as u8);
            i += 1;
        }
        all
    };

    /// The language whose tag (`en`, `fa`) this is: how the page reads the
    /// choice index.html's boot script wrote on `<html lang>`, the one place
    /// where the address and the browser's languages are weighed.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.tag() == tag)
    }

    pub fn info(self) -> &'static LanguageInfo {
        &LANGUAGES[self.index()]
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn tag(self) -> &'static str {
        self.info().tag
    }

    /// The language's name in itself, for the language switch.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn dir(self) -> &'static str {
        if self.info().rtl {
            "rtl"
        } else {
            "ltr"
        }
    }
}
