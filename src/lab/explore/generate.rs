//! Random histories, from a seed: what people and faults do to the world
//! (sends, retries with the same or a fresh key, lost acknowledgements, two
//! callers racing, bursts, armed crash points, restarts, redelivery, pauses
//! and steps, waits, the clock moved past retention, sign-ins, balance
//! checks, a process crashed by hand, an answer lost on its way back). The
//! settings stay as they are: they are what is being tried.

use fastrand::Rng;

use crate::core::{CrashPoint, GrantPoints};
use crate::lab::{Action, Setting, Settings, HOUR_MS, MAX_CLOCK_MOVE_MS, MAX_WAIT_MS};

/// The accounts the histories use: two, so that a caller can ask for the other's.
pub const ACCOUNTS: [&str; 2] = ["alice", "bob"];
/// The keys: few, so that operations meet.
const KEYS: [&str; 3] = ["order-1", "order-2", "order-3"];

/// The generator of history number `index` of a search from `seed`: each
/// history has its own, so any one can be made again alone.
pub fn rng_for(seed: u64, index: u64) -> Rng {
    Rng::with_seed(seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A number below `n`, the same on every platform (a `usize` range would be
/// drawn from 32 bits in the browser and 64 natively).
fn index(rng: &mut Rng, n: usize) -> usize {
    rng.u64(..n as u64) as usize
}

/// A history of 1 to `max_steps` steps under `settings`.
pub fn history(rng: &mut Rng, settings: &Settings, max_steps: usize) -> Vec<Action> {
    let length = index(rng, max_steps.max(1)) + 1;
    let mut steps = Vec::with_capacity(length + 1);
    while steps.len() < length {
        let made = steps.iter().map(attempts_made).sum();
        steps.extend(step(rng, settings, made));
    }
    steps.truncate(length);
    steps
}

fn grant(rng: &mut Rng) -> GrantPoints {
    let points = if rng.u8(0..4) == 0 { 25 } else { 100 };
    GrantPoints::new(
        KEYS[index(rng, KEYS.len())],
        ACCOUNTS[index(rng, ACCOUNTS.len())],
        points,
    )
}

fn account(rng: &mut Rng) -> String {
    ACCOUNTS[index(rng, ACCOUNTS.len())].to_owned()
}

/// Waits that matter under these settings: part of a handling, just past one,
/// just past a caller's deadline, and long enough for retries to run out.
fn wait(rng: &mut Rng, settings: &Settings) -> u64 {
    let work = settings.processing_ms;
    let deadline = settings.caller_timeout_ms;
    let choices = [
        (work / 2).max(1),
        work + 1,
        deadline + 1,
        2 * deadline + work,
        30_000,
    ];
    choices[index(rng, choices.len())].clamp(1, MAX_WAIT_MS)
}

/// How many attempts a step makes when the lab accepts it: a guess at the
/// next attempt's number (a refused retry, a redelivery or a retry policy's
/// own attempts make it wrong, and the step that relies on it is refused).
fn attempts_made(step: &Action) -> u64 {
    match step {
        Action::Send { .. } | Action::RetrySame { .. } | Action::RetryFresh { .. } => 1,
        Action::Burst { count, .. } => u64::from(*count),
        _ => 0,
    }
}

/// One thing done to the world (two for callers racing on one key, three for
/// an answer lost on its way). `made`: the attempts made so far, as guessed.
fn step(rng: &mut Rng, settings: &Settings, made: u64) -> Vec<Action> {
    let lose = |rng: &mut Rng| rng.u8(0..10) < 3;
    match rng.u32(0..106) {
        0..=21 => vec![Action::Send {
            grant: grant(rng),
            lose_acknowledgement: lose(rng),
        }],
        22..=33 => vec![Action::RetrySame {
            lose_acknowledgement: lose(rng),
        }],
        34..=38 => vec![Action::RetryFresh {
            lose_acknowledgement: lose(rng),
        }],
        39..=43 => {
            // Two callers send the same request at once.
            let grant = grant(rng);
            let send = Action::Send {
                grant,
                lose_acknowledgement: false,
            };
            vec![send.clone(), send]
        }
        44..=55 => vec![Action::Wait {
            ms: wait(rng, settings),
        }],
        56..=61 => vec![Action::Restart],
        62..=68 => vec![Action::SetCrashPoint {
            point: Some(CrashPoint::ALL[index(rng, CrashPoint::ALL.len())]),
        }],
        69..=76 => vec![Action::MoveClock {
            ms: (settings.retention_ms() + HOUR_MS).min(MAX_CLOCK_MOVE_MS),
        }],
        77..=81 => vec![Action::SetRedeliver { on: true }],
        82..=84 => vec![Action::Set(Setting::Paused(true))],
        85..=86 => vec![Action::Set(Setting::Paused(false))],
        87..=88 => vec![Action::Step],
        89..=91 => vec![Action::Burst {
            account_id: account(rng),
            points: 1,
            count: rng.u32(2..=20),
        }],
        92..=96 => vec![Action::SignIn {
            account_id: (rng.u8(0..3) != 0).then(|| account(rng)),
        }],
        97..=99 => vec![Action::CheckBalance {
            account_id: account(rng),
        }],
        // Drawn blind: a number that names no running process is refused and
        // left out, as the lab leaves it out.
        100..=102 => vec![Action::CrashProcess {
            process: rng.u32(1..=3),
        }],
        // A send, then the wait until its answer is half way back, then the
        // answer lost there by hand.
        _ => vec![
            Action::Send {
                grant: grant(rng),
                lose_acknowledgement: false,
            },
            Action::Wait {
                ms: (settings.transit_ms * 3 / 2 + settings.processing_ms).clamp(1, MAX_WAIT_MS),
            },
            Action::LoseAnswer { attempt: made + 1 },
        ],
    }
}
