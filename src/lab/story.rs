//! The article's story in four steps, as the numbered steps above the sandbox
//! carry it out: one button per step, each the actions below. Run in order on a
//! fresh lab, they reach the article's numbers as it writes them: 100 added
//! with a lost acknowledgement, a retry that returns the receipt for 100, a
//! changed payload refused, and a later 25 that makes 125 while the first
//! grant's receipt still says 100.

use crate::core::GrantPoints;

use super::Action;

/// How many steps the story has.
pub const STORY_STEPS: usize = 4;
/// The account the story grants to, as the article's sample does.
pub const STORY_ACCOUNT: &str = "account-7";

/// The actions of step `step` (1 to [`STORY_STEPS`]); `None` for any other.
pub fn story_step(step: usize) -> Option<Vec<Action>> {
    let send = |key: &str, points: i32, lose: bool| Action::Send {
        grant: GrantPoints::new(key, STORY_ACCOUNT, points),
        lose_acknowledgement: lose,
    };
    Some(match step {
        // The points are added; the caller only hears a timeout.
        1 => vec![send("order-1042", 100, true)],
        // The same request again: the stored receipt comes back.
        2 => vec![Action::RetrySame {
            lose_acknowledgement: false,
        }],
        // The same key for other points: refused.
        3 => vec![send("order-1042", 200, false)],
        // A later purchase, then the first grant once more.
        4 => vec![
            send("order-1043", 25, false),
            send("order-1042", 100, false),
        ],
        _ => return None,
    })
}
