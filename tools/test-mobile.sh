#!/usr/bin/env bash
# tools/test-mobile.sh GPU GLTILE TOOL ENTRY: `gltile info` (the renderer
# matches the device-table entry ENTRY) and the compile gate (`gltile
# compile --auto --stats --require-stats`: every program AUTO chooses
# built, each with the compiler's statistics, none spilling; then the
# budgets of tests/mobile_budgets.csv) on a fake GPU
# of ../shared/tools/TOOL (mesa-mobile, mesa-mobile-25;
# tools/mesa-mobile.sh). Exit 77 when that folder is absent. The driver's
# shader cache is off, so every program is compiled (and reports its
# statistics) in this process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gpu="$1"
gltile="$2"
tool="$3"
entry="$4"
export MESA_SHADER_CACHE_DISABLE=true
quiet() { grep -v -e '^export failed$' -e '^SHADER-DB' >&2 || true; }
rc=0
info="$(timeout 120 "$here/mesa-mobile.sh" --tool "$tool" "$gpu" "$gltile" info 2> >(quiet))" || rc=$?
if [[ $rc != 0 ]]; then
  [[ $rc == 77 ]] && echo "mesa-mobile is not here; skipped"
  exit $rc
fi
echo "$info"
# Each family has an entry of its own in the device table.
if ! grep -q "entry \"$entry\"" <<<"$info"; then
  echo "FAILED: $gpu did not match the device-table entry \"$entry\""
  exit 1
fi
# Then the budget gate: each of AUTO's programs with a row in
# tests/mobile_budgets.csv and no costlier than it says, no more of them
# below full occupancy than tests/mobile_occupancy.csv, and the report of
# tests/mobile_targets.csv. GT_MOBILE_BUDGETS=write rewrites this GPU's
# budget rows to the figures reached instead (tests/mobile_budgets.py).
csv="$(mktemp "${TMPDIR:-/tmp}/gltile-mobile.XXXXXX")"
trap 'rm -f "$csv"' EXIT
timeout 300 "$here/mesa-mobile.sh" --stats --tool "$tool" "$gpu" "$gltile" compile --auto --stats --require-stats \
  --csv "$csv" 2> >(quiet)
tests="$here/../tests"
write=()
[[ "${GT_MOBILE_BUDGETS:-}" == write ]] && write=(--write)
python3 "$tests/mobile_budgets.py" "${write[@]}" --occupancy "$tests/mobile_occupancy.csv" \
  --targets "$tests/mobile_targets.csv" "$tests/mobile_budgets.csv" "$csv" "$tool" "$gpu"
