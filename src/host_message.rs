//! What the page that frames an embedded lab may ask of it by `postMessage`.
//! Only the parent window is listened to (see `ui::host`), and only these
//! messages are taken; anything else is left alone.
//!
//! - `{type: "idempotency-lab:theme", theme: "light" | "dark" | "auto"}` sets the
//!   lab's colours as `?theme=` does before the first paint (index.html's boot
//!   script reads that parameter the same way: any other value is `auto`).

/// The lab's colours: as the system says, or light or dark whatever it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    pub fn parse(value: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.code() == value)
    }

    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The class on `<html>` that fixes the colours (`style/main.css`); none
    /// for `Auto`, which follows the system.
    pub fn class(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("theme-light"),
            Theme::Dark => Some("theme-dark"),
        }
    }
}

/// The `type` of a message that sets the theme.
pub const THEME_MESSAGE: &str = "idempotency-lab:theme";

/// A message from the host page the lab acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostMessage {
    Theme(Theme),
}

impl HostMessage {
    /// Reads a message's `type` and its `theme` field; `None` for anything the
    /// lab does not take (another type, or a theme it does not have).
    pub fn read(kind: Option<&str>, theme: Option<&str>) -> Option<HostMessage> {
        match kind? {
            THEME_MESSAGE => Theme::parse(theme?).map(HostMessage::Theme),
            _ => None,
        }
    }
}
