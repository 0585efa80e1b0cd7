//! How large a session may grow: the lab refuses to grow past it, and a file or
//! link past it is refused whole, so every session the lab builds can be saved
//! and opened again.

/// Most actions a session holds. The last place is kept for time to pass (a
/// wait), so work already queued can always finish.
pub const MAX_ACTIONS: usize = 5_000;
/// Most grants a whole session may queue, so a shared link cannot freeze the page.
pub const MAX_SENDS: u64 = 50_000;
