#!/usr/bin/env bash
# The tests of architecture-dependent code (label arch; docs/testing.md
# says which and why), cross-compiled for 32-bit ARM (armhf) and run under
# qemu-arm against armhf Mesa llvmpipe; GT_QEMU_LABEL= (empty) runs the
# whole suite. The armhf libraries come from a private sysroot
# (tools/armhf-sysroot.sh), not from multiarch: the mirror's armhf index can
# be stale, and armhf must not be left a dpkg architecture.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh armhf
sysroot=$PWD/build-armhf/sysroot
tools/armhf-sysroot.sh "$sysroot"
cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=toolchains/arm-linux-gnueabihf.cmake \
      -DGT_ARMHF_SYSROOT="$sysroot"
cmake --build build-armhf -j2
# ctest runs each test as `qemu-arm -L SYSROOT`; test_cli starts gltile with
# a bare qemu-arm, which takes the sysroot from QEMU_LD_PREFIX (without it
# the armhf loader is not found and the cli test is skipped). Mesa's EGL
# vendor file and DRI driver are found in the sysroot through the same
# prefix.
label=${GT_QEMU_LABEL-arch}
QEMU_LD_PREFIX=$sysroot ctest --test-dir build-armhf ${label:+-L "$label"} --output-on-failure --no-tests=error -j2
