#!/usr/bin/env bash
# Installs whatever this project needs that the machine lacks, and skips what is
# already there at the right version. Safe to run again and again.
# Versions follow ../shared/TOOLCHAIN.md (Rust as rust-toolchain.toml pins it,
# Trunk 0.21.14, wasm-bindgen pinned to Cargo.lock, wasm-opt from the npm package
# binaryen, Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# The splitter, pinned: its runtime must match the wasm_split_helpers in Cargo.lock.
WASM_SPLIT_VERSION=0.2.4
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

# --- Rust toolchain ------------------------------------------------------------
# rust-toolchain.toml pins the release (with rustfmt, clippy and the wasm target), so
# that a new stable's lints cannot break the build. Every cargo call in this folder uses
# that release; this makes sure it is installed:
#   1. already there, and really that release: nothing to do;
#   2. otherwise rustup downloads it (minimal profile plus the pinned components);
#   3. if the download fails (no access to static.rust-lang.org) and an installed
#      toolchain, e.g. "stable", is exactly that release, it is registered under the
#      pinned name by a symlink in rustup's toolchains folder: the same files, no
#      download. (`rustup toolchain link` refuses names that look like releases.) Step 1
#      checks the alias on every run: once "stable" moves on, the alias is dropped and
#      the pinned release is installed properly.
RUST_CHANNEL=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
RUSTUP_TOOLCHAINS="${RUSTUP_HOME:-$HOME/.rustup}/toolchains"
# Lists installed toolchains without asking rustup to resolve (and install) the pinned one.
installed_toolchains() { rustup toolchain list | sed 's/ .*//' | grep -v '^no installed toolchains$' || true; }
is_release() { [[ "$(rustup run "$1" rustc -V 2>/dev/null)" == "rustc $RUST_CHANNEL "* ]]; }

ensure_rust_toolchain() {
  local name same host
  name=$(installed_toolchains | grep -m1 "^$RUST_CHANNEL-" || true)
  if [ -n "$name" ]; then
    if is_release "$name"; then
      return 0
    elif [ -L "$RUSTUP_TOOLCHAINS/$name" ]; then
      say "$name is an alias of another Rust release now: removing the alias"
      rm "$RUSTUP_TOOLCHAINS/$name"
    else
      echo "[setup] toolchain $name is installed but is not rustc $RUST_CHANNEL" >&2
      exit 1
    fi
  fi
  say "installing Rust $RUST_CHANNEL (pinned in rust-toolchain.toml)"
  if timeout "${RUST_INSTALL_TIMEOUT:-900}" rustup toolchain install "$RUST_CHANNEL" --profile minimal \
    --component rustfmt,clippy --target wasm32-unknown-unknown; then
    return 0
  fi
  for same in $(installed_toolchains); do
    if [ ! -L "$RUSTUP_TOOLCHAINS/$same" ] && is_release "$same"; then
      host=$(rustup run "$same" rustc -vV | sed -n 's/^host: //p')
      say "no download possible: using the installed $same (rustc $RUST_CHANNEL) as $RUST_CHANNEL-$host"
      ln -s "$RUSTUP_TOOLCHAINS/$same" "$RUSTUP_TOOLCHAINS/$RUST_CHANNEL-$host"
      return 0
    fi
  done
  echo "[setup] cannot install Rust $RUST_CHANNEL: no download, and no installed toolchain is that release" >&2
  exit 1
}
ensure_rust_toolchain

if ! rustup target list --installed --toolchain "$RUST_CHANNEL" | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add --toolchain "$RUST_CHANNEL" wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed --toolchain "$RUST_CHANNEL" | grep -q "^$component"; then
    rustup component add --toolchain "$RUST_CHANNEL" "$component"
  fi
done
# --- end of Rust toolchain -------------------------------------------------------

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
  # No --locked: its lock file names a crate version this registry lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing Trunk $TRUNK_VERSION (about ten minutes on two cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

# The splitter of the release build (scripts/wasm-split.mjs): the version whose
# runtime matches the wasm_split_helpers that Cargo.lock's leptos uses.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (a few minutes)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --locked --features build-binary --force
fi

# npm tools: wasm-opt (binaryen), playwright-core and axe-core, exactly as package-lock.json
# says. Reinstall only when the manifest or the lock changed since the last install.
if [ ! -f node_modules/.installed ] || [ package.json -nt node_modules/.installed ] \
  || [ package-lock.json -nt node_modules/.installed ]; then
  say "installing npm tools (binaryen, playwright-core, axe-core)"
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules/.installed
fi

cargo fetch --quiet
