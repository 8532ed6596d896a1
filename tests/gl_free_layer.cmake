# Run with -P: the planners' layer (src/plan/) calls no GL. Two checks:
#  - its sources (comments and string literals left out) include no GL or
#    EGL header and no header of the layers above it (gl/, ops/), and name
#    no gl*/egl* function and no GL or EGL type. A GL_ constant may stand
#    in a list that only the GL layers expand (enumerations.h's formats):
#    without a GL header it cannot reach compiled code;
#  - with NM and OBJECTS (the library's objects, |-separated), no object
#    built from src/plan/ leaves a gl*/egl* symbol undefined, while those
#    from src/gl/ do (so the symbol test can see a GL call at all).
# Before either, the source scan is run on planted text, each violation in
# it reported and each harmless mention not, so the check can fail.
cmake_minimum_required(VERSION 3.16)

# Text without its /* */ and // comments, and, with strings TRUE, its
# string and character literals, each replaced by a space: a mention of
# glFinish( in a comment or a log message is no call, and an #include in
# a comment includes nothing.
function(strip_comments text strings out)
  set(result "")
  set(rest "${text}")
  while(NOT rest STREQUAL "")
    string(REGEX MATCH "^[^/\"']+" plain "${rest}")
    if(NOT plain STREQUAL "")
      string(APPEND result "${plain}")
      string(LENGTH "${plain}" n)
      string(SUBSTRING "${rest}" ${n} -1 rest)
      continue()
    endif()
    string(REGEX MATCH "^/\\*" block "${rest}")
    if(block)
      string(FIND "${rest}" "*/" close)
      if(close EQUAL -1)
        set(rest "")
      else()
        math(EXPR close "${close} + 2")
        string(SUBSTRING "${rest}" ${close} -1 rest)
      endif()
      string(APPEND result " ")
      continue()
    endif()
    string(REGEX MATCH "^//[^\n]*" line "${rest}")
    if(NOT line STREQUAL "")
      string(LENGTH "${line}" n)
      string(SUBSTRING "${rest}" ${n} -1 rest)
      string(APPEND result " ")
      continue()
    endif()
    string(REGEX MATCH "^\"([^\"\\\\\n]|\\\\.)*\"" literal "${rest}")
    if(literal STREQUAL "")
      string(REGEX MATCH "^'([^'\\\\\n]|\\\\.)*'" literal "${rest}")
    endif()
    if(NOT literal STREQUAL "")
      string(LENGTH "${literal}" n)
      string(SUBSTRING "${rest}" ${n} -1 rest)
      if(strings)
        string(APPEND result " ")
      else()
        string(APPEND result "${literal}")
      endif()
      continue()
    endif()
    # A lone / or an unmatched quote: keep it and move on.
    string(SUBSTRING "${rest}" 0 1 c)
    string(APPEND result "${c}")
    string(SUBSTRING "${rest}" 1 -1 rest)
  endwhile()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The rule's violations in one source text, as a list of what was found.
function(layer_violations text out)
  set(found "")
  strip_comments("${text}" FALSE lines)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*<(GLES[23]?|EGL|KHR)/[^>]*>" hits "${lines}")
  list(APPEND found ${hits})
  string(REGEX MATCHALL "#[ \t]*include[ \t]*\"(gl|ops)/[^\"]*\"" hits "${lines}")
  list(APPEND found ${hits})
  strip_comments("${text}" TRUE code)
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_])(gl|egl)[A-Z][A-Za-z0-9_]*[ \t\n]*\\(" hits "${code}")
  list(APPEND found ${hits})
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_])(GL[a-z][a-z0-9]*|EGL[A-Z][A-Za-z]*)([^A-Za-z0-9_]|$)" hits
         "${code}")
  list(APPEND found ${hits})
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The scan itself, on planted text: each line below must be reported...
set(planted
    "#include <GLES3/gl31.h>"
    "#include <EGL/egl.h>"
    "#include \"gl/dispatch.h\""
    "#include \"ops/operation.h\""
    "void f(void) { glFinish() }"
    "x = eglGetCurrentContext ()"
    "GLuint name"
    "EGLDisplay d")
foreach(line IN LISTS planted)
  layer_violations("${line}\n" hits)
  if(hits STREQUAL "")
    message(FATAL_ERROR "the scan missed a planted violation: ${line}")
  endif()
endforeach()
# ...and these not: mentions in comments and strings, GLSL's own names.
set(harmless
    "/* glFinish() waits, GL_NO_ERROR, #include <GLES3/gl31.h> is not here */"
    "// eglGetCurrentContext() is the device layer's"
    "log(\"glTexBufferRange(%u) refused\", GLuint_count)"
    "const char *s = \"gl_LocalInvocationID.x, barrier()\""
    "uint32_t gl_name, my_glFinish(void)"
    "X(GT_FORMAT_R32F, \"R32F\", GL_R32F)")
foreach(line IN LISTS harmless)
  layer_violations("${line}\n" hits)
  if(NOT hits STREQUAL "")
    message(FATAL_ERROR "the scan reported a harmless line: ${line} (${hits})")
  endif()
endforeach()

file(GLOB sources "${SRC}/plan/*.c" "${SRC}/plan/*.h")
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no sources under ${SRC}/plan")
endif()
set(failures 0)
foreach(f IN LISTS sources)
  file(READ "${f}" text)
  layer_violations("${text}" hits)
  if(NOT hits STREQUAL "")
    message("FAIL ${f}: ${hits}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

set(symbol_note "")
if(NM AND OBJECTS)
  string(REPLACE "|" ";" objects "${OBJECTS}")
  set(plan_objects 0)
  set(gl_calls_seen 0)
  foreach(o IN LISTS objects)
    if(NOT o MATCHES "/src/(plan|gl)/")
      continue()
    endif()
    execute_process(COMMAND "${NM}" -u "${o}" OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${NM} failed on ${o}")
    endif()
    string(REGEX MATCHALL "(^|[ \n])_?(gl|egl)[A-Z][A-Za-z0-9_]*" calls "${undefined}")
    if(o MATCHES "/src/plan/")
      math(EXPR plan_objects "${plan_objects} + 1")
      if(NOT calls STREQUAL "")
        message("FAIL ${o} calls ${calls}")
        math(EXPR failures "${failures} + 1")
      endif()
    elseif(NOT calls STREQUAL "")
      set(gl_calls_seen 1)
    endif()
  endforeach()
  if(plan_objects EQUAL 0 OR NOT gl_calls_seen)
    message(FATAL_ERROR "the symbol check saw ${plan_objects} planner objects and no GL call elsewhere: "
                        "it would pass whatever they hold")
  endif()
  set(symbol_note ", ${plan_objects} objects with no GL symbol")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} of the GL-free layer's files reach GL")
endif()
message("1 passed, 0 failed (${count} sources under src/plan/ GL-free${symbol_note})")
