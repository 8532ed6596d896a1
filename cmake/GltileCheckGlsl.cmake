# Run with -P at build time: validates every file in DIR with
# glslangValidator (GLSL ES 3.10 is taken from each file's #version).
file(GLOB sources "${DIR}/*")
if(NOT sources)
  message(FATAL_ERROR "no GLSL variants found in ${DIR}")
endif()
list(LENGTH sources count)
execute_process(COMMAND "${VALIDATOR}" -S comp ${sources}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "glslangValidator rejected a kernel:\n${out}${err}")
endif()
file(WRITE "${STAMP}" "${count} variants valid\n")
message(STATUS "glslangValidator: ${count} kernel variants valid")
