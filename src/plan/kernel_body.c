/* A user kernel's body, checked before it is compiled: the words the
 * driver will see, read the way its preprocessor reads them.
 *
 * A body reaches memory only through what the library declares: its
 * views' NAME_read and NAME_write, which stay inside the view. So a body
 * may not declare memory (layout, buffer, uniform, opaque types), name the
 * library's storage or helpers other than the documented ones, or use a
 * view by name. Those are words, and a word is only what the driver's
 * tokens are if nothing can make or hide one: the preprocessor can
 * (#define LEAVE return, CAT(buf, fer) with ##, a line continuation inside
 * a word or at the end of a comment), so bodies hold no directive and no
 * backslash, and the check lexes comments, numbers and words as GLSL ES
 * does. What is left is plain GLSL, whose words the check sees exactly.
 *
 * Drivers inline every call and unroll short loops, so a body of a few
 * hundred bytes whose functions each call the one before twice compiles
 * for minutes: the size that counts is the tokens once each call of the
 * body's own functions is counted as that function's tokens, a loop with
 * no loop inside as 32 copies, and the view helpers and a few costly
 * built-in functions as what they cost a compiler. */
#include "plan/kernel_check.h"

#include <stdio.h>
#include <string.h>

/* The body's functions the size check follows. More is refused, rather
 * than followed in memory the library does not have (it allocates
 * nothing here). */
enum { MAX_FUNCTIONS = 64 };

/* Statements nest at most this deep (braces, loops and branches): the
 * size count walks them recursively. */
enum { MAX_NESTING = 64 };

/* A loop's statements count this many times where no loop is inside:
 * Mesa unrolls loops of up to 32 iterations, one level of a nest
 * (llvmpipe, per program: 10 loops of 32 guarded reads 1.3 s, 10 nests of
 * two such loops 1.4 s, 20 reads with no loop 0.1 s). */
enum { LOOP_COPIES = 32 };

/* A call of a view's NAME_read or NAME_write counts as this many tokens:
 * each inlines a bounds test, a branch and an access, which cost a
 * compiler more than a plain word (llvmpipe: 400 guarded reads compile
 * in about 2.3 s, 2000 multiply-adds in 0.1 s). */
enum { HELPER_TOKENS = 16 };

/* Built-in functions that cost a compiler far more than their words,
 * counted as this many tokens more. On llvmpipe (Mesa 22.3) bodies of 4096
 * plain tokens took: 575 inverse()s of a mat4 in a row 400 s, 285
 * packHalf2x16 / unpackHalf2x16 pairs 7 s, 363 atan()s of vec4s 3.7 s,
 * 250 determinant()s 3.3 s, 200 statements of sin, cos and exp 2.8 s. */
static const struct {
  const char *name;
  unsigned tokens;
} costly[] = {{"inverse", 64}, {"determinant", 16}, {"atan", 8}, {"packHalf2x16", 8}, {"unpackHalf2x16", 8},
              {"sin", 4},      {"cos", 4},          {"tan", 4},  {"asin", 4},         {"acos", 4},
              {"sinh", 4},     {"cosh", 4},         {"tanh", 4}, {"asinh", 4},        {"acosh", 4},
              {"atanh", 4},    {"pow", 4},          {"exp", 4},  {"log", 4},          {"exp2", 4},
              {"log2", 4}};

typedef enum token_kind { TOKEN_END, TOKEN_WORD, TOKEN_NUMBER, TOKEN_SYMBOL } token_kind;

typedef struct token {
  token_kind kind;
  const char *p;
  size_t len;
  uint32_t line;
} token;

typedef struct lexer {
  const char *p;
  uint32_t line;
} lexer;

static bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool digit(char c) { return c >= '0' && c <= '9'; }
static bool hex_digit(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* Symbols GLSL ES has: the operators and punctuation. '#' and '\\' are
 * refused on their own. */
static bool symbol(char c) { return c != '\0' && strchr("~!%^&*()-+=[]{}|;:<>,.?/", c) != NULL; }

/* A number as GLSL ES 3.10 writes one: decimal, octal or hexadecimal
 * integers with an optional u, floats with a fraction and exponent and an
 * optional f. Returns its end. */
static const char *number_end(const char *p) {
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hex_digit(p[2])) {
    p += 2;
    while (hex_digit(*p))
      p++;
    return *p == 'u' || *p == 'U' ? p + 1 : p;
  }
  bool is_float = false;
  while (digit(*p))
    p++;
  if (*p == '.') {
    is_float = true;
    p++;
    while (digit(*p))
      p++;
  }
  if ((*p == 'e' || *p == 'E') && (digit(p[1]) || ((p[1] == '+' || p[1] == '-') && digit(p[2])))) {
    is_float = true;
    p += 2;
    while (digit(*p))
      p++;
  }
  if (is_float && (*p == 'f' || *p == 'F')) return p + 1;
  if (!is_float && (*p == 'u' || *p == 'U')) return p + 1;
  return p;
}

/* The next token after whitespace and comments, or a refusal. */
static gt_kernel_refusal next(lexer *lx, token *t) {
  for (;;) {
    char c = *lx->p;
    if (c == '\n') {
      lx->line++;
      lx->p++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      lx->p++;
    } else if (c == '/' && lx->p[1] == '/') {
      /* A driver may end a line at \r, \v or \f as well, and might at a
       * Unicode line separator: what follows is code to it, so it is code
       * to the check too (and a byte past ASCII is then refused). */
      while (*lx->p && !strchr("\n\r\v\f", *lx->p) && (unsigned char)*lx->p < 0x80)
        lx->p++;
    } else if (c == '/' && lx->p[1] == '*') {
      const char *end = strstr(lx->p + 2, "*/");
      if (end == NULL) return GT_KERNEL_REFUSED_COMMENT_OPEN;
      for (; lx->p < end; lx->p++)
        lx->line += *lx->p == '\n';
      lx->p = end + 2;
    } else {
      break;
    }
  }
  t->p = lx->p;
  t->line = lx->line;
  char c = *lx->p;
  if (c == '\0') {
    t->kind = TOKEN_END;
    t->len = 0;
    return GT_KERNEL_ACCEPTED;
  }
  if (letter(c)) {
    const char *p = lx->p;
    while (letter(*p) || digit(*p))
      p++;
    t->kind = TOKEN_WORD;
    t->len = (size_t)(p - lx->p);
  } else if (digit(c) || (c == '.' && digit(lx->p[1]))) {
    const char *p = number_end(lx->p);
    t->kind = TOKEN_NUMBER;
    t->len = (size_t)(p - lx->p);
    /* 1buffer: a driver may read a number and a word, or one bad token;
     * GLSL never needs either. */
    if (letter(*p) || digit(*p)) return GT_KERNEL_REFUSED_NUMBER_NAME;
  } else if (c == '#') {
    return GT_KERNEL_REFUSED_DIRECTIVE;
  } else if (symbol(c)) {
    t->kind = TOKEN_SYMBOL;
    t->len = 1;
  } else {
    t->len = 1;
    return GT_KERNEL_REFUSED_CHARACTER;
  }
  lx->p += t->len;
  return GT_KERNEL_ACCEPTED;
}

static bool is_word(const token *t, const char *w) {
  return t->kind == TOKEN_WORD && t->len == strlen(w) && memcmp(t->p, w, t->len) == 0;
}

static bool is_symbol(const token *t, char c) { return t->kind == TOKEN_SYMBOL && t->p[0] == c; }

/* The names of the library a body may use (the header's list). */
static bool allowed_library_word(const token *t) {
  static const char *const allowed[] = {"gt_global",    "gt_local",  "gt_tile",      "gt_tile_origin",
                                        "gt_in_domain", "gt_domain", "GT_TILE_ROWS", "GT_TILE_COLS"};
  for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
    if (is_word(t, allowed[i])) return true;
  return false;
}

/* What a word is to the body's views: -1 none, else the view, with *helper
 * 0 for NAME itself, 1 NAME_index, 2 NAME_extent, 3 NAME_read, 4
 * NAME_write. */
static int view_word(const gt_kernel_desc *d, const token *t, int *helper) {
  static const char *const suffixes[] = {"", "_index", "_extent", "_read", "_write"};
  for (uint32_t i = 0; i < d->view_count; i++) {
    size_t n = strlen(d->views[i].name);
    if (t->len < n || memcmp(t->p, d->views[i].name, n) != 0) continue;
    for (int s = 0; s < 5; s++)
      if (t->len == n + strlen(suffixes[s]) && memcmp(t->p + n, suffixes[s], t->len - n) == 0) {
        *helper = s;
        return (int)i;
      }
  }
  return -1;
}

static gt_kernel_refusal refuse(gt_kernel_verdict *v, gt_kernel_refusal r, const token *t) {
  v->refusal = r;
  v->line = t->line;
  size_t n = t->len < sizeof v->where - 1 ? t->len : sizeof v->where - 1;
  if (r == GT_KERNEL_REFUSED_CHARACTER) {
    snprintf(v->where, sizeof v->where, "byte 0x%02x", (unsigned)(unsigned char)t->p[0]);
    return r;
  }
  memcpy(v->where, t->p, n);
  v->where[n] = '\0';
  return r;
}

/* A word's own checks: memory, the library, the views. After a '.' a word
 * is a field or a swizzle (g.x with a view named x), which names nothing
 * else. */
static gt_kernel_refusal check_word(const gt_kernel_desc *d, const token *t, const token *prev,
                                    gt_kernel_verdict *v) {
  if (gt__glsl_word(t->p, t->len) == GT_GLSL_WORD_MEMORY) return refuse(v, GT_KERNEL_REFUSED_MEMORY, t);
  if (is_symbol(prev, '.')) return GT_KERNEL_ACCEPTED;
  bool library = t->len >= 3 && (memcmp(t->p, "gt_", 3) == 0 || memcmp(t->p, "GT_", 3) == 0);
  if ((library && !allowed_library_word(t)) || is_word(t, "guarded_read") || is_word(t, "guarded_write"))
    return refuse(v, GT_KERNEL_REFUSED_LIBRARY_NAME, t);
  int helper = 0, view = view_word(d, t, &helper);
  if (view < 0) return GT_KERNEL_ACCEPTED;
  gt_access access = d->views[view].access;
  if (helper == 0 || helper == 1) return refuse(v, GT_KERNEL_REFUSED_VIEW_NAME, t);
  if (helper == 3 && access == GT_ACCESS_WRITE) return refuse(v, GT_KERNEL_REFUSED_READ_OF_WRITE_VIEW, t);
  if (helper == 4 && access == GT_ACCESS_READ) return refuse(v, GT_KERNEL_REFUSED_WRITE_OF_READ_VIEW, t);
  return GT_KERNEL_ACCEPTED;
}

/* A function the body defines: its name and where its braces are. */
typedef struct function {
  const char *name;
  size_t len;
  const char *brace; /* its body's '{' */
  uint32_t line;
  uint64_t tokens; /* with its calls counted in, as far as known */
} function;

/* The size count: the body's functions, and a walk of its statements. */
typedef struct weigher {
  const gt_kernel_desc *d;
  function functions[MAX_FUNCTIONS];
  int count;
  lexer lx;
  token t, prev; /* the current token and the one before */
  bool too_deep; /* statements nested past MAX_NESTING */
} weigher;

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The body has been lexed whole already: no refusal here. */
static void advance(weigher *w) {
  w->prev = w->t;
  if (next(&w->lx, &w->t) != GT_KERNEL_ACCEPTED) w->t.kind = TOKEN_END;
}

/* The current token's tokens, and on: 1, and a call's '(' adds the
 * function's tokens (each definition of its name: overloads share one),
 * HELPER_TOKENS for a view's NAME_read or NAME_write, or a costly
 * built-in's. */
static uint64_t take(weigher *w) {
  uint64_t n = 1;
  if (is_symbol(&w->t, '(') && w->prev.kind == TOKEN_WORD) {
    int helper = 0;
    for (int i = 0; i < w->count; i++)
      if (w->functions[i].len == w->prev.len && memcmp(w->functions[i].name, w->prev.p, w->prev.len) == 0)
        n = saturating_add(n, w->functions[i].tokens);
    if (view_word(w->d, &w->prev, &helper) >= 0 && helper >= 3) n = saturating_add(n, HELPER_TOKENS);
    for (size_t i = 0; i < sizeof costly / sizeof costly[0]; i++)
      if (is_word(&w->prev, costly[i].name)) n = saturating_add(n, costly[i].tokens);
  }
  advance(w);
  return n;
}

/* A parenthesised group from its '(' (a loop's or a branch's header). */
static uint64_t group(weigher *w) {
  uint64_t n = 0;
  int depth = 0;
  do {
    if (is_symbol(&w->t, '(')) depth++;
    if (is_symbol(&w->t, ')')) depth--;
    n = saturating_add(n, take(w));
  } while (depth > 0 && w->t.kind != TOKEN_END);
  return n;
}

/* One statement, its loops' bodies counted LOOP_COPIES times where no
 * loop is inside (*loop: the statement holds a loop). */
static uint64_t statement(weigher *w, int depth, bool *loop) {
  uint64_t n = 0;
  bool inner = false;
  *loop = false;
  if (depth > MAX_NESTING) {
    w->too_deep = true;
    while (w->t.kind != TOKEN_END)
      advance(w);
    return UINT64_MAX;
  }
  if (is_symbol(&w->t, '{')) {
    n = take(w);
    while (w->t.kind != TOKEN_END && !is_symbol(&w->t, '}')) {
      n = saturating_add(n, statement(w, depth + 1, &inner));
      *loop = *loop || inner;
    }
    if (w->t.kind != TOKEN_END) n = saturating_add(n, take(w));
  } else if (is_word(&w->t, "for") || is_word(&w->t, "while")) {
    n = take(w);
    if (is_symbol(&w->t, '(')) n = saturating_add(n, group(w));
    uint64_t body = statement(w, depth + 1, &inner);
    n = saturating_add(n, inner ? body : saturating_mul(body, LOOP_COPIES));
    *loop = true;
  } else if (is_word(&w->t, "do")) {
    n = take(w);
    uint64_t body = statement(w, depth + 1, &inner);
    n = saturating_add(n, inner ? body : saturating_mul(body, LOOP_COPIES));
    if (is_word(&w->t, "while")) n = saturating_add(n, take(w));
    if (is_symbol(&w->t, '(')) n = saturating_add(n, group(w));
    if (is_symbol(&w->t, ';')) n = saturating_add(n, take(w));
    *loop = true;
  } else if (is_word(&w->t, "if") || is_word(&w->t, "switch")) {
    n = take(w);
    if (is_symbol(&w->t, '(')) n = saturating_add(n, group(w));
    n = saturating_add(n, statement(w, depth + 1, &inner));
    *loop = inner;
    if (is_word(&w->t, "else")) {
      n = saturating_add(n, take(w));
      n = saturating_add(n, statement(w, depth + 1, &inner));
      *loop = *loop || inner;
    }
  } else if (is_word(&w->t, "case") || is_word(&w->t, "default")) {
    /* A label is a statement of its own: a loop may follow it. */
    while (w->t.kind != TOKEN_END && !is_symbol(&w->t, ':'))
      n = saturating_add(n, take(w));
    if (w->t.kind != TOKEN_END) n = saturating_add(n, take(w));
  } else {
    /* Up to its ';', or to the '}' that closes the block; braces inside it
     * (a local struct's) hold statements of their own. */
    while (w->t.kind != TOKEN_END && !is_symbol(&w->t, '}')) {
      if (is_symbol(&w->t, '{')) {
        n = saturating_add(n, statement(w, depth + 1, &inner));
        *loop = *loop || inner;
        continue;
      }
      bool end = is_symbol(&w->t, ';');
      n = saturating_add(n, take(w));
      if (end) break;
    }
  }
  return n;
}

/* The tokens of the body, or of one function (from its brace): at the top
 * a word and '(' is a definition or a prototype, no call (GLSL ES
 * initialises globals with constants), and a brace after ')' opens a
 * function's statements. */
static uint64_t weigh(weigher *w, const char *from, uint32_t line, bool one_function) {
  w->lx.p = from;
  w->lx.line = line;
  w->t.kind = TOKEN_SYMBOL;
  w->t.p = "";
  w->t.len = 0;
  advance(w);
  uint64_t n = 0;
  bool loop;
  if (one_function) return statement(w, 0, &loop);
  while (w->t.kind != TOKEN_END) {
    if (is_symbol(&w->t, '{') && is_symbol(&w->prev, ')'))
      n = saturating_add(n, statement(w, 0, &loop));
    else
      n = saturating_add(n, (advance(w), 1));
  }
  return n;
}

gt_kernel_refusal gt__kernel_check_body(const gt_kernel_desc *d, gt_kernel_verdict *v) {
  memset(v, 0, sizeof *v);
  token t = {TOKEN_END, d->body ? d->body : "", 0, 1};
  if (d->body == NULL || d->body[0] == '\0') return refuse(v, GT_KERNEL_REFUSED_BODY_EMPTY, &t);
  size_t length = 0;
  while (length <= GT_KERNEL_MAX_BODY && d->body[length] != '\0')
    length++;
  if (length > GT_KERNEL_MAX_BODY) return refuse(v, GT_KERNEL_REFUSED_BODY_LONG, &t);
  /* Anywhere, comments included: a line continuation is joined before
   * comments are found, so a comment's end may lie behind one. */
  const char *backslash = strchr(d->body, '\\');
  if (backslash != NULL) {
    t.p = backslash;
    t.len = 1;
    t.line = 1;
    for (const char *p = d->body; p < backslash; p++)
      t.line += *p == '\n';
    return refuse(v, GT_KERNEL_REFUSED_BACKSLASH, &t);
  }

  static const weigher empty;
  weigher scan = empty;
  scan.d = d;
  lexer lx = {d->body, 1};
  token prev = {TOKEN_END, "", 0, 0}, name = prev;
  int depth = 0, parens = 0;
  bool in_main = false;
  uint32_t returns = 0, barriers_after_return = 0;
  token first_return = prev;
  for (;;) {
    gt_kernel_refusal r = next(&lx, &t);
    if (r != GT_KERNEL_ACCEPTED) return refuse(v, r, &t);
    if (t.kind == TOKEN_END) break;
    if (t.kind == TOKEN_WORD) {
      r = check_word(d, &t, &prev, v);
      if (r != GT_KERNEL_ACCEPTED) return r;
    }
    /* A definition at the top: a word, its parameters, then a brace. */
    if (depth == 0 && is_symbol(&t, '(') && parens++ == 0) name = prev;
    if (depth == 0 && is_symbol(&t, ')')) parens--;
    if (is_symbol(&t, '{')) {
      if (depth == 0 && is_symbol(&prev, ')') && name.kind == TOKEN_WORD) {
        if (scan.count == MAX_FUNCTIONS) return refuse(v, GT_KERNEL_REFUSED_BODY_FUNCTIONS, &name);
        function *f = &scan.functions[scan.count++];
        f->name = name.p;
        f->len = name.len;
        f->brace = t.p;
        f->line = t.line;
        in_main = is_word(&name, "main");
      }
      depth++;
    }
    if (is_symbol(&t, '}') && depth > 0 && --depth == 0) in_main = false;
    /* GLSL ES 3.10 allows barrier() only in uniform control flow and never
     * after a return in main(); Mesa compiles it anyway, Adreno rejects it
     * or crashes. Each word is seen here as the
     * driver sees it, so a return made by a macro cannot hide. */
    if (in_main && is_word(&t, "return") && returns++ == 0) first_return = t;
    if (in_main && is_word(&t, "barrier") && returns > 0) barriers_after_return++;
    prev = t;
  }
  if (barriers_after_return > 0) return refuse(v, GT_KERNEL_REFUSED_BARRIER_AFTER_RETURN, &first_return);

  /* Each function's tokens with its calls counted in, by rounds: a round
   * counts every call at its callee's tokens from the round before, so
   * after as many rounds as the longest chain of calls nothing changes.
   * Still changing after one round more than there are functions, the
   * calls go round in a circle, which GLSL does not allow. */
  bool changed = true;
  for (int round = 0; changed && round <= scan.count + 1; round++) {
    changed = false;
    for (int i = 0; i < scan.count; i++) {
      uint64_t n = weigh(&scan, scan.functions[i].brace, scan.functions[i].line, true);
      changed = changed || n != scan.functions[i].tokens;
      scan.functions[i].tokens = n;
    }
  }
  t.p = d->body;
  t.len = 0;
  t.line = 1;
  uint64_t tokens = changed ? UINT64_MAX : weigh(&scan, d->body, 1, false);
  if (scan.too_deep) return refuse(v, GT_KERNEL_REFUSED_BODY_NESTED, &t);
  if (tokens > GT_KERNEL_MAX_TOKENS) return refuse(v, GT_KERNEL_REFUSED_BODY_LARGE, &t);
  return GT_KERNEL_ACCEPTED;
}
