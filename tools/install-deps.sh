#!/usr/bin/env bash
# Installs what building and testing gltile needs on Debian 12. Quick when
# all is already there: apt is not touched then.
#
#   tools/install-deps.sh          native build: compilers, CMake, EGL and GLES
#                                  headers and loaders, Mesa's llvmpipe (a GLES
#                                  3.1 device without a GPU), glslangValidator,
#                                  python3 (the tests that read CSV back)
#   tools/install-deps.sh arm64    also the aarch64 cross compiler, qemu-user
#                                  and the arm64 Mesa the tests run on
#   tools/install-deps.sh armhf    also the 32-bit ARM cross compiler and
#                                  qemu-user; the armhf Mesa comes from a
#                                  private sysroot (tools/armhf-sysroot.sh)
#   tools/install-deps.sh android  also clang and the arm64 C headers for the
#                                  Android compile check
#   tools/install-deps.sh sanitizers  also valgrind, for tools/test-sanitizers.sh
#                                  (gcc brings its ASan and UBSan runtimes)
#   tools/install-deps.sh fuzz     also clang and its runtimes (libFuzzer,
#                                  ASan, UBSan) for tools/run-fuzz.sh
# GT_APT_STAMP=FILE: one apt-get update for the runs that share FILE (CI).
# GT_BENCH_DEPS=1 adds the peers `gltile bench` compares matmul with:
# OpenBLAS, and CLBlast with pocl (OpenCL on the CPU).
set -euo pipefail

target=${1:-native}
packages=(cmake gcc g++ make libc6-dev pkg-config libegl-dev libgles-dev libegl-mesa0
          libgl1-mesa-dri glslang-tools python3)
foreign=()
case "$target" in
  native) ;;
  arm64)
    # libc6-dev-arm64-cross is only recommended by the compiler, but needed.
    packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
    foreign=(arm64)
    packages+=(libegl-dev:arm64 libgles-dev:arm64 libegl-mesa0:arm64 libgl1-mesa-dri:arm64) ;;
  armhf)
    # No multiarch here: the mirror's armhf index can be stale, which breaks
    # every apt-get update once armhf is a foreign architecture.
    packages+=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user) ;;
  android) packages+=(clang libc6-dev-arm64-cross) ;;
  sanitizers) packages+=(valgrind) ;;
  # Debian 12's clang is clang 14; libFuzzer comes with its runtimes.
  fuzz) packages+=(clang libclang-rt-14-dev) ;;
  *) echo "install-deps: unknown target '$target' (native, arm64, armhf, android, sanitizers, fuzz)" >&2; exit 2 ;;
esac
if [[ "${GT_BENCH_DEPS:-0}" == 1 ]]; then packages+=(libopenblas-dev libclblast1 pocl-opencl-icd); fi

# A package counts as installed when the wanted instance is: the native
# (or arch: all) one, or the named architecture for name:arch. With
# multiarch dpkg-query prints one line per architecture.
native=$(dpkg --print-architecture)
missing=()
for p in "${packages[@]}"; do
  name=${p%%:*}
  arch="($native|all)"
  [[ "$p" == *:* ]] && arch=${p##*:}
  lines=$(dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null || true)
  if ! grep -qxE "$arch install ok installed" <<<"$lines"; then
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
for a in "${foreign[@]}"; do
  dpkg --print-foreign-architectures | grep -qx "$a" || "${sudo[@]}" dpkg --add-architecture "$a"
done
echo "install-deps: installing ${missing[*]}"
# A foreign architecture's index can be stale on the mirror while the rest
# is fine: go on to the install, which fails only if a package is missing.
# GT_APT_STAMP (a file .ci/run makes for one run) keeps the indexes of an
# update made earlier in the run, for as long as no architecture is added.
archs="updated for: $native $(dpkg --print-foreign-architectures | tr '\n' ' ')"
if [[ -n "${GT_APT_STAMP:-}" && -f "$GT_APT_STAMP" && "$(cat "$GT_APT_STAMP")" == "$archs" ]]; then
  echo "install-deps: the package indexes were updated earlier in this run"
else
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
    echo "install-deps: apt-get update reported errors; installing from the indexes it has"
  if [[ -n "${GT_APT_STAMP:-}" ]]; then echo "$archs" >"$GT_APT_STAMP"; fi
fi
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
