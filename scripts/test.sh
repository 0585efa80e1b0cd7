#!/usr/bin/env bash
# Installs what is missing, then runs every test layer:
#   1. format and lint (native and wasm32)
#   2. native tests of the core and the lab engine (incl. property tests)
#   3. component tests in headless Chrome (wasm-bindgen-test)
#   4. end-to-end tests clicking through the (split) release build in real Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format"
cargo fmt --check

step "lint (native)"
cargo clippy --all-targets --locked -- -D warnings

step "lint (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --tests --locked -- -D warnings

step "lint (wasm32, the split build's split points)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --locked --features wasm-split -- -D warnings

step "native tests (PROPTEST_CASES=${PROPTEST_CASES:=10000})"
export PROPTEST_CASES
cargo test --locked

step "component tests in headless Chrome"
cargo test --locked --target wasm32-unknown-unknown --test browser

step "release build (split, README: The Wasm split)"
rm -rf dist
scripts/build.sh

step "end-to-end tests in Chromium"
node --test --test-concurrency=1 e2e/*.test.mjs
