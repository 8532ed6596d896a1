#!/usr/bin/env bash
# The whole test suite again, cross-compiled for aarch64 and run under
# qemu-aarch64 against arm64 Mesa llvmpipe (the ARM-board stand-in).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh arm64
cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake
cmake --build build-arm64 -j2
ctest --test-dir build-arm64 --output-on-failure -j2
