#!/usr/bin/env bash
# tools/mesa-mobile.sh [--stats] [--tool NAME] GPU CMD [ARG...]
# Runs CMD against a fake mobile GPU of ../shared/tools/NAME (default
# mesa-mobile: Mesa 22.3.6; mesa-mobile-25: Mesa 25.0.7, which adds the
# Mali-G610 and G310 and the Adreno 7xx). Both hold panfrost, freedreno
# and v3d compilers over drm-shim; nothing executes there, so this proves
# compilation, limits and static cost only. MESA_MOBILE overrides the
# folder. Exit 77 when it is not there.
#
# The 22.3.6 folder may come as a copy that turned the driver's symlinks
# into text files naming their target; its drivers are then linked afresh
# in a temporary folder. The 25.0.7 folder loads its drivers itself.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
stats=()
tool=mesa-mobile
while [[ $# -gt 0 ]]; do
  case "$1" in
    --stats) stats=(--stats); shift ;;
    --tool) tool="$2"; shift 2 ;;
    *) break ;;
  esac
done
dir="${MESA_MOBILE:-$root/../shared/tools/$tool}"
if [[ ! -x "$dir/run-as" ]]; then
  echo "mesa-mobile: no $dir/run-as; skipped" >&2
  exit 77
fi
dir="$(cd "$dir" && pwd)"
# With --stats on V3D and Adreno, the driver also prints the code it
# compiled, in which gltile compile counts V3D's TMU requests
# (tools/v3d_listing.h) and Adreno's main loop (tools/ir3_listing.h).
listing=()
if [[ ${#stats[@]} -gt 0 && "$1" == v3d* ]]; then
  listing=(env V3D_DEBUG=shaderdb,qpu)
elif [[ ${#stats[@]} -gt 0 && "$1" == adreno* ]]; then
  listing=(env IR3_SHADER_DEBUG=cs)
fi
# A preload meant for the system's Mesa (the sanitizer run preloads its
# swrast driver) would meet this folder's Mesa in one process: gltile then
# hung in a futex. run-as puts its own shim in LD_PRELOAD.
unset LD_PRELOAD
if [[ ! -f "$dir/lib/dri/mesa_gallium_dri.so" ]]; then
  if ! compgen -G "$dir/lib/libgallium-*.so" >/dev/null; then
    echo "mesa-mobile: $dir holds no driver; skipped" >&2
    exit 77
  fi
  rc=0
  "$dir/run-as" "${stats[@]}" "$1" "${listing[@]}" "${@:2}" || rc=$?
  exit $rc
fi
drivers="$(mktemp -d "${TMPDIR:-/tmp}/gltile-dri.XXXXXX")"
trap 'rm -rf "$drivers"' EXIT
for name in panfrost msm v3d kmsro; do
  ln -s "$dir/lib/dri/mesa_gallium_dri.so" "$drivers/${name}_dri.so"
done
rc=0
"$dir/run-as" "${stats[@]}" "$1" "${listing[@]}" env LIBGL_DRIVERS_PATH="$drivers" "${@:2}" || rc=$?
exit $rc
