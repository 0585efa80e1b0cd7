//! Reading a saved session and a link's session. A split build keeps the
//! readers (the session format's parser, its field-by-field errors, every
//! older format) in a chunk of their own: a first visit has neither to read,
//! so it never fetches them; a returning one fetches them while it starts.
//! Writing a session stays in the first load (every change is saved).

use crate::lab::{from_json, from_link_token, Lab, SessionError};

use super::deferred::{arrive, part, with_retries, ChunkError};
use super::page_env;

part! {
    /// Reads a session saved in the browser: in the sessions' chunk.
    sessions: fn read_saved(json: String) -> Result<Lab, SessionError> {
        from_json(&json)
    }
}

part! {
    /// Reads a permalink's session (`#state=`): in the sessions' chunk.
    sessions: fn read_link(token: String) -> Result<Lab, SessionError> {
        from_link_token(&token)
    }
}

/// What the page found to restore at start: the saved session, and the
/// address's link, each read (`None`: there was none).
pub struct AtStart {
    pub saved: Option<Result<Lab, SessionError>>,
    pub linked: Option<Result<Lab, SessionError>>,
}

/// Reads the saved session and the address's link, if there are any. `Err`:
/// there was something to read and the chunk that reads it did not arrive;
/// both are left where they are (the saved one in the browser, the link in
/// the address), so a reload opens them.
pub async fn at_start() -> Result<AtStart, ChunkError> {
    let saved = page_env::load_saved();
    let token = page_env::link_token();
    let saved = match saved {
        Some(json) => Some(with_retries(|| arrive!(read_saved(json.clone())), None).await?),
        None => None,
    };
    let linked = match token {
        Some(token) => Some(link(token).await?),
        None => None,
    };
    Ok(AtStart { saved, linked })
}

/// Reads a link's session; the link leaves the address once read (from then
/// on the saved session carries on from it), and stays when it could not be.
pub async fn link(token: String) -> Result<Result<Lab, SessionError>, ChunkError> {
    let read = with_retries(|| arrive!(read_link(token.clone())), None).await?;
    page_env::forget_link();
    Ok(read)
}
