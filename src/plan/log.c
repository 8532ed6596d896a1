/* The one way the library speaks to the application's logger. GL-free,
 * so planners can explain their choices without the device layer. */
#include "plan/context.h"

#include <stdarg.h>
#include <stdio.h>

void gt__log(const gt_context *ctx, int level, const char *fmt, ...) {
  if (ctx == NULL || ctx->logger.log == NULL) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ctx->logger.log(level, msg, ctx->logger.user);
}
