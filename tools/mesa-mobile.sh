#!/usr/bin/env bash
# tools/mesa-mobile.sh [--stats] GPU CMD [ARG...]
# Runs CMD against a fake mobile GPU of ../shared/tools/mesa-mobile (Mesa
# 22.3.6's panfrost, freedreno and v3d compilers over drm-shim; nothing
# executes there, so it proves compilation, limits and static cost only).
# The folder may come as a copy that turned the driver's symlinks into
# text files naming their target; the drivers are then linked afresh in a
# temporary folder. MESA_MOBILE overrides the folder. Exit 77 when it is
# not there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${MESA_MOBILE:-$root/../shared/tools/mesa-mobile}"
if [[ ! -x "$dir/run-as" || ! -f "$dir/lib/dri/mesa_gallium_dri.so" ]]; then
  echo "mesa-mobile: no $dir/run-as; skipped" >&2
  exit 77
fi
dir="$(cd "$dir" && pwd)"
stats=()
if [[ "${1:-}" == "--stats" ]]; then
  stats=(--stats)
  shift
fi
drivers="$(mktemp -d "${TMPDIR:-/tmp}/gltile-dri.XXXXXX")"
trap 'rm -rf "$drivers"' EXIT
for name in panfrost msm v3d kmsro; do
  ln -s "$dir/lib/dri/mesa_gallium_dri.so" "$drivers/${name}_dri.so"
done
# A preload meant for the system's Mesa (the sanitizer run preloads its
# swrast driver) would meet this folder's Mesa in one process: gltile then
# hung in a futex. run-as puts its own shim in LD_PRELOAD.
unset LD_PRELOAD
rc=0
"$dir/run-as" "${stats[@]}" "$1" env LIBGL_DRIVERS_PATH="$drivers" "${@:2}" || rc=$?
exit $rc
