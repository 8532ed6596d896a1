# Cross build for 64-bit ARM Linux boards with Debian's cross compiler.
# Tests run under qemu-aarch64; never give it -L with a multiarch libc
# (the cross loader and the multiarch libc together hang in pthread_create).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
if(NOT CROSS)
  set(CROSS aarch64-linux-gnu-)
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CROSS)
set(CMAKE_C_COMPILER ${CROSS}gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
