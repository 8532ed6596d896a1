#!/usr/bin/env bash
# Fuzzes the argument validation of every public entry point
# (tests/fuzz_api.c) with libFuzzer, the library built with ASan and UBSan,
# for a bounded time:
#
#   tools/run-fuzz.sh [SECONDS] [LIBFUZZER FLAGS...]     SECONDS: 60
#
# Builds build-fuzz with clang (GT_FUZZ=ON), starts from the seed inputs in
# tests/fuzz_corpus and keeps what it finds in build-fuzz/corpus for the next
# run. Prints the executions, their rate and the coverage. Exits 0 when
# nothing was found, 77 when no OpenGL ES 3.1 context could be made, and
# otherwise non-zero, with the input that failed left as build-fuzz/crash-*
# (or timeout-*, oom-*, leak-*). Replay one with build-fuzz/tests/fuzz_api
# FILE, or without sanitizers with fuzz_replay FILE from any build.
# Flags after SECONDS go to libFuzzer, e.g. -jobs=4 -workers=4 for four
# processes in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "usage: tools/run-fuzz.sh [SECONDS] [LIBFUZZER FLAGS...]" >&2
  exit 2
fi

tools/install-deps.sh fuzz
CC=${CC:-clang} cmake -S . -B build-fuzz -DGT_FUZZ=ON -DGT_VALIDATE_GLSL=OFF -DGT_BUILD_TOOLS=OFF \
  -DGT_INSTALL=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target fuzz_api -j"${GT_FUZZ_BUILD_JOBS:-2}"

mkdir -p build-fuzz/corpus
log=build-fuzz/fuzz.log
# Mesa keeps (and leaks) memory of its own; lsan-mesa.supp names it by
# library only. UBSan stops at the first report, like ASan.
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan-mesa.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# llvmpipe makes hundreds of small, over-aligned allocations per dispatch:
# with ASan's default 256 MB quarantine (and their red zones) the process
# passed libFuzzer's 2 GB limit in ten minutes. Options given in the
# environment come after these and win.
# intercept_tls_get_addr=0: up to LLVM 16 and GCC 13, the sanitizer
# runtime's __tls_get_addr hook takes a thread's dynamic TLS block (the GL
# driver's, which is loaded with dlopen) that happens to start 16 bytes into
# a page for one with a pre-2.25 glibc header, and takes the two words before
# it for the block's range. The leak check at exit then reads that range,
# and its tracer dies ("Tracer caught signal 11", an empty crash-* input):
# a fault of the tool, not a finding, and rare, as the placement is chance.
# Without the hook the check scans no dynamic TLS; a block only the driver's
# TLS holds would be reported from the driver, whose entry in lsan-mesa.supp
# covers it, and gltile keeps nothing in TLS.
export ASAN_OPTIONS="quarantine_size_mb=64:allocator_release_to_os_interval_ms=1000:intercept_tls_get_addr=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# -detect_leaks=0 skips libFuzzer's leak check after each new input, which
# stops every thread, llvmpipe's included, many times a second; the check at
# exit still reports any block the inputs leaked, since the target never
# frees one it lost.
echo "run-fuzz: fuzzing for $seconds s; the whole log is in $log"
set +e
# libFuzzer's own failure code is 77 by default, which means "skipped" here.
(cd build-fuzz && exec ./tests/fuzz_api -max_total_time="$seconds" -timeout=25 -error_exitcode=1 \
  -timeout_exitcode=1 -detect_leaks=0 -print_final_stats=1 -artifact_prefix=./ corpus ../tests/fuzz_corpus "$@") 2>&1 |
  tee "$log" | grep --line-buffered -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE)|NEW_FUNC|^"|Recommended dictionary|End of recommended'
rc=${PIPESTATUS[0]}
set -e

if ((rc == 77)); then
  echo "run-fuzz: no OpenGL ES 3.1 context: skipped"
  exit 77
fi
execs=$(awk -F: '/stat::number_of_executed_units/ {s += $NF} END {print s + 0}' "$log")
last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1 || true)
cov=$(sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 edges, \2 features, \3 inputs in the corpus/p' <<<"$last")
echo "run-fuzz: $execs executions in $seconds s ($((execs / seconds))/s); coverage: ${cov:-unknown}"
if ((rc != 0)); then
  echo "run-fuzz: FAILED (exit $rc); the input is in build-fuzz/:" >&2
  ls build-fuzz/crash-* build-fuzz/timeout-* build-fuzz/oom-* build-fuzz/leak-* 2>/dev/null >&2 || true
  exit "$rc"
fi
echo "run-fuzz: no crash, sanitizer report or invariant violation"
