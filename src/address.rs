//! One reading of the page's address: the query's parameters and the fragment,
//! parsed in one place into one value, with one rule for each.
//!
//! - `?lang=en|fa` chooses the language; any other value is as if it were
//!   absent (the browser's languages decide). index.html's boot script reads it
//!   the same way before the first paint.
//! - `?embed=1` (or `true`) is the compact mode for an iframe; any other value
//!   is the full page.
//! - `?settings=open` opens every settings drawer of the sandbox, as the
//!   "Show all settings" switch does (which writes it); any other value leaves
//!   them as they start.
//! - `?scenario=…&step=…` opens the walkthrough at that step (it says so when
//!   the walkthrough has no such scenario or step).
//! - `?presenter=1` (or `true`) opens that step in presenter mode, which
//!   writes it while it is on; alone, without a scenario, it does nothing.
//! - `#state=…` is a shared session: it opens in the sandbox, in place of the
//!   one the browser kept, which can be brought back.
//! - `?theme=light|dark` is read by index.html's boot script alone, before the
//!   first paint (the app never needs it; see `host_message` for the live
//!   switch).
//!
//! Given together, each does its part: with `scenario` and `#state=` the
//! walkthrough opens at its step over the link's session, and back in the
//! sandbox the page offers the session the link replaced. A parameter given
//! twice counts by its first value, as the browser's `URLSearchParams.get`
//! reads it; unknown parameters are left alone.

use crate::i18n::Lang;

/// What the page's address asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    /// `?lang=`, when it names a language the page has.
    pub lang: Option<Lang>,
    /// `?embed=1`: the compact mode.
    pub embed: bool,
    /// `?settings=open`: every settings drawer open.
    pub settings_open: bool,
    /// `?scenario=` and `?step=`, as written: the walkthrough checks them.
    pub walk: Option<(String, Option<String>)>,
    /// `?presenter=1`: the walkthrough opens in presenter mode.
    pub presenter: bool,
    /// The token of `#state=…`.
    pub state: Option<String>,
}

/// How a session's token is written into the address, and read from it.
pub const STATE_FRAGMENT: &str = "#state=";

impl Address {
    /// Reads `search` (`?a=1&b=2`, or empty) and `hash` (`#state=…`, or empty),
    /// as `location.search` and `location.hash` give them.
    pub fn parse(search: &str, hash: &str) -> Address {
        let query = search.strip_prefix('?').unwrap_or(search);
        let first = |name: &str| {
            form_urlencoded::parse(query.as_bytes())
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        Address {
            lang: first("lang").as_deref().and_then(Lang::from_tag),
            embed: matches!(first("embed").as_deref(), Some("1" | "true")),
            settings_open: first("settings").as_deref() == Some("open"),
            walk: first("scenario").map(|scenario| (scenario, first("step"))),
            presenter: matches!(first("presenter").as_deref(), Some("1" | "true")),
            state: hash.strip_prefix(STATE_FRAGMENT).map(str::to_owned),
        }
    }
}
