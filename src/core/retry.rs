//! A caller's automatic retry policy: how many attempts at most, how long to
//! wait before each retry (exponential backoff with jitter drawn from a
//! recorded seed, so a replay waits the same), and what is worth retrying at
//! all: only what may go away (a timeout, an operation in progress), never a
//! changed payload or bad input. When the attempts run out with the outcome
//! still unknown, the caller looks the operation up instead of retrying forever.

use serde::{Deserialize, Serialize};

use super::error::GrantError;

/// The wait before the first retry, before any jitter.
pub const BASE_BACKOFF_MS: u64 = 200;
/// No wait is longer than this.
pub const MAX_BACKOFF_MS: u64 = 5_000;
/// The most attempts a caller may be set to make.
pub const MAX_ATTEMPTS: u32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1 to [`MAX_ATTEMPTS`]).
    pub max_attempts: u32,
    /// Where the jitter comes from.
    pub seed: u64,
}

impl RetryPolicy {
    /// Whether an attempt that ended with `error` is worth another.
    pub fn retries(error: &GrantError) -> bool {
        error.is_retryable()
    }

    /// The shortest and longest wait before retry `n` (1 for the first retry):
    /// the exponential step, capped, halved and then jittered up to the full step.
    pub fn range(n: u32) -> (u64, u64) {
        let step = BASE_BACKOFF_MS
            .saturating_mul(1u64 << (n.saturating_sub(1)).min(20))
            .min(MAX_BACKOFF_MS);
        (step / 2, step)
    }

    /// The wait before retry `n` of the call whose first attempt is `first`:
    /// "equal jitter", half the step plus a share of the other half drawn from
    /// the seed, the call and the retry, so each replay waits exactly as long.
    pub fn backoff(&self, first: u64, n: u32) -> u64 {
        let (low, high) = Self::range(n);
        let mix = splitmix(self.seed ^ first.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(n));
        low + mix % (high - low + 1)
    }
}

/// SplitMix64: a small, well-mixed hash of a number.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
