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
//! - `#teach=…` is a teacher's scenario (see `walkthrough::from_link`): it
//!   is checked whole, kept in the person's scenarios and played in the
//!   walkthrough's player; the sandbox is left as it was.
//! - `?id=…` names an embedded lab's session: each frame keeps its own (see
//!   [`Address::session_scope`]); the events it tells its host carry it.
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
    /// The token of `#teach=…`.
    pub teach: Option<String>,
    /// `?id=`, when given and not empty: the embed's name on its host page.
    pub id: Option<String>,
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
            teach: hash
                .strip_prefix(crate::walkthrough::TEACH_FRAGMENT)
                .map(str::to_owned),
            id: first("id").filter(|id| !id.is_empty()),
        }
    }

    /// Which saved session the page keeps, beside its path. The full page
    /// has one; an embedded lab has one per `?id=`, and without one, one per
    /// distinct address (query and fragment as the host wrote them, which an
    /// embed never rewrites) and `place`, the frame's place among its host
    /// page's frames when the browser tells it: so two frames on a docs site,
    /// even with one address, never load or overwrite each other's. Short,
    /// whatever the address's length.
    pub fn session_scope(&self, search: &str, hash: &str, place: Option<u32>) -> String {
        if !self.embed {
            return "page".to_owned();
        }
        match (&self.id, place) {
            (Some(id), _) => format!("embed:id:{:016x}", fnv1a(id.as_bytes())),
            (None, place) => {
                let address = fnv1a(format!("{search}{hash}").as_bytes());
                match place {
                    Some(place) => format!("embed:at:{address:016x}:{place}"),
                    None => format!("embed:at:{address:016x}"),
                }
            }
        }
    }
}

/// FNV-1a, 64 bits: a stable short name for a long text (not a secret).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
