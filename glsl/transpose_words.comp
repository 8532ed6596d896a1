/* AUTO's transpose of 2- and 1-byte elements whose rows lie on words:
 * both views' offsets and pitches are multiples of GT_PACK, so every
 * source row and destination row starts on a word. The elements then move
 * as words, never one by one, and no word is shared with another
 * invocation: no atomics.
 *
 * A block is GT_PACK source rows by one word: GT_PACK x GT_PACK elements.
 * Its transpose is GT_PACK destination rows by one word, word q holding
 * element q of each source word (transpose_block). The host passes the
 * main section, whose rows are a multiple of GT_PACK and whose columns
 * whole words, with cols, offset and pitch in words and rows in elements;
 * the source's element columns are the destination's rows. The bands that
 * make no whole block run the packed tiled kernel (seed 000, option B).
 *
 * A group moves a tile of GT_TILE x GT_TILE blocks through shared memory,
 * so that global reads and writes are both a row of consecutive words
 * across the group's columns (GT_TILE invocations). Each block is
 * transposed as it is read, so the write side takes one shared word per
 * destination word. The shared tile is GT_PACK planes of GT_TILE x GT_TILE
 * words, column index XOR row: the reads of a row and the writes of a
 * column each touch GT_TILE distinct banks (GT_TILE = 32), in 16 KiB for
 * 1-byte elements, the ES 3.1 minimum.
 *
 * GT_REGISTERS: no shared tile; each invocation moves one block through
 * registers, GT_PACK loads and GT_PACK stores (where accesses cost more
 * than cache lines: llvmpipe). GT_UVEC4 too: where both views' rows start
 * 16-byte aligned, 4 x 4 blocks, each source row's 4 words one uvec4
 * load and each destination row's one uvec4 store, as many accesses as a
 * uvec4 copy of the same bytes; the host then passes cols, offset and
 * pitch in uvec4s, and rows a multiple of 4 GT_PACK. */
#if GT_PACK == 1
#error "transpose_words moves 2- and 1-byte elements"
#endif

#ifdef GT_UVEC4
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uvec4 dst[]; };
#else
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uint dst[]; };
#endif

/* The block whose source words are w: word q of the result holds element
 * q of each, source word p's in bits p * GT_BITS on. */
void transpose_block(uint w[GT_PACK], out uint t[GT_PACK]) {
  for (uint q = 0u; q < uint(GT_PACK); q++) {
    uint word = 0u;
    for (uint p = 0u; p < uint(GT_PACK); p++)
      word |= ((w[p] >> (q * GT_BITS)) & GT_MASK) << (p * GT_BITS);
    t[q] = word;
  }
}

/* The main section's blocks: rows, word columns. */
uvec2 main_blocks() { return uvec2(gt_views[0].x / uint(GT_PACK), gt_views[0].y); }

#ifndef GT_UVEC4
/* Block (row, col), in blocks and words, of the source, transposed: zero
 * outside the main section (padded tiles) where guarded. */
void load_block(uvec2 block, bool guarded, out uint t[GT_PACK]) {
  uvec4 s = gt_views[0];
  uint w[GT_PACK];
  bool inside = !guarded || all(lessThan(block, main_blocks()));
  uint at = s.z + block.x * uint(GT_PACK) * s.w + block.y;
  for (uint p = 0u; p < uint(GT_PACK); p++)
    w[p] = inside ? src[at + p * s.w] : 0u;
  transpose_block(w, t);
}

/* Word q of block (row, col) of the source, transposed, into place:
 * destination row col * GT_PACK + q, word row. */
void store_word(uvec2 block, uint q, uint word, bool guarded) {
  uvec4 d = gt_views[1];
  if (!guarded || all(lessThan(block, main_blocks())))
    dst[d.z + (block.y * uint(GT_PACK) + q) * d.w + block.x] = word;
}

#endif

#ifdef GT_UVEC4
/* Blocks 4 r .. 4 r + 3 of uvec4 column c of the source: (r, c) = gt_global(). */
void main() {
  uvec2 g = gt_global();
  uvec4 s = gt_views[0], d = gt_views[1];
  const uint ROWS = 4u * uint(GT_PACK);
  if (g.x >= s.x / ROWS || g.y >= s.y) return;
  uvec4 rows[4 * GT_PACK];
  uint at = s.z + g.x * ROWS * s.w + g.y;
  for (uint i = 0u; i < ROWS; i++)
    rows[i] = src[at + i * s.w];
  /* Word column c of the source's uvec4 becomes destination rows
   * (4 g.y + c) GT_PACK + q, whose uvec4 g.x holds the 4 blocks' words. */
  for (uint c = 0u; c < 4u; c++) {
    uvec4 words[GT_PACK];
    for (uint b = 0u; b < 4u; b++) {
      uint w[GT_PACK], t[GT_PACK];
      for (uint p = 0u; p < uint(GT_PACK); p++)
        w[p] = rows[b * uint(GT_PACK) + p][c];
      transpose_block(w, t);
      for (uint q = 0u; q < uint(GT_PACK); q++)
        words[q][b] = t[q];
    }
    for (uint q = 0u; q < uint(GT_PACK); q++)
      dst[d.z + ((4u * g.y + c) * uint(GT_PACK) + q) * d.w + g.x] = words[q];
  }
}
#elif defined(GT_REGISTERS)
void main() {
  uvec2 block = gt_global();
  uint t[GT_PACK];
  load_block(block, true, t);
  for (uint q = 0u; q < uint(GT_PACK); q++)
    store_word(block, q, t[q], true);
}
#else
#if !defined(GT_TILE) || GT_TILE != 32
#error "the shared tile is 32 x 32 blocks"
#endif
const uint T = uint(GT_TILE);
shared uint planes[GT_PACK * GT_TILE * GT_TILE];

/* Word q of the tile's block (i, c). */
uint slot(uint q, uint i, uint c) { return (q * T + i) * T + (c ^ i); }

/* Block row i of the tile, the invocation's word column: into the planes. */
void read_tile(uvec2 origin, bool guarded) {
  uint tx = gl_LocalInvocationID.x;
  for (uint i = gl_LocalInvocationID.y; i < T; i += uint(GT_GROUP_ROWS)) {
    uint t[GT_PACK];
    load_block(origin + uvec2(i, tx), guarded, t);
    for (uint q = 0u; q < uint(GT_PACK); q++)
      planes[slot(q, i, tx)] = t[q];
  }
}

/* Destination row j of the tile (word column j / GT_PACK of the source,
 * element j % GT_PACK), the invocation's block row: from the planes. */
void write_tile(uvec2 origin, bool guarded) {
  uint tx = gl_LocalInvocationID.x;
  for (uint j = gl_LocalInvocationID.y; j < T * uint(GT_PACK); j += uint(GT_GROUP_ROWS)) {
    uint c = j / uint(GT_PACK), q = j % uint(GT_PACK);
    store_word(origin + uvec2(tx, c), q, planes[slot(q, tx, c)], guarded);
  }
}

void main() {
  /* The group order: transpose_order.glsl (in blocks). */
  uvec2 origin = striped_tile() * T;
  /* A tile wholly inside the main section takes no guards, in loops of
   * its own (the tiled kernel's finding: transpose_tiled.comp). The test
   * is the group's, and barrier() stays outside control flow. */
  bool whole = all(lessThanEqual(origin + T, main_blocks()));
  if (whole)
    read_tile(origin, false);
  else
    read_tile(origin, true);
  memoryBarrierShared();
  barrier();
  if (whole)
    write_tile(origin, false);
  else
    write_tile(origin, true);
}
#endif
