//! Engine workloads for the benchmark (`scripts/bench.sh`): the same code measured
//! natively (examples/bench_engine.rs) and inside Wasm in the browser. Each takes
//! a clock in milliseconds and returns operations per second; preparing the
//! requests is left out of the timed part.

use crate::core::{GrantPoints, PointStore};
use crate::lab::{Action, Lab};
use crate::sim::{Origin, Setting, World};

fn grants(n: u32) -> Vec<GrantPoints> {
    (0..n)
        .map(|i| GrantPoints::new(format!("k{i}"), "bench", 1))
        .collect()
}

/// Store applies per second: `n` new grants, then a retry of each of the first
/// `n / 4` (a stored receipt to return), all through `PointStore::apply`.
pub fn store_applies_per_sec(n: u32, now_ms: fn() -> f64) -> f64 {
    let store = PointStore::new();
    let grants = grants(n);
    let retries = &grants[..grants.len() / 4];
    let start = now_ms();
    for grant in grants.iter().chain(retries) {
        let _ = store.apply(grant);
    }
    let elapsed = now_ms() - start;
    assert_eq!(store.balance("bench"), n as i32, "every grant applied once");
    (grants.len() + retries.len()) as f64 / (elapsed / 1000.0)
}

/// Worker round trips per second through the simulated world, as the page runs
/// them: each caller is a task that sends one grant to the article's worker and
/// waits for its answer under a deadline, the consumer is a task on the same
/// executor, and every stage is logged. Processing takes no virtual time, so each
/// send is answered before the next.
pub fn worker_round_trips_per_sec(n: u32, now_ms: fn() -> f64) -> f64 {
    let mut world = World::new();
    world
        .set(Setting::ProcessingMs(0))
        .expect("0 ms is allowed");
    let grants = grants(n);
    let start = now_ms();
    for grant in grants {
        world.send(grant, false, false, Origin::Send);
    }
    let elapsed = now_ms() - start;
    assert_eq!(
        world.store().balance("bench"),
        n as i32,
        "every round trip applied once"
    );
    assert!(world.until_next().is_none(), "every caller was answered");
    f64::from(n) / (elapsed / 1000.0)
}

/// The stage's cost per frame: a stress run of `n` grants (30% repeats) worked
/// off event by event, with the picture folded at each of its first `frames`
/// moments, as the page draws it. Returns (mean ms, longest ms) per fold.
pub fn stage_frame_ms(n: u32, frames: u32, now_ms: fn() -> f64) -> (f64, f64) {
    let mut lab = Lab::new();
    lab.dispatch(Action::Stress {
        account_id: "bench".into(),
        points: 1,
        count: n,
        duplicate_percent: 30,
    })
    .expect("a stress run of this size is allowed");
    let (mut total, mut longest, mut drawn) = (0.0_f64, 0.0_f64, 0_u32);
    while drawn < frames && lab.skip_to_next().unwrap_or(false) {
        let start = now_ms();
        let stage = lab.state().stage();
        let elapsed = now_ms() - start;
        assert!(stage.tokens.len() <= 5 * crate::lab::MAX_TOKENS_PER_LANE);
        total += elapsed;
        longest = longest.max(elapsed);
        drawn += 1;
    }
    (total / f64::from(drawn.max(1)), longest)
}

/// The explorer's histories per second: a search of `n` histories under the
/// article's recommendations (which no history breaks, so none is shrunk),
/// each run in a fresh world and judged on every promise.
pub fn explorer_histories_per_sec(n: u64, now_ms: fn() -> f64) -> f64 {
    use crate::lab::explore::{Combination, Search, Verdict, DEFAULT_MAX_STEPS};
    use crate::lab::Settings;
    let settings = Combination::recommended().settings(&Settings::default());
    let mut search = Search::new(&settings, 1, n, DEFAULT_MAX_STEPS);
    let start = now_ms();
    let verdict = search.finish().clone();
    let elapsed = now_ms() - start;
    assert_eq!(
        verdict,
        Verdict::Held { tried: n },
        "the recommendations hold"
    );
    n as f64 / (elapsed / 1000.0)
}

// Only in the benchmark's own build (`--features bench-exports`): the lab's page
// never calls these, and leaving them out keeps the worker's async plumbing out of
// the bundle a visitor downloads.
#[cfg(all(target_arch = "wasm32", feature = "bench-exports"))]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;

    fn now_ms() -> f64 {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    }

    /// For the benchmark script: `wasmBindings.benchStoreApplies(n)`.
    #[wasm_bindgen(js_name = benchStoreApplies)]
    pub fn bench_store_applies(n: u32) -> f64 {
        super::store_applies_per_sec(n, now_ms)
    }

    /// `[mean ms, longest ms]` of the stage's fold per frame of a stress run.
    #[wasm_bindgen(js_name = benchStageFrames)]
    pub fn bench_stage_frames(n: u32, frames: u32) -> Vec<f64> {
        let (mean, longest) = super::stage_frame_ms(n, frames, now_ms);
        vec![mean, longest]
    }

    /// The explorer's histories per second in Wasm.
    #[wasm_bindgen(js_name = benchExplorerHistories)]
    pub fn bench_explorer_histories(n: u32) -> f64 {
        super::explorer_histories_per_sec(n.into(), now_ms)
    }

    #[wasm_bindgen(js_name = benchWorkerRoundTrips)]
    pub fn bench_worker_round_trips(n: u32) -> f64 {
        super::worker_round_trips_per_sec(n, now_ms)
    }
}
