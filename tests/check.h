/* Tiny assertion helpers shared by the tests. Each failed check prints both
 * values and counts; CHECK_SUMMARY() prints "N passed, N failed" and gives
 * the process exit code. */
#ifndef GT_TESTS_CHECK_H
#define GT_TESTS_CHECK_H

#include <stdio.h>

static unsigned long check_passed, check_failed;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (cond) {                                                          \
      check_passed++;                                                    \
    } else {                                                             \
      check_failed++;                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

#define CHECK_EQ_U(a, b)                                                 \
  do {                                                                   \
    unsigned long long check_a_ = (unsigned long long)(a);              \
    unsigned long long check_b_ = (unsigned long long)(b);              \
    if (check_a_ == check_b_) {                                          \
      check_passed++;                                                    \
    } else {                                                             \
      check_failed++;                                                    \
      fprintf(stderr, "%s:%d: %s == %s failed: %llu vs %llu\n", __FILE__, \
              __LINE__, #a, #b, check_a_, check_b_);                     \
    }                                                                    \
  } while (0)

/* Compares two gt_status values and prints their names on failure. */
#define CHECK_STATUS(got, want)                                          \
  do {                                                                   \
    gt_status check_g_ = (got), check_w_ = (want);                       \
    if (check_g_ == check_w_) {                                          \
      check_passed++;                                                    \
    } else {                                                             \
      check_failed++;                                                    \
      fprintf(stderr, "%s:%d: %s: got %s, want %s\n", __FILE__, __LINE__, \
              #got, gt_status_string(check_g_), gt_status_string(check_w_)); \
    }                                                                    \
  } while (0)

#define CHECK_SUMMARY()                                                  \
  (printf("%lu passed, %lu failed\n", check_passed, check_failed),       \
   check_failed ? 1 : 0)

#endif
