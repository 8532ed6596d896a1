#!/usr/bin/env bash
# Compile check of the library for Android (arm64-v8a, API 24) with clang,
# where no NDK can be installed: Debian's arm64 glibc headers stand in for
# bionic and the Khronos headers are the host's. It proves the sources
# build for an Android target with __ANDROID__ defined, no more; a real
# build uses toolchains/android.cmake with an NDK.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/khronos"
for d in GLES3 GLES2 EGL KHR; do ln -s "/usr/include/$d" "$work/khronos/$d"; done
inputs=$(printf '%s|' glsl/prelude.glsl glsl/*.comp glsl/*_common.glsl)
cmake "-DOUTPUT=$work/gltile_glsl.c" "-DINPUTS=${inputs%|}" -P cmake/GltileEmbedGlsl.cmake
flags=(--target=aarch64-linux-android24 -std=c99 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror -nostdinc
       -isystem "$(clang -print-resource-dir)/include" -isystem /usr/aarch64-linux-gnu/include
       -isystem "$work/khronos" -Iinclude -Isrc)
count=0
for f in src/*/*.c "$work/gltile_glsl.c"; do
  clang "${flags[@]}" -c "$f" -o "$work/$(basename "$f").o"
  count=$((count + 1))
done
echo "android: $count sources compiled for aarch64-linux-android24"
