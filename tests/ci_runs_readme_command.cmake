# Run with -P: CI (.ci/run) runs the README's test command verbatim, on a
# line of its own, so the command a newcomer types is the one CI proves.
# The test command is the README's first sh block that runs ctest.
cmake_minimum_required(VERSION 3.16)
file(READ "${README}" readme)
string(REGEX MATCH "```sh\n([^`\n]*ctest[^`\n]*)\n```" block "${readme}")
set(command "${CMAKE_MATCH_1}")
if(command STREQUAL "")
  message(FATAL_ERROR "${README}: no sh block with a ctest command")
endif()
file(STRINGS "${RUN}" lines)

# Whether `wanted` is a whole line of `lines`, not commented out.
function(has_line wanted out)
  set(found FALSE)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL wanted)
      set(found TRUE)
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The match is exact: the command with one flag more is not found.
has_line("${command} --repeat until-fail:2" planted)
if(planted)
  message(FATAL_ERROR "the match took a changed command for the README's")
endif()
has_line("${command}" found)
if(NOT found)
  message(FATAL_ERROR "${RUN} does not run the README's test command:\n  ${command}")
endif()
message("1 passed, 0 failed (${RUN} runs: ${command})")
