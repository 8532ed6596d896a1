# Finds EGL and OpenGL ES 3 with find_library (no pkg-config, no FindOpenGL,
# which wants libOpenGL for EGL) and defines the imported targets
# gltile::egl and gltile::gles. Used by the build and, installed, by
# gltileConfig.cmake, so consumers find the same libraries again.
if(TARGET gltile::egl AND TARGET gltile::gles)
  return()
endif()
if(ANDROID)
  set(_gltile_gles_names GLESv3 GLESv2)
else()
  set(_gltile_gles_names GLESv2)
endif()
find_path(GT_GLES_INCLUDE_DIR GLES3/gl31.h)
find_path(GT_EGL_INCLUDE_DIR EGL/egl.h)
find_library(GT_GLES_LIBRARY NAMES ${_gltile_gles_names})
find_library(GT_EGL_LIBRARY NAMES EGL)
foreach(_gltile_v GT_GLES_INCLUDE_DIR GT_EGL_INCLUDE_DIR GT_GLES_LIBRARY GT_EGL_LIBRARY)
  if(NOT ${_gltile_v})
    message(FATAL_ERROR "${_gltile_v} not found: install the EGL and GLES development files "
                        "(Debian: libegl-dev libgles-dev)")
  endif()
endforeach()
add_library(gltile::egl UNKNOWN IMPORTED)
set_target_properties(gltile::egl PROPERTIES IMPORTED_LOCATION "${GT_EGL_LIBRARY}"
                                             INTERFACE_INCLUDE_DIRECTORIES "${GT_EGL_INCLUDE_DIR}")
add_library(gltile::gles UNKNOWN IMPORTED)
set_target_properties(gltile::gles PROPERTIES IMPORTED_LOCATION "${GT_GLES_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${GT_GLES_INCLUDE_DIR}")
