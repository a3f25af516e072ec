#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs every tier.
#   1. Debian tools the capture tests use (tshark, tcptrace), the viewer's browser test uses
#      (chromium, chromium-driver) and the usrsctp harness links (libusrsctp-dev), if missing.
#   2. The sctpsim package with its test extras (builds the Rust core with maturin).
#   3. Rust: formatting, clippy with warnings denied, unit/property/integration tests.
#   4. Python: API and CLI tests (pytest), the _native.pyi stub check, quick model validations.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "system tools"
if ! command -v tshark >/dev/null 2>&1 || ! command -v tcptrace >/dev/null 2>&1 \
    || ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tshark tcptrace chromium chromium-driver >/dev/null
fi
tshark --version | head -n 1
chromedriver --version | head -n 1
# usrsctp for the interoperation harness (crates/interop, `sctpsim verify usrsctp`).
if ! [ -e /usr/include/usrsctp.h ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libusrsctp-dev >/dev/null
fi

step "python package (pip install .[test])"
python3 -m pip install -q --disable-pip-version-check ".[test]"

step "rust: fmt, clippy, tests"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace --quiet
# The usrsctp harness: its tests, and the release binary `sctpsim verify usrsctp` runs.
cargo clippy -p sctpsim-interop --features usrsctp --all-targets --quiet -- -D warnings
cargo test -p sctpsim-interop --features usrsctp --release --quiet
cargo build -p sctpsim-interop --features usrsctp --release --quiet
# `sctpsim verify usrsctp` (in pytest's `verify --quick` and below) runs this binary.
export SCTPSIM_USRSCTP_INTEROP="${CARGO_TARGET_DIR:-$PWD/target}/release/sctpsim-usrsctp-interop"

step "python: pytest"
SCTPSIM_REQUIRE_TOOLS=1 python3 -m pytest tests/python -q -rs

step "model validations (quick)"
# The usrsctp check runs the harness binary built above, and must not be skipped here.
SCTPSIM_REQUIRE_TOOLS=1 python3 -m sctpsim verify --quick
