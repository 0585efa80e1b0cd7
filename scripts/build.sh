#!/usr/bin/env bash
# The release build of the page, split (README, "The Wasm split"): the first load
# carries what the first screen needs; the walkthrough and the other parts declared
# in src/ui/deferred.rs arrive as chunks when first used. Writes dist/ (or the
# folder given with --dist); any other trunk build option may follow but
# --features (use LAB_FEATURES).
#
# rustc must keep its relocations for the splitter (--emit-relocs): that makes an
# unsplit Wasm twice as big, so only this build asks for it, in a target folder of
# its own. RUSTFLAGS replaces .cargo/config.toml's flags: keep them the same here.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
export RUSTFLAGS="--cfg erase_components -Clink-args=--emit-relocs"
export CARGO_TARGET_DIR="$PWD/target/split"
# LAB_FEATURES adds cargo features (the benchmark's `no-stage`).
exec trunk build --release --locked --features "wasm-split${LAB_FEATURES:+,$LAB_FEATURES}" "$@"
