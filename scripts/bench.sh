#!/usr/bin/env bash
# Builds the lab and a minimal Leptos counter (release, wasm-opt), then prints the
# performance figures: download size (gzip and brotli; the first load, then each
# chunk), time to ready on a throttled link and Lighthouse's mobile figures,
# start-up beside the counter, engine throughput in Wasm beside native, and the
# stress run over ten runs. Figures, not pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh

echo "== building the lab (release, split: README, The Wasm split)"
scripts/build.sh >/dev/null
echo "== building the lab with the engine benchmark exports (release, kept apart)"
# Same code and profile, plus two exported functions the page never calls: they
# stay out of the bundle a visitor downloads, so they get a dist of their own.
trunk build --release --locked --features bench-exports --dist target/bench-dist >/dev/null
echo "== building the lab without the stage (release, split, kept apart: the bytes the stage adds)"
LAB_FEATURES=no-stage scripts/build.sh --dist "$PWD/target/nostage-dist" >/dev/null
echo "== building the counter baseline (release)"
(cd bench/counter && CARGO_TARGET_DIR="$PWD/../../target/counter" trunk build --release --locked >/dev/null)
# Lighthouse (pinned in bench/lighthouse/package-lock.json) only here, not in the test run.
if [ ! -x bench/lighthouse/node_modules/.bin/lighthouse ]; then
  echo "== installing Lighthouse for the benchmark"
  npm ci --prefix bench/lighthouse --no-audit --no-fund >/dev/null
fi
export CHROME_PATH="${CHROME_PATH:-$CHROMIUM}"
echo "== measuring"
node bench/run.mjs
echo "== a docs page with two lesson frames, on a throttled link"
node bench/embed.mjs
echo "== the moving picture: a burst and a stress run travelling, the CPU slowed 4x"
node bench/motion.mjs
