//! Native engine throughput, printed as JSON for scripts/bench.sh to set beside the
//! same workloads measured in Wasm.

use std::sync::OnceLock;
use std::time::Instant;

use idempotency_lab::bench::{
    explorer_histories_per_sec, stage_frame_ms, store_applies_per_sec, worker_round_trips_per_sec,
};

fn now_ms() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Best of several runs: the figure least disturbed by the rest of the machine.
fn best(runs: usize, measure: impl Fn() -> f64) -> f64 {
    (0..runs).map(|_| measure()).fold(0.0, f64::max)
}

fn main() {
    let n = 200_000;
    let applies = best(5, || store_applies_per_sec(n, now_ms));
    let round_trips = best(5, || worker_round_trips_per_sec(n, now_ms));
    let (stage_mean, stage_longest) = stage_frame_ms(10_000, 2_000, now_ms);
    let histories = best(3, || explorer_histories_per_sec(20_000, now_ms));
    println!(
        "{{\"storeAppliesPerSec\": {applies:.0}, \"workerRoundTripsPerSec\": {round_trips:.0}, \"stageFrameMeanMs\": {stage_mean:.4}, \"stageFrameLongestMs\": {stage_longest:.4}, \"explorerHistoriesPerSec\": {histories:.0}}}"
    );
}
