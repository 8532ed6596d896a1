# Android: a thin wrapper over the NDK's own toolchain file. Point
# ANDROID_NDK (or the environment's ANDROID_NDK_HOME) at an NDK. GLES 3.1
# needs API level 21 or later; gltile links GLESv3 and EGL there.
if(NOT ANDROID_NDK)
  set(ANDROID_NDK "$ENV{ANDROID_NDK_HOME}")
endif()
if(NOT EXISTS "${ANDROID_NDK}/build/cmake/android.toolchain.cmake")
  message(FATAL_ERROR "Point ANDROID_NDK or ANDROID_NDK_HOME at an Android NDK")
endif()
if(NOT ANDROID_ABI)
  set(ANDROID_ABI arm64-v8a)
endif()
if(NOT ANDROID_PLATFORM)
  set(ANDROID_PLATFORM android-24)
endif()
include("${ANDROID_NDK}/build/cmake/android.toolchain.cmake")
