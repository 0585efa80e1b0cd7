#!/usr/bin/env bash
# Installs whatever this project needs that the machine lacks, and skips what is
# already there at the right version. Safe to run again and again.
# Versions follow ../shared/TOOLCHAIN.md (Trunk 0.21.14, wasm-bindgen pinned to
# Cargo.lock, wasm-opt from the npm package binaryen, Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# The CLI must equal the wasm-bindgen crate in Cargo.lock, to the patch level.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "[setup] needs root (or sudo) to run: $*" >&2
    exit 1
  fi
}

export PATH="$HOME/.cargo/bin:$PATH"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Chromium and ChromeDriver (Debian packages)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    rustup component add "$component"
  fi
done

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
  # No --locked: its lock file names a crate version this registry lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing Trunk $TRUNK_VERSION (about ten minutes on two cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

# npm tools: wasm-opt (binaryen) and playwright-core, exactly as package-lock.json
# says. Reinstall only when the manifest or the lock changed since the last install.
if [ ! -f node_modules/.installed ] || [ package.json -nt node_modules/.installed ] \
  || [ package-lock.json -nt node_modules/.installed ]; then
  say "installing npm tools (binaryen, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules/.installed
fi

cargo fetch --quiet
