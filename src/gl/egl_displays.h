/* How gt_egl_open keeps count of the displays it shares (egl.c). Not
 * installed. */
#ifndef GT_EGL_DISPLAYS_H
#define GT_EGL_DISPLAYS_H

#include "plan/gt_internal.h"

/* Whether gt_egl_open asks for a referenced display where EGL offers
 * EGL_KHR_display_reference (the default); false makes it count displays
 * itself, as on EGLs without the extension, so tests reach that path. Not
 * thread-safe: set it while no gt_egl_open runs. */
void gt__egl_use_display_references(bool use);

#endif
