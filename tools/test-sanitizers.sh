#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer and UndefinedBehaviorSanitizer
# (gcc, build-asan/) and run on llvmpipe; then the host tests that allocate
# (and one GL test) under valgrind's memcheck, from the default build
# (build/, built here when it is not there). Any sanitizer report, leak or
# valgrind error fails the run.
#
#   tools/test-sanitizers.sh [asan|valgrind]   one half only (CI times each)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
part=${1:-all}
case "$part" in
  all | asan | valgrind) ;;
  *) echo "test-sanitizers: unknown part '$part' (asan, valgrind)" >&2; exit 2 ;;
esac
tools/install-deps.sh sanitizers

asan() {

  # 1. ASan + UBSan. Every UBSan finding is fatal (-fno-sanitize-recover).
  # The long suites run their sampled third (GT_TEST_SAMPLED, tests/CMakeLists.txt).
  flags='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined'
  rm -rf build-asan
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DGT_TEST_SAMPLED=ON
  cmake --build build-asan -j2

  # eglTerminate unloads Mesa's driver, and a block the driver keeps in its
  # own static data then reads as a leak that no suppression can name (its
  # library is gone by the time LeakSanitizer checks, at exit). Preloading the
  # driver keeps it mapped. Every Mesa driver is one file under several names,
  # so this holds for GPU drivers too. The preload comes before the ASan
  # runtime in the library list, which ASan would refuse without
  # verify_asan_link_order=0; malloc is still the runtime's, as the driver does
  # not define it. Programs that ctest starts besides the tests (cmake, the
  # compiler in the package test) load the driver too, unused.
  driver=
  for dir in "/usr/lib/$(gcc -print-multiarch)/dri" /usr/lib64/dri /usr/lib/dri; do
    if [[ -f "$dir/swrast_dri.so" ]]; then
      driver=$dir/swrast_dri.so
      break
    fi
  done
  if [[ -z "$driver" ]]; then
    echo "test-sanitizers: Mesa's swrast_dri.so not found (tools/install-deps.sh installs it)" >&2
    exit 1
  fi

  # abort_on_error: a report ends the process with SIGABRT, which no test can
  # take for an ordinary failure or a skip. The children the tests start (the
  # gltile program in test_cli, the consumer in the package test) inherit all
  # of this. intercept_tls_get_addr=0: see tools/run-fuzz.sh.
  log=build-asan/ctest.log
  env ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0:abort_on_error=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:verify_asan_link_order=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
    LSAN_OPTIONS="suppressions=$root/tools/lsan-mesa.supp" \
    LD_PRELOAD="$driver" \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j2 | tee "$log"
  # A GL test that found no context reports "skipped", and would then have
  # run nothing under the sanitizers.
  if grep -q "tests did not run" "$log"; then
    echo "test-sanitizers: tests were skipped (no OpenGL ES 3.1 context?); the run does not count" >&2
    exit 1
  fi
  count=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log")
  echo "sanitizers: $count of $count tests passed under ASan+UBSan"
}

# 2. valgrind, on the default build's objects (the README's build): the
# host tests that allocate, then test_validation (GL calls on llvmpipe,
# every refusal path; about 20 seconds under memcheck).
valgrind_tests() {
  cmake -S . -B build
  cmake --build build -j2 --target test_host test_npy test_validation
  for t in test_host test_npy test_validation; do
    echo "valgrind: $t"
    valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --suppressions=tools/valgrind-gl.supp "build/tests/$t"
  done
  echo "sanitizers: valgrind clean on test_host, test_npy, test_validation"
}

if [[ "$part" != valgrind ]]; then asan; fi
if [[ "$part" != asan ]]; then valgrind_tests; fi
