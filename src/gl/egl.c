/* Headless EGL: an OpenGL ES 3.1 context with no window, for tests, tools
 * and boards. Apps that already have a context skip this file. */
#include "gl/egl_displays.h"
#include "gl/gl_api.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <pthread.h>
#include <string.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
/* EGL_EXT_create_context_robustness and EGL_KHR_display_reference, for
 * headers older than them. */
#ifndef EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT
#define EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT 0x3138
#endif
#ifndef EGL_LOSE_CONTEXT_ON_RESET_EXT
#define EGL_LOSE_CONTEXT_ON_RESET_EXT 0x31BF
#endif
#ifndef EGL_TRACK_REFERENCES_KHR
#define EGL_TRACK_REFERENCES_KHR 0x3352
#endif

/* ---- displays shared with the rest of the process ------------------ */

/* EGL gives every caller in the process the same display for the same
 * platform, device and attributes, and eglTerminate ends every context on
 * it, the application's and other gt_egl's included. Where EGL offers
 * EGL_KHR_display_reference, gt_egl_open asks for a display that counts
 * its eglInitialize and eglTerminate calls (and is not the one an
 * application gets without the attribute). Elsewhere this table counts the
 * gt_egl open on each display, and the last close terminates it, unless
 * the display was initialised before gt_egl_open first came to it: that
 * one is someone else's to terminate. */
enum { DISPLAY_TABLE_SIZE = 16 };
static struct {
  EGLDisplay dpy;
  uint32_t opens; /* gt_egl open on it; 0 = a free entry */
  bool ours;      /* gt_egl_open initialised it */
} displays[DISPLAY_TABLE_SIZE];
static pthread_mutex_t displays_lock = PTHREAD_MUTEX_INITIALIZER;
static bool use_display_references = true;

void gt__egl_use_display_references(bool use) { use_display_references = use; }

/* Counts one more gt_egl on dpy and initialises it. false when it cannot
 * be initialised, or the table has no room to count it. Lock held. */
static bool display_acquire(EGLDisplay dpy) {
  int slot = -1;
  for (int i = 0; i < DISPLAY_TABLE_SIZE; i++) {
    if (displays[i].opens > 0 && displays[i].dpy == dpy) {
      slot = i;
      break;
    }
    if (displays[i].opens == 0 && slot < 0) slot = i;
  }
  if (slot < 0) return false;
  bool counted = displays[slot].opens > 0;
  /* An uninitialised display has no version string. */
  bool initialised_before = counted || eglQueryString(dpy, EGL_VERSION) != NULL;
  EGLint major, minor;
  if (!eglInitialize(dpy, &major, &minor)) return false;
  if (!counted) {
    displays[slot].dpy = dpy;
    displays[slot].ours = !initialised_before;
  }
  displays[slot].opens++;
  return true;
}

/* Counts one gt_egl less on dpy; after the last, terminates the display if
 * gt_egl_open initialised it. Lock held. */
static void display_release(EGLDisplay dpy) {
  for (int i = 0; i < DISPLAY_TABLE_SIZE; i++) {
    if (displays[i].opens == 0 || displays[i].dpy != dpy) continue;
    if (--displays[i].opens == 0 && displays[i].ours) eglTerminate(dpy);
    return;
  }
}

/* ---- contexts ------------------------------------------------------ */

/* An ES 3.1 context on cfg. Where the display offers
 * EGL_EXT_create_context_robustness it asks for reset notification, so a
 * GPU reset or a watchdog's kill reaches glGetGraphicsResetStatus (the
 * default strategy reports nothing); robust buffer access stays off, as it
 * can cost speed. A driver refusing the attribute gets the plain request. */
static EGLContext create_context(EGLDisplay dpy, EGLConfig cfg, bool robustness) {
  EGLint attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE, EGL_NONE, EGL_NONE};
  if (robustness) {
    attribs[4] = EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT;
    attribs[5] = EGL_LOSE_CONTEXT_ON_RESET_EXT;
    EGLContext c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
    if (c != EGL_NO_CONTEXT) return c;
    attribs[4] = EGL_NONE;
  }
  return eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
}

/* Makes an ES 3.1 context current on an initialised display: without a
 * config and a surface when the display allows it, else with a 1x1
 * pbuffer. */
static bool make_context(EGLDisplay dpy, bool allow_pbuffer, gt_egl *egl) {
  const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
  bool robustness = gt__has_extension(exts, "EGL_EXT_create_context_robustness");
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return false;
  if (gt__has_extension(exts, "EGL_KHR_no_config_context") &&
      gt__has_extension(exts, "EGL_KHR_surfaceless_context")) {
    EGLContext c = create_context(dpy, (EGLConfig)0, robustness);
    if (c != EGL_NO_CONTEXT) {
      if (eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        egl->display = dpy;
        egl->context = c;
        return true;
      }
      eglDestroyContext(dpy, c);
    }
  }
  if (!allow_pbuffer) return false;
  static const EGLint cfg_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                       EGL_OPENGL_ES3_BIT, EGL_NONE};
  static const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
  EGLConfig cfg;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, cfg_attribs, &cfg, 1, &n) || n < 1) return false;
  EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
  if (surf == EGL_NO_SURFACE) return false;
  EGLContext c = create_context(dpy, cfg, robustness);
  if (c != EGL_NO_CONTEXT && eglMakeCurrent(dpy, surf, surf, c)) {
    egl->display = dpy;
    egl->surface = surf;
    egl->context = c;
    return true;
  }
  if (c != EGL_NO_CONTEXT) eglDestroyContext(dpy, c);
  eglDestroySurface(dpy, surf);
  return false;
}

/* A context on dpy. A referenced display counts each eglInitialize, which
 * its eglTerminate gives back; any other goes through the table, under its
 * lock from initialisation to the context, so that another thread's close
 * cannot terminate the display in between. */
static bool try_display(EGLDisplay dpy, bool referenced, bool allow_pbuffer, gt_egl *egl) {
  if (dpy == EGL_NO_DISPLAY) return false;
  if (referenced) {
    EGLint major, minor;
    if (!eglInitialize(dpy, &major, &minor)) return false;
    if (make_context(dpy, allow_pbuffer, egl)) {
      egl->display_referenced = true;
      return true;
    }
    eglTerminate(dpy);
    return false;
  }
  pthread_mutex_lock(&displays_lock);
  bool made = false;
  if (display_acquire(dpy)) {
    made = make_context(dpy, allow_pbuffer, egl);
    if (!made) display_release(dpy);
  }
  pthread_mutex_unlock(&displays_lock);
  return made;
}

/* A platform display: a referenced one where EGL offers them, else (or
 * when that one gives no context) the shared one. */
static bool try_platform(PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display, EGLenum platform, void *native,
                         bool references, gt_egl *egl) {
  static const EGLint referenced[] = {EGL_TRACK_REFERENCES_KHR, EGL_TRUE, EGL_NONE};
  if (references && try_display(get_platform_display(platform, native, referenced), true, false, egl))
    return true;
  return try_display(get_platform_display(platform, native, NULL), false, false, egl);
}

gt_status gt_egl_open(gt_egl *egl) {
  GT__CHECK(egl != NULL, GT_ERR_INVALID_ARGUMENT);
  memset(egl, 0, sizeof *egl);
  const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  bool references = use_display_references && gt__has_extension(client, "EGL_KHR_display_reference");
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");

  /* 1. A GPU without a window system: the EGL device platform. */
  if (get_platform_display && gt__has_extension(client, "EGL_EXT_platform_device")) {
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (query_devices && query_devices(8, devices, &count)) {
      for (EGLint i = 0; i < count; i++)
        if (try_platform(get_platform_display, EGL_PLATFORM_DEVICE_EXT, devices[i], references, egl))
          return GT_OK;
    }
  }
  /* 2. Mesa's surfaceless platform (llvmpipe in CI). */
  if (get_platform_display && gt__has_extension(client, "EGL_MESA_platform_surfaceless")) {
    if (try_platform(get_platform_display, EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, references,
                     egl))
      return GT_OK;
  }
  /* 3. Whatever the default display is, with a pbuffer if it must. It takes
   * no attributes, so it is always counted. */
  if (try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY), false, true, egl)) return GT_OK;
  memset(egl, 0, sizeof *egl);
  return GT_ERR_NO_CONTEXT;
}

void gt_egl_close(gt_egl *egl) {
  if (egl == NULL || egl->display == NULL) return;
  EGLDisplay dpy = (EGLDisplay)egl->display;
  /* Another context current on this thread (one the caller made current
   * after opening this) stays current. */
  if (egl->context && eglGetCurrentContext() == (EGLContext)egl->context)
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (egl->context) eglDestroyContext(dpy, (EGLContext)egl->context);
  if (egl->surface) eglDestroySurface(dpy, (EGLSurface)egl->surface);
  if (egl->display_referenced) {
    eglTerminate(dpy);
  } else {
    pthread_mutex_lock(&displays_lock);
    display_release(dpy);
    pthread_mutex_unlock(&displays_lock);
  }
  memset(egl, 0, sizeof *egl);
}
