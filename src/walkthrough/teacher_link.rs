//! A teacher's scenario in a link: its file, deflated and written in the
//! characters an address's fragment carries (`#teach=…`). The fragment never
//! reaches a server, so the scenario goes nowhere but to the person who opens
//! the link. A link is refused whole when it is cut, tampered with, too long,
//! or holds a scenario the lab would refuse as a file.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::teacher::{TeacherError, TeacherScenario, MAX_TEACHER_BYTES};

/// How a teacher's scenario is written into the address.
pub const TEACH_FRAGMENT: &str = "#teach=";
/// The longest token a link carries: what mail, chat and a projector's
/// address bar pass whole. The page states it beside the link.
pub const MAX_LINK_CHARS: usize = 12_000;

/// Why a link's scenario could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// Longer than any link the lab writes.
    TooLong { chars: usize },
    /// Not a token the lab wrote (cut short, or changed by hand).
    Damaged,
    /// It unpacks to more than a file may hold.
    Unpacks,
    /// The scenario inside is refused, as a file would be.
    Scenario(TeacherError),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::TooLong { chars } => write!(
                f,
                "the link's scenario is {chars} characters; a link holds at most {MAX_LINK_CHARS}"
            ),
            LinkError::Damaged => write!(f, "the link is damaged: it may have been cut short"),
            LinkError::Unpacks => write!(
                f,
                "the link's scenario unpacks to more than {} KB, more than a scenario may hold",
                MAX_TEACHER_BYTES / 1024
            ),
            LinkError::Scenario(error) => write!(f, "{error}"),
        }
    }
}

/// The token for `#teach=`, or why the scenario is too large for a link
/// (its file can still be shared).
pub fn to_link(scenario: &TeacherScenario) -> Result<String, LinkError> {
    let json = serde_json::to_string(scenario.file()).expect("a checked file serializes");
    let token = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9));
    match token.len() {
        chars if chars > MAX_LINK_CHARS => Err(LinkError::TooLong { chars }),
        _ => Ok(token),
    }
}

/// Reads a `#teach=` token back into a checked scenario.
pub fn from_link(token: &str) -> Result<TeacherScenario, LinkError> {
    if token.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong { chars: token.len() });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(token.trim())
        .map_err(|_| LinkError::Damaged)?;
    // A small token can inflate to a great deal: never past what a file may be.
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_TEACHER_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::Unpacks,
            _ => LinkError::Damaged,
        })?;
    let text = String::from_utf8(json).map_err(|_| LinkError::Damaged)?;
    TeacherScenario::parse(&text).map_err(LinkError::Scenario)
}
