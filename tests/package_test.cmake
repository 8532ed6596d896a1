# Run with -P: installs the build tree into a temporary prefix, then builds
# and runs tests/package/consumer.c against it twice: with find_package and
# with pkg-config. -D: BUILD_DIR, SOURCE_DIR, WORK_DIR, C_COMPILER,
# C_FLAGS and LINK_FLAGS (the library build's; may be empty), PKG_CONFIG
# (may be empty: that half is then skipped), NM (the symbol lister).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
endfunction()

# Runs a built consumer; 77 (no GL context) leaves the build checks only.
function(run_consumer exe how)
  execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 77)
    message("${how}: built; no GLES 3.1 context to run it")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "${how}: consumer failed (${rc})\n${out}${err}")
  else()
    message("${how}: ${out}")
  endif()
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# 1. CMake: find_package(gltile) from the prefix.
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/package" -B "${WORK_DIR}/cmake-build"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/cmake-build")
run_consumer("${WORK_DIR}/cmake-build/consumer" "find_package")

# A shared object that links the archive exports the header's names it
# uses and no internal one: the archive is built with hidden symbols.
file(GLOB plugin "${WORK_DIR}/cmake-build/libplugin.so")
execute_process(COMMAND "${NM}" -D --defined-only "${plugin}" RESULT_VARIABLE rc OUTPUT_VARIABLE exported)
if(NOT rc EQUAL 0 OR NOT exported MATCHES " gt_transpose\n" OR NOT exported MATCHES " gt_context_init\n")
  message(FATAL_ERROR "libplugin.so does not export gltile's API (${rc}):\n${exported}")
endif()
if(exported MATCHES " (gt__[A-Za-z0-9_]*)")
  message(FATAL_ERROR "libplugin.so exports the internal ${CMAKE_MATCH_1}:\n${exported}")
endif()
string(REGEX MATCHALL " gt_[a-z0-9_]+\n" public "${exported}")
list(LENGTH public public_count)
message("shared object: exports ${public_count} gt_ names, no internal one")

# 2. pkg-config: a plain --libs names EGL and GLES too (a static archive).
set(passed 2)
if(PKG_CONFIG)
  file(GLOB_RECURSE pc_files "${prefix}/*/gltile.pc")
  list(GET pc_files 0 pc)
  get_filename_component(pc_dir "${pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs gltile RESULT_VARIABLE rc
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config does not know gltile")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(build_flags UNIX_COMMAND "${C_FLAGS} ${LINK_FLAGS}")
  run("${C_COMPILER}" ${build_flags} "${SOURCE_DIR}/tests/package/consumer.c" -o "${WORK_DIR}/consumer-pc" ${flags})
  run_consumer("${WORK_DIR}/consumer-pc" "pkg-config")
else()
  set(passed 1)
  message("pkg-config not found: only find_package checked")
endif()
message("${passed} passed, 0 failed")
