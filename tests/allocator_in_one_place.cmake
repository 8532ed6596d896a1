# Run with -P: the library's objects may name the C allocator (malloc,
# calloc, realloc, free) in one object only, the one holding the default
# allocator hook; every other allocation goes through gt_allocator.
execute_process(COMMAND "${NM}" -A "${LIB}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^\n]*: +U (malloc|calloc|realloc|free)\n" uses "${symbols}")
set(objects)
foreach(line IN LISTS uses)
  string(REGEX REPLACE "^.*[:(]([^:()]+\\.o)[):].*$" "\\1" object "${line}")
  list(APPEND objects "${object}")
endforeach()
list(REMOVE_DUPLICATES objects)
list(LENGTH objects count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "the C allocator is named in ${count} objects: ${objects}")
endif()
message("1 passed, 0 failed (C allocator named only in ${objects})")
