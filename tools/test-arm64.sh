#!/usr/bin/env bash
# The tests of architecture-dependent code (label arch; docs/testing.md
# says which and why), cross-compiled for aarch64 and run under
# qemu-aarch64 against arm64 Mesa llvmpipe (the ARM-board stand-in).
# GT_QEMU_LABEL= (empty) runs the whole suite there instead.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh arm64
cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake
cmake --build build-arm64 -j2
label=${GT_QEMU_LABEL-arch}
ctest --test-dir build-arm64 ${label:+-L "$label"} --output-on-failure --no-tests=error -j2
