# Cross build for 32-bit ARM Linux boards (hard float). Tests run under
# qemu-arm; set GT_ARMHF_SYSROOT to a private sysroot when the multiarch
# packages cannot be installed, and qemu-arm is then given it with -L.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
if(NOT CROSS)
  set(CROSS arm-linux-gnueabihf-)
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CROSS GT_ARMHF_SYSROOT)
set(CMAKE_C_COMPILER ${CROSS}gcc)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
if(GT_ARMHF_SYSROOT)
  set(CMAKE_FIND_ROOT_PATH ${GT_ARMHF_SYSROOT})
  # The compiler keeps its own libc; the sysroot's libraries find their own
  # dependencies (libGLdispatch, ...) through rpath-link at link time.
  set(CMAKE_EXE_LINKER_FLAGS_INIT
      "-Wl,-rpath-link,${GT_ARMHF_SYSROOT}/usr/lib/arm-linux-gnueabihf:${GT_ARMHF_SYSROOT}/lib/arm-linux-gnueabihf")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm -L ${GT_ARMHF_SYSROOT})
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
