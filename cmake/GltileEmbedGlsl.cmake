# Turns GLSL files into C byte arrays at build time, with CMake alone so
# cross builds need no host interpreter. A byte array has no length limit,
# where C99 only promises 4095 characters per string literal.
#
# Included from CMakeLists.txt it defines gt_embed_glsl(); run with -P it is
# the generator itself (OUTPUT, and INPUTS separated by |, are -D arguments).

if(CMAKE_SCRIPT_MODE_FILE)
  set(body "/* Generated from glsl/ by cmake/GltileEmbedGlsl.cmake. Do not edit. */\n")
  string(REPLACE "|" ";" inputs "${INPUTS}")
  foreach(input IN LISTS inputs)
    get_filename_component(name "${input}" NAME_WE)
    file(READ "${input}" hex HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    # Break the array into lines of 16 bytes to keep the file readable.
    string(REGEX REPLACE "((0x..,){16})" "\\1\n  " bytes "${bytes}")
    string(APPEND body "const char gt__glsl_${name}[] = {\n  ${bytes}0x00\n};\n")
  endforeach()
  file(WRITE "${OUTPUT}" "${body}")
  return()
endif()

set(GT_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

# gt_embed_glsl(<target> <file>...): compiles the embedded arrays of the
# given GLSL files into <target>.
function(gt_embed_glsl target)
  set(inputs)
  foreach(f IN LISTS ARGN)
    list(APPEND inputs "${CMAKE_CURRENT_SOURCE_DIR}/${f}")
  endforeach()
  set(output "${CMAKE_CURRENT_BINARY_DIR}/${target}_glsl.c")
  string(REPLACE ";" "|" inputs_arg "${inputs}")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${output}" "-DINPUTS=${inputs_arg}" -P "${GT_EMBED_SCRIPT}"
    DEPENDS ${inputs} "${GT_EMBED_SCRIPT}"
    COMMENT "Embedding GLSL into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
  set_property(TARGET ${target} PROPERTY GT_GLSL_SOURCE "${output}")
endfunction()
