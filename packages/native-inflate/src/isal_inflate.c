/*
 * Gzip inflation by ISA-L (Intel's Intelligent Storage Acceleration Library, igzip: BSD-3, linked from the
 * system's libisal), behind a handle that behaves as eval's use of Node's zlib handle does (inflate.ts):
 * input and output are caller-owned byte arrays (the output may be the line kernel's WebAssembly memory),
 * several members follow one another, and anything that is not a clean end is a failure the caller answers by
 * streaming the file with Node's zlib, which reports exactly what it could read.
 *
 *   create() -> handle
 *   write(handle, finish, in, inOff, inLen, out, outOff, outLen, state: Uint32Array) -> status
 *     status 0: more may follow; 1: the data ended cleanly (every member's CRC-32 and size checked) with no
 *     input left; -1: damaged, cut short (finish with no end), or bytes after a member that are neither a next
 *     member nor zero padding. state[0] = output room left, state[1] = input bytes left unread: zero padding
 *     after the last member is left unread (state[1] > 0), as zlib leaves it.
 *   close(handle)
 *
 * Why: inflation is most of a gzip evaluation's CPU, and ISA-L's inflater runs at 2.5-3x Node's zlib on log
 * export files (packages/native-inflate/README.md has the figures).
 */
#include <node_api.h>
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>
#include <stdlib.h>
#include <string.h>

/*
 * Where a member is. Headers are read here, not by ISA-L: its own header reader (v2.30) fails a valid header
 * with a header CRC when the input is split inside the header. ISA-L then inflates the deflate data and checks
 * the trailer (ISAL_GZIP_NO_HDR_VER: CRC-32 and size).
 */
enum phase { HEADER, BODY, BETWEEN };
enum header_part { H_FIXED, H_XLEN, H_EXTRA, H_NAME, H_COMMENT, H_HCRC };

typedef struct {
  /* ~90 KB (ISA-L's window and tables), freed by close: a run over hundreds of files must not wait for the
     garbage collector, which does not see this memory, to free them with their handles. */
  struct inflate_state *st;
  enum phase phase;
  enum header_part part;
  uint8_t flags;
  uint32_t got;    /* bytes read of the current fixed-size part */
  uint32_t need;   /* extra-field bytes left */
  uint8_t buf[10]; /* the fixed part, XLEN or the header CRC being read */
  uint32_t hcrc;   /* CRC-32 of the header so far */
  int failed;
  int closed;
} Gunzip;

#define CHECK(call)                                                         \
  do {                                                                      \
    if ((call) != napi_ok) {                                                \
      napi_throw_error(env, NULL, "native-inflate: a Node-API call failed"); \
      return NULL;                                                          \
    }                                                                       \
  } while (0)

static void start_header(Gunzip *g) {
  g->phase = HEADER;
  g->part = H_FIXED;
  g->got = 0;
  g->hcrc = 0;
}

/* Reads header bytes from the stream's input: 1 when the header is complete, 0 when the input ran out, -1 bad. */
static int read_header(Gunzip *g) {
  struct inflate_state *st = g->st;
  while (st->avail_in > 0) {
    const uint8_t *in = st->next_in;
    uint32_t n = 0; /* bytes of input taken by this step */
    switch (g->part) {
      case H_FIXED:
      case H_XLEN:
      case H_HCRC: {
        uint32_t size = g->part == H_FIXED ? 10 : 2;
        n = size - g->got < st->avail_in ? size - g->got : st->avail_in;
        memcpy(g->buf + g->got, in, n);
        g->got += n;
        break;
      }
      case H_EXTRA:
        n = g->need < st->avail_in ? g->need : st->avail_in;
        g->need -= n;
        break;
      case H_NAME:
      case H_COMMENT: {
        const uint8_t *z = memchr(in, 0, st->avail_in);
        n = z ? (uint32_t)(z - in) + 1 : st->avail_in;
        break;
      }
    }
    if (g->part != H_HCRC) g->hcrc = crc32_gzip_refl(g->hcrc, in, n);
    st->next_in += n;
    st->avail_in -= n;
    /* Is the part complete? Then on to the next one the flags ask for. */
    switch (g->part) {
      case H_FIXED:
        if (g->got < 10) return 0;
        /* gzip's magic, deflate, no reserved flag (zlib refuses those too) */
        if (g->buf[0] != 0x1f || g->buf[1] != 0x8b || g->buf[2] != 8 || (g->buf[3] & 0xe0)) return -1;
        g->flags = g->buf[3];
        g->part = H_XLEN;
        g->got = 0;
        if (!(g->flags & 4)) goto after_extra;
        continue;
      case H_XLEN:
        if (g->got < 2) return 0;
        g->need = g->buf[0] | (uint32_t)g->buf[1] << 8;
        g->part = H_EXTRA;
        continue;
      case H_EXTRA:
        if (g->need > 0) return 0;
      after_extra:
        g->part = H_NAME;
        if (!(g->flags & 8)) goto after_name;
        continue;
      case H_NAME:
        if (in[n - 1] != 0) return 0;
      after_name:
        g->part = H_COMMENT;
        if (!(g->flags & 16)) goto after_comment;
        continue;
      case H_COMMENT:
        if (in[n - 1] != 0) return 0;
      after_comment:
        g->part = H_HCRC;
        g->got = 0;
        if (!(g->flags & 2)) return 1;
        continue;
      case H_HCRC:
        if (g->got < 2) return 0;
        return (g->buf[0] | (uint32_t)g->buf[1] << 8) == (g->hcrc & 0xffff) ? 1 : -1;
    }
  }
  return 0; /* the input ran out inside the header (a complete one returned 1 above) */
}

static void start_body(Gunzip *g) {
  isal_inflate_reset(g->st); /* keeps next_in, avail_in, next_out, avail_out */
  g->st->crc_flag = ISAL_GZIP_NO_HDR_VER; /* deflate data, then the trailer's CRC-32 and size checked */
  g->phase = BODY;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Gunzip *g = (Gunzip *)data;
  free(g->st);
  free(g);
}

static napi_value create(napi_env env, napi_callback_info info) {
  (void)info;
  Gunzip *g = calloc(1, sizeof(Gunzip));
  if (g) g->st = malloc(sizeof(struct inflate_state));
  if (!g || !g->st) {
    free(g);
    napi_throw_error(env, NULL, "native-inflate: out of memory");
    return NULL;
  }
  isal_inflate_init(g->st);
  start_header(g);
  napi_value handle;
  if (napi_create_external(env, g, finalize, NULL, &handle) != napi_ok) {
    free(g->st);
    free(g);
    napi_throw_error(env, NULL, "native-inflate: a Node-API call failed");
    return NULL;
  }
  return handle;
}

static Gunzip *unwrap(napi_env env, napi_value v) {
  void *data = NULL;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external || napi_get_value_external(env, v, &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "native-inflate: not a handle");
    return NULL;
  }
  return (Gunzip *)data;
}

/* A byte view [off, off + len) of a typed array, checked against its length. */
static uint8_t *bytes(napi_env env, napi_value arr, napi_value off_v, napi_value len_v, uint32_t *len_out, size_t elem) {
  napi_typedarray_type type;
  size_t length;
  void *data;
  napi_value ab;
  size_t byte_offset;
  bool is_ta = false;
  if (napi_is_typedarray(env, arr, &is_ta) != napi_ok || !is_ta ||
      napi_get_typedarray_info(env, arr, &type, &length, &data, &ab, &byte_offset) != napi_ok ||
      type != (elem == 1 ? napi_uint8_array : napi_uint32_array)) {
    napi_throw_type_error(env, NULL, elem == 1 ? "native-inflate: expected a Uint8Array" : "native-inflate: expected a Uint32Array");
    return NULL;
  }
  if (!off_v) {
    *len_out = length > 0xffffffffu ? 0xffffffffu : (uint32_t)length;
    return (uint8_t *)data;
  }
  double off, len;
  if (napi_get_value_double(env, off_v, &off) != napi_ok || napi_get_value_double(env, len_v, &len) != napi_ok ||
      !(off >= 0) || !(len >= 0) || off + len > (double)length || len > 4294967295.0 || off != (double)(size_t)off ||
      len != (double)(uint32_t)len) {
    napi_throw_range_error(env, NULL, "native-inflate: offset or length out of range");
    return NULL;
  }
  *len_out = (uint32_t)len;
  return (uint8_t *)data + (size_t)off;
}

static napi_value status(napi_env env, int32_t s) {
  napi_value v;
  CHECK(napi_create_int32(env, s, &v));
  return v;
}

static napi_value write_(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 9) {
    napi_throw_type_error(env, NULL, "native-inflate: write takes 9 arguments");
    return NULL;
  }
  Gunzip *g = unwrap(env, argv[0]);
  if (!g) return NULL;
  bool finish = false;
  if (napi_get_value_bool(env, argv[1], &finish) != napi_ok) {
    napi_throw_type_error(env, NULL, "native-inflate: finish must be a boolean");
    return NULL;
  }
  uint32_t in_len, out_len, state_len;
  uint8_t *in = bytes(env, argv[2], argv[3], argv[4], &in_len, 1);
  if (!in) return NULL;
  uint8_t *out = bytes(env, argv[5], argv[6], argv[7], &out_len, 1);
  if (!out) return NULL;
  uint32_t *state = (uint32_t *)bytes(env, argv[8], NULL, NULL, &state_len, 4);
  if (!state) return NULL;
  if (state_len < 2) {
    napi_throw_range_error(env, NULL, "native-inflate: the state array needs 2 slots");
    return NULL;
  }
  if (g->failed || g->closed) return status(env, -1);

  struct inflate_state *st = g->st;
  st->next_in = in;
  st->avail_in = in_len;
  st->next_out = out;
  st->avail_out = out_len;
  int result = 0;
  for (;;) {
    if (g->phase == BETWEEN) {
      if (st->avail_in == 0) break;
      if (st->next_in[0] == 0) break; /* zero padding: left unread */
      if (st->next_in[0] != 0x1f) {   /* not a gzip header: junk after the data */
        result = -1;
        break;
      }
      start_header(g);
    }
    if (g->phase == HEADER) {
      int h = read_header(g);
      if (h < 0) {
        result = -1;
        break;
      }
      if (h == 0) break; /* the input ran out inside the header */
      start_body(g);
    }
    if (st->avail_out == 0) break;
    uint32_t before_in = st->avail_in, before_out = st->avail_out;
    int ret = isal_inflate(st);
    if (ret < 0 || ret > ISAL_OUT_OVERFLOW) {
      result = -1;
      break;
    }
    if (st->block_state == ISAL_BLOCK_FINISH) {
      g->phase = BETWEEN;
      continue;
    }
    if (st->avail_out == 0 || st->avail_in == 0) break;
    if (st->avail_in == before_in && st->avail_out == before_out) { /* no progress with input and room: stuck */
      result = -1;
      break;
    }
  }
  if (result == 0 && finish && st->avail_in == 0 && st->avail_out > 0 && g->phase != BETWEEN) result = -1; /* cut short */
  if (result == 0 && g->phase == BETWEEN && st->avail_in == 0) result = 1;
  if (result < 0) g->failed = 1;
  state[0] = st->avail_out;
  state[1] = st->avail_in;
  return status(env, result);
}

static napi_value close_(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1) {
    napi_throw_type_error(env, NULL, "native-inflate: close takes a handle");
    return NULL;
  }
  Gunzip *g = unwrap(env, argv[0]);
  if (!g) return NULL;
  g->closed = 1;
  free(g->st); /* the small rest goes with the handle (finalizer) */
  g->st = NULL;
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"create", NULL, create, NULL, NULL, NULL, napi_default, NULL},
      {"write", NULL, write_, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, close_, NULL, NULL, NULL, napi_default, NULL},
  };
  if (napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props) != napi_ok) return NULL;
  return exports;
}
