/* CLBlast through dlopen: the few OpenCL 1.2 and CLBlast entry points the
 * bench needs, declared here with their documented C signatures so that
 * neither library is needed to build gltile. */
#include "bench_clblast.h"

#include "tool.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* OpenCL's opaque handles and the constants used (cl.h, OpenCL 1.2). */
typedef struct cl_opaque *cl_handle;
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_bitfield;
enum { CL_SUCCESS = 0, CL_DEVICE_NAME = 0x102B };
#define CL_DEVICE_TYPE_ALL ((cl_bitfield)0xFFFFFFFF)
#define CL_MEM_READ_WRITE ((cl_bitfield)1)
#define CL_TRUE 1u

/* CLBlast's enums (clblast_c.h). */
enum { CLBLAST_ROW_MAJOR = 101, CLBLAST_NO_TRANSPOSE = 111, CLBLAST_TRANSPOSE = 112 };

static struct {
  void *opencl, *clblast;
  cl_int (*get_platforms)(cl_uint, cl_handle *, cl_uint *);
  cl_int (*get_devices)(cl_handle, cl_bitfield, cl_uint, cl_handle *, cl_uint *);
  cl_int (*device_info)(cl_handle, cl_uint, size_t, void *, size_t *);
  cl_handle (*create_context)(const intptr_t *, cl_uint, const cl_handle *, void *, void *, cl_int *);
  cl_handle (*create_queue)(cl_handle, cl_handle, cl_bitfield, cl_int *);
  cl_handle (*create_buffer)(cl_handle, cl_bitfield, size_t, void *, cl_int *);
  cl_int (*write)(cl_handle, cl_handle, cl_uint, size_t, size_t, const void *, cl_uint, const void *, void *);
  cl_int (*read)(cl_handle, cl_handle, cl_uint, size_t, size_t, void *, cl_uint, const void *, void *);
  cl_int (*finish)(cl_handle);
  cl_int (*release_buffer)(cl_handle);
  cl_int (*release_queue)(cl_handle);
  cl_int (*release_context)(cl_handle);
  int (*sgemm)(int, int, int, size_t, size_t, size_t, float, cl_handle, size_t, size_t, cl_handle, size_t,
               size_t, float, cl_handle, size_t, size_t, cl_handle *, void *);
  cl_handle context, queue;
  char device[128];
} cl;

/* dlsym's object pointer as a function pointer: POSIX guarantees the
 * conversion; the memcpy keeps ISO C compilers quiet about it. */
static bool find(void *lib, const char *name, void *fn, size_t fn_size, char *why, size_t size) {
  void *p = dlsym(lib, name);
  if (p == NULL) {
    snprintf(why, size, "%s not found", name);
    return false;
  }
  memcpy(fn, &p, fn_size);
  return true;
}

#define FIND(lib, name, field) find(lib, name, &cl.field, sizeof cl.field, why, size)

bool tool_clblast_open(char *why, size_t size) {
  memset(&cl, 0, sizeof cl);
  cl.opencl = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  cl.clblast = cl.opencl ? dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL) : NULL;
  if (cl.clblast == NULL) {
    snprintf(why, size, "%s", dlerror());
    tool_clblast_close();
    return false;
  }
  bool ok = FIND(cl.opencl, "clGetPlatformIDs", get_platforms) && FIND(cl.opencl, "clGetDeviceIDs", get_devices) &&
            FIND(cl.opencl, "clGetDeviceInfo", device_info) && FIND(cl.opencl, "clCreateContext", create_context) &&
            FIND(cl.opencl, "clCreateCommandQueue", create_queue) &&
            FIND(cl.opencl, "clCreateBuffer", create_buffer) && FIND(cl.opencl, "clEnqueueWriteBuffer", write) &&
            FIND(cl.opencl, "clEnqueueReadBuffer", read) && FIND(cl.opencl, "clFinish", finish) &&
            FIND(cl.opencl, "clReleaseMemObject", release_buffer) &&
            FIND(cl.opencl, "clReleaseCommandQueue", release_queue) &&
            FIND(cl.opencl, "clReleaseContext", release_context) && FIND(cl.clblast, "CLBlastSgemm", sgemm);
  cl_handle platform = NULL, device = NULL;
  cl_uint count = 0;
  cl_int err = CL_SUCCESS;
  if (ok && (cl.get_platforms(1, &platform, &count) != CL_SUCCESS || count == 0)) {
    snprintf(why, size, "no OpenCL platform");
    ok = false;
  }
  if (ok && (cl.get_devices(platform, CL_DEVICE_TYPE_ALL, 1, &device, &count) != CL_SUCCESS || count == 0)) {
    snprintf(why, size, "no OpenCL device");
    ok = false;
  }
  if (ok) cl.context = cl.create_context(NULL, 1, &device, NULL, NULL, &err);
  if (ok && cl.context) cl.queue = cl.create_queue(cl.context, device, 0, &err);
  if (ok && cl.queue == NULL) {
    snprintf(why, size, "clCreateContext or clCreateCommandQueue: error %d", (int)err);
    ok = false;
  }
  if (ok && cl.device_info(device, CL_DEVICE_NAME, sizeof cl.device - 1, cl.device, NULL) != CL_SUCCESS)
    snprintf(cl.device, sizeof cl.device, "OpenCL device");
  if (!ok) tool_clblast_close();
  return ok;
}

const char *tool_clblast_device(void) { return cl.device; }

int tool_clblast_sgemm(uint32_t m, uint32_t n, uint32_t k, bool trans_a, bool trans_b, const float *a,
                       const float *b, float *c, unsigned reps, double *scratch, double *ms) {
  if (cl.queue == NULL) return 1;
  size_t bytes[3] = {(size_t)m * k * 4, (size_t)k * n * 4, (size_t)m * n * 4};
  const float *host[2] = {a, b};
  cl_handle buf[3] = {NULL, NULL, NULL};
  cl_int err = CL_SUCCESS;
  for (int i = 0; i < 3 && err == CL_SUCCESS; i++) {
    buf[i] = cl.create_buffer(cl.context, CL_MEM_READ_WRITE, bytes[i], NULL, &err);
    if (err == CL_SUCCESS && i < 2) err = cl.write(cl.queue, buf[i], CL_TRUE, 0, bytes[i], host[i], 0, NULL, NULL);
  }
  int status = 0;
  for (unsigned rep = 0; rep <= reps && err == CL_SUCCESS && status == 0; rep++) {
    err = cl.finish(cl.queue);
    double t0 = tool_now_ms();
    if (err == CL_SUCCESS)
      status = cl.sgemm(CLBLAST_ROW_MAJOR, trans_a ? CLBLAST_TRANSPOSE : CLBLAST_NO_TRANSPOSE,
                        trans_b ? CLBLAST_TRANSPOSE : CLBLAST_NO_TRANSPOSE, m, n, k, 1.0f, buf[0], 0,
                        trans_a ? m : k, buf[1], 0, trans_b ? k : n, 0.0f, buf[2], 0, n, &cl.queue, NULL);
    if (err == CL_SUCCESS && status == 0) err = cl.finish(cl.queue);
    if (rep > 0) scratch[rep - 1] = tool_now_ms() - t0; /* rep 0 warms up */
  }
  if (err == CL_SUCCESS && status == 0) err = cl.read(cl.queue, buf[2], CL_TRUE, 0, bytes[2], c, 0, NULL, NULL);
  for (int i = 0; i < 3; i++)
    if (buf[i]) cl.release_buffer(buf[i]);
  if (err != CL_SUCCESS || status != 0) {
    fprintf(stderr, "gltile: clblast %ux%ux%u: OpenCL error %d, CLBlast status %d\n", m, n, k, (int)err, status);
    return 1;
  }
  *ms = tool_median(scratch, reps);
  return 0;
}

void tool_clblast_close(void) {
  if (cl.queue) cl.release_queue(cl.queue);
  if (cl.context) cl.release_context(cl.context);
  if (cl.clblast) dlclose(cl.clblast);
  if (cl.opencl) dlclose(cl.opencl);
  memset(&cl, 0, sizeof cl);
}
