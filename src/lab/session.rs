//! A session as a file or a link: the history of actions, serialized with serde,
//! and checked on the way in so a malformed, oversized or hostile input is refused
//! whole, with a reason, before it can touch the lab.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::action::Action;
use super::form::MAX_FIELD_CHARS;
use super::json_read::{read_json, FieldProblem, ReadError};
use super::limits::{MAX_ACTIONS, MAX_SENDS};
use super::read_action::{Format1, Format2, Today};
use super::recorded_lab::{History, Lab, ReplayError};
use crate::sim::Setting;

/// Names the file's kind, so an unrelated JSON file is told apart at once.
pub const FORMAT: &str = "idempotency-lab/session";
/// 4: messages take time on the network (`transit-ms`, a setting). Older
/// files were made in a world where they arrived at once, so they replay with
/// a transit of 0 set first. 3: a change of the world's settings is one
/// action, `set`, naming the setting (`{"set": {"naive": true}}`). Version 2
/// files (an action per setting) and version 1 files (from the lab before it
/// had a clock) are converted on the way in.
pub const VERSION: u32 = 4;
/// Largest file (and decoded link) accepted: room for the largest session the lab
/// lets a person build (every action at its longest, pretty-printed).
pub const MAX_SESSION_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionFile<A> {
    format: String,
    version: u32,
    actions: Vec<A>,
}

/// Just enough of a file to know which version's actions to expect.
#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    TooLarge {
        bytes: usize,
    },
    /// Not base64url, or not text: a link that was cut or mangled.
    BadLink,
    /// Not JSON at all (cut short, or another kind of file); the parser's words.
    NotJson(String),
    /// JSON, but a field breaks the session's rules: where (`actions[3].grant.points`)
    /// and which rule.
    BadField {
        path: String,
        problem: FieldProblem,
    },
    WrongFormat,
    UnsupportedVersion(u32),
    TooManyActions(usize),
    /// A session of exactly [`MAX_ACTIONS`] actions whose last is not a wait: the
    /// last place is kept for time to pass, so work it queued can finish.
    NoRoomForTime,
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
            SessionError::BadField { path, problem } => write!(f, "{path}: {problem}"),
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
            SessionError::NoRoomForTime => write!(
                f,
                "action {MAX_ACTIONS} must be a wait: a session's last place is kept for time to pass"
            ),
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

/// Splits a field's path into the action it is in (numbered from 1) and the
/// path inside it: `actions[3].grant.points` is (Some(4), "grant.points").
pub fn field_place(path: &str) -> (Option<usize>, &str) {
    let inside = path
        .strip_prefix("actions[")
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?.checked_add(1)?, rest)));
    match inside {
        Some((n, rest)) => (Some(n), rest.trim_start_matches('.')),
        // serde_path_to_error names the whole file ".".
        None => (None, path.trim_start_matches('.')),
    }
}

/// Reads `text` as a `T` by the lab's one JSON reader.
fn parse<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, SessionError> {
    read_json(text).map_err(|error| match error {
        ReadError::NotJson(words) => SessionError::NotJson(words),
        ReadError::BadField { path, problem } => SessionError::BadField {
            path,
            problem: *problem,
        },
    })
}

fn session_file(history: &History) -> SessionFile<Action> {
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
    from_json_counted(text).map(|(lab, _)| lab)
}

/// [`from_json`], with how many actions the file itself holds: what its person
/// did. A file of an older format opens with the conversion's own actions
/// first (the times that format took for granted), which are not theirs.
pub fn from_json_counted(text: &str) -> Result<(Lab, usize), SessionError> {
    if text.len() > MAX_SESSION_BYTES {
        return Err(SessionError::TooLarge { bytes: text.len() });
    }
    let header: Header = parse(text)?;
    if header.format != FORMAT {
        return Err(SessionError::WrongFormat);
    }
    match header.version {
        VERSION => {
            let file: SessionFile<Today> = parse(text)?;
            let actions: Vec<Action> = file.actions.into_iter().map(|a| a.0).collect();
            check_bounds(actions.len(), actions.iter().map(Some))?;
            let count = actions.len();
            let lab = Lab::replay(&History { actions }).map_err(SessionError::Replay)?;
            Ok((lab, count))
        }
        3 => {
            let file: SessionFile<Today> = parse(text)?;
            let actions: Vec<Action> = file.actions.into_iter().map(|a| a.0).collect();
            let count = actions.len();
            Ok((replay_before_transit(actions)?, count))
        }
        2 => {
            let file: SessionFile<Format2> = parse(text)?;
            let actions: Vec<Action> = file.actions.into_iter().map(|a| a.0).collect();
            let count = actions.len();
            Ok((replay_before_transit(actions)?, count))
        }
        1 => {
            let file: SessionFile<Format1> = parse(text)?;
            let converted: Vec<Option<Action>> = file.actions.into_iter().map(|a| a.0).collect();
            // The conversion adds two actions of its own (the processing time
            // and the transit).
            check_bounds(converted.len() + 2, converted.iter().map(Option::as_ref))?;
            let count = converted.len();
            Ok((replay_v1(converted)?, count))
        }
        other => Err(SessionError::UnsupportedVersion(other)),
    }
}

/// The action that makes today's world one where messages arrive at once, as
/// they did when a session of version 3 or older was made.
pub fn before_transit() -> Action {
    Action::Set(Setting::TransitMs(0))
}

/// Replays a session of version 2 or 3: in a world without transit, set first.
fn replay_before_transit(mut actions: Vec<Action>) -> Result<Lab, SessionError> {
    check_bounds(actions.len() + 1, actions.iter().map(Some))?;
    actions.insert(0, before_transit());
    Lab::replay(&History { actions }).map_err(|e| {
        // Places in the error are the file's, not counting the action added.
        SessionError::Replay(ReplayError {
            index: e.index.saturating_sub(1),
            error: e.error,
        })
    })
}

/// Replays a version 1 session in today's world. That lab had no clock: work took
/// no time, and the consumer's recorded moves worked off what was queued. So the
/// processing time is set to 0, and each run of moves becomes "let the world run
/// until it is idle". A session saved mid-way through a slow delivery therefore
/// opens with that delivery done.
fn replay_v1(actions: Vec<Option<Action>>) -> Result<Lab, SessionError> {
    let mut lab = Lab::new();
    lab.dispatch(Action::Set(Setting::ProcessingMs(0)))
        .expect("0 ms is a valid processing time");
    lab.dispatch(before_transit())
        .expect("0 ms is a valid transit");
    for (index, action) in actions.into_iter().enumerate() {
        match action {
            None => {
                lab.skip_to_idle()
                    .map_err(|error| SessionError::Replay(ReplayError { index, error }))?;
            }
            Some(action) => lab
                .dispatch(action)
                .map_err(|error| SessionError::Replay(ReplayError { index, error }))?,
        }
    }
    Ok(lab)
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

/// Checks a file's actions, each at its place in the file (`None` for one that
/// carries nothing to check), before any is replayed. `recorded` is how many
/// actions the lab will hold once they are.
fn check_bounds<'a>(
    recorded: usize,
    actions: impl Iterator<Item = Option<&'a Action>> + Clone,
) -> Result<(), SessionError> {
    if recorded > MAX_ACTIONS {
        return Err(SessionError::TooManyActions(recorded));
    }
    // The lab keeps its last place for time to pass (see `Lab::check_room`).
    if recorded == MAX_ACTIONS && !matches!(actions.clone().last(), Some(Some(Action::Wait { .. })))
    {
        return Err(SessionError::NoRoomForTime);
    }
    let sends: u64 = actions.clone().flatten().map(Action::sends).sum();
    if sends > MAX_SENDS {
        return Err(SessionError::TooManySends(sends));
    }
    let too_long = |a: Option<&Action>| {
        a.is_some_and(|a| {
            a.texts()
                .iter()
                .any(|t| t.chars().count() > MAX_FIELD_CHARS)
        })
    };
    match actions.into_iter().position(too_long) {
        Some(index) => Err(SessionError::TextTooLong { index }),
        None => Ok(()),
    }
}
