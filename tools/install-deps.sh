#!/usr/bin/env bash
# Installs what building and testing gltile needs on Debian 12: the
# compiler and CMake, EGL and GLES headers and loaders, Mesa's llvmpipe (a
# GLES 3.1 device without a GPU) and glslangValidator. Quick when all is
# already there: apt is not touched then.
set -euo pipefail

packages=(cmake gcc make libc6-dev pkg-config libegl-dev libgles-dev libegl-mesa0
          libgl1-mesa-dri glslang-tools)
# Optional extras, asked for with GT_BENCH_DEPS=1: OpenBLAS, the CPU peer
# that `gltile bench` compares matmul with.
if [[ "${GT_BENCH_DEPS:-0}" == 1 ]]; then packages+=(libopenblas-dev); fi

# A package counts as installed when its native (or arch: all) instance is.
# With multiarch (arm64 or armhf added for cross builds) dpkg-query prints
# one line per architecture, so look at each line.
native=$(dpkg --print-architecture)
missing=()
for p in "${packages[@]}"; do
  lines=$(dpkg-query -W -f='${Architecture} ${Status}\n' "$p" 2>/dev/null || true)
  if ! grep -qxE "($native|all) install ok installed" <<<"$lines"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=()
if [[ $(id -u) != 0 ]]; then
  if command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
