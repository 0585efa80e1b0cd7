//! How large a session may grow: the lab refuses to grow past it, and a file or
//! link past it is refused whole, so every session the lab builds can be saved
//! and opened again. Also the longest a single wait or move of the clock may go.

use crate::sim::{Millis, HOUR_MS};

/// Most actions a session holds. The last place is kept for time to pass (a
/// wait), so work already queued can always finish.
pub const MAX_ACTIONS: usize = 5_000;
/// Most grants a whole session may queue, so a shared link cannot freeze the page.
pub const MAX_SENDS: u64 = 50_000;

/// The most virtual time one wait may cover: a day.
pub const MAX_WAIT_MS: Millis = 86_400_000;
/// The furthest one move of the clock may go: a year.
pub const MAX_CLOCK_MOVE_MS: Millis = 365 * 24 * HOUR_MS;
