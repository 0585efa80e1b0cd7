#!/usr/bin/env bash
# Installs what is missing, then starts the lab at http://127.0.0.1:8080/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
exec trunk serve "$@"
