//! A session as a file or a link: the history of actions, serialized with serde,
//! and checked on the way in so a malformed, oversized or hostile input is refused
//! whole, with a reason, before it can touch the lab.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::action::Action;
use super::form::MAX_FIELD_CHARS;
use super::history::{History, Lab, ReplayError};

/// Names the file's kind, so an unrelated JSON file is told apart at once.
pub const FORMAT: &str = "idempotency-lab/session";
pub const VERSION: u32 = 1;
/// Largest file (and decoded link) accepted: room for the largest session the lab
/// lets a person build (every action at its longest, pretty-printed).
pub const MAX_SESSION_BYTES: usize = 4 * 1024 * 1024;
pub const MAX_ACTIONS: usize = 5_000;
/// Most grants a whole session may queue, so a shared link cannot freeze the page.
pub const MAX_SENDS: u64 = 50_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionFile {
    format: String,
    version: u32,
    actions: Vec<Action>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    TooLarge {
        bytes: usize,
    },
    /// Not base64url, or not text: a link that was cut or mangled.
    BadLink,
    /// Not JSON, or JSON of another shape; the parser's words.
    NotJson(String),
    WrongFormat,
    UnsupportedVersion(u32),
    TooManyActions(usize),
    TooManySends(u64),
    /// An account or key longer than the form allows, at this action.
    TextTooLong {
        index: usize,
    },
    /// The lab refused an action while replaying.
    Replay(ReplayError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::TooLarge { bytes } => write!(
                f,
                "the session is {bytes} bytes; at most {MAX_SESSION_BYTES} are accepted"
            ),
            SessionError::BadLink => write!(f, "the link is damaged or cut short"),
            SessionError::NotJson(why) => write!(f, "this is not a lab session file ({why})"),
            SessionError::WrongFormat => write!(f, "this JSON is not a lab session"),
            SessionError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "session version {v} is not supported (this lab reads {VERSION})"
                )
            }
            SessionError::TooManyActions(n) => {
                write!(
                    f,
                    "the session has {n} actions; at most {MAX_ACTIONS} are accepted"
                )
            }
            SessionError::TooManySends(n) => {
                write!(
                    f,
                    "the session sends {n} grants; at most {MAX_SENDS} are accepted"
                )
            }
            SessionError::TextTooLong { index } => write!(
                f,
                "action {} has an account or key over {MAX_FIELD_CHARS} characters",
                index + 1
            ),
            SessionError::Replay(e) => {
                write!(f, "action {} cannot be replayed: {}", e.index + 1, e.error)
            }
        }
    }
}

impl std::error::Error for SessionError {}

fn session_file(history: &History) -> SessionFile {
    SessionFile {
        format: FORMAT.to_string(),
        version: VERSION,
        actions: history.actions.clone(),
    }
}

/// The session as a pretty JSON file, for people to keep and read.
pub fn to_json(history: &History) -> String {
    serde_json::to_string_pretty(&session_file(history)).expect("a session always serializes")
}

/// The same, compact: for browser storage.
pub fn to_compact_json(history: &History) -> String {
    serde_json::to_string(&session_file(history)).expect("a session always serializes")
}

/// Reads and replays a session file. On any error nothing is built.
pub fn from_json(text: &str) -> Result<Lab, SessionError> {
    if text.len() > MAX_SESSION_BYTES {
        return Err(SessionError::TooLarge { bytes: text.len() });
    }
    let file: SessionFile =
        serde_json::from_str(text).map_err(|e| SessionError::NotJson(e.to_string()))?;
    if file.format != FORMAT {
        return Err(SessionError::WrongFormat);
    }
    if file.version != VERSION {
        return Err(SessionError::UnsupportedVersion(file.version));
    }
    check_bounds(&file.actions)?;
    Lab::replay(&History {
        actions: file.actions,
    })
    .map_err(SessionError::Replay)
}

/// The session as a URL-safe token for a link's fragment (compact JSON, base64url).
pub fn to_link_token(history: &History) -> String {
    URL_SAFE_NO_PAD.encode(to_compact_json(history))
}

pub fn from_link_token(token: &str) -> Result<Lab, SessionError> {
    // base64 grows by a third: refuse an oversized token before decoding it.
    if token.len() > MAX_SESSION_BYTES / 3 * 4 + 4 {
        return Err(SessionError::TooLarge {
            bytes: token.len() / 4 * 3,
        });
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim())
        .map_err(|_| SessionError::BadLink)?;
    let text = String::from_utf8(bytes).map_err(|_| SessionError::BadLink)?;
    from_json(&text)
}

fn check_bounds(actions: &[Action]) -> Result<(), SessionError> {
    if actions.len() > MAX_ACTIONS {
        return Err(SessionError::TooManyActions(actions.len()));
    }
    let sends: u64 = actions.iter().map(Action::sends).sum();
    if sends > MAX_SENDS {
        return Err(SessionError::TooManySends(sends));
    }
    match actions.iter().position(|a| {
        a.texts()
            .iter()
            .any(|t| t.chars().count() > MAX_FIELD_CHARS)
    }) {
        Some(index) => Err(SessionError::TextTooLong { index }),
        None => Ok(()),
    }
}
