/*
 * MD5 of upload bytes on libuv's thread pool (src/server/storage/md5.ts says when and why). Node's own
 * `crypto.createHash('md5').update()` runs on the event loop: ≈ 25 ms for every 16 MiB chunk, during which
 * no other request is served. The digest is OpenSSL's, the same node uses, through the symbols node exports.
 *
 * JS calls, one state at a time in order (the wrapper chains them):
 *   md5Create() → state              md5Update(state, [Uint8Array…]) → Promise<void> (on the pool)
 *   md5Copy(state) → state           md5Digest(state) → Buffer (16 bytes; the state is spent)
 */
#include <stdlib.h>
#include <node_api.h>
#include <openssl/evp.h>

#define CHECK(call)                                                                                          \
  do {                                                                                                       \
    if ((call) != napi_ok) return NULL;                                                                      \
  } while (0)

typedef struct {
  EVP_MD_CTX *ctx;
} md5_state;

typedef struct {
  const unsigned char *data;
  size_t length;
} byte_range;

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  /* Keep the state and the pieces alive while the pool reads them. */
  napi_ref state_ref;
  napi_ref pieces_ref;
  md5_state *state;
  byte_range *ranges;
  uint32_t count;
  int ok;
} update_job;

static void free_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  md5_state *state = data;
  EVP_MD_CTX_free(state->ctx);
  free(state);
}

static napi_value wrap_state(napi_env env, EVP_MD_CTX *ctx) {
  md5_state *state = malloc(sizeof *state);
  if (!state) {
    EVP_MD_CTX_free(ctx);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  state->ctx = ctx;
  napi_value external;
  if (napi_create_external(env, state, free_state, NULL, &external) != napi_ok) {
    free_state(env, state, NULL);
    return NULL;
  }
  return external;
}

static md5_state *state_of(napi_env env, napi_value value) {
  napi_valuetype type;
  void *data = NULL;
  if (!value || napi_typeof(env, value, &type) != napi_ok || type != napi_external ||
      napi_get_value_external(env, value, &data) != napi_ok || !data) {
    napi_throw_type_error(env, NULL, "not an MD5 state");
    return NULL;
  }
  return data;
}

/* The state given as the call's first argument (and the second argument in `second`, when asked for), or
 * NULL with a JS exception pending. */
static md5_state *state_argument(napi_env env, napi_callback_info info, napi_value *second) {
  size_t argc = 2;
  napi_value argv[2] = {NULL, NULL};
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
    napi_throw_error(env, NULL, "bad call");
    return NULL;
  }
  if (second) *second = argv[1];
  return state_of(env, argv[0]);
}

/* A new state: empty, or a copy of `from`. */
static napi_value new_state(napi_env env, const md5_state *from) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ok = ctx && (from ? EVP_MD_CTX_copy_ex(ctx, from->ctx) : EVP_DigestInit_ex(ctx, EVP_md5(), NULL)) == 1;
  if (!ok) {
    EVP_MD_CTX_free(ctx);
    napi_throw_error(env, NULL, from ? "MD5 state could not be copied" : "MD5 is not available");
    return NULL;
  }
  return wrap_state(env, ctx);
}

static napi_value md5_create(napi_env env, napi_callback_info info) {
  (void)info;
  return new_state(env, NULL);
}

static napi_value md5_copy(napi_env env, napi_callback_info info) {
  md5_state *state = state_argument(env, info, NULL);
  return state ? new_state(env, state) : NULL;
}

static napi_value md5_digest(napi_env env, napi_callback_info info) {
  md5_state *state = state_argument(env, info, NULL);
  if (!state) return NULL;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state->ctx, digest, &length) != 1) {
    napi_throw_error(env, NULL, "MD5 digest failed");
    return NULL;
  }
  napi_value buffer;
  CHECK(napi_create_buffer_copy(env, length, digest, NULL, &buffer));
  return buffer;
}

static void update_execute(napi_env env, void *data) {
  (void)env;
  update_job *job = data;
  job->ok = 1;
  for (uint32_t i = 0; i < job->count && job->ok; i++) {
    job->ok = EVP_DigestUpdate(job->state->ctx, job->ranges[i].data, job->ranges[i].length) == 1;
  }
}

static void update_complete(napi_env env, napi_status status, void *data) {
  update_job *job = data;
  if (status == napi_ok && job->ok) {
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    napi_resolve_deferred(env, job->deferred, undefined);
  } else {
    napi_value message, error;
    napi_create_string_utf8(env, "MD5 update failed", NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, NULL, message, &error);
    napi_reject_deferred(env, job->deferred, error);
  }
  napi_delete_reference(env, job->state_ref);
  napi_delete_reference(env, job->pieces_ref);
  napi_delete_async_work(env, job->work);
  free(job->ranges);
  free(job);
}

static void free_job(napi_env env, update_job *job) {
  if (job->state_ref) napi_delete_reference(env, job->state_ref);
  if (job->pieces_ref) napi_delete_reference(env, job->pieces_ref);
  free(job->ranges);
  free(job);
}

static napi_value md5_update(napi_env env, napi_callback_info info) {
  napi_value pieces = NULL;
  md5_state *state = state_argument(env, info, &pieces);
  if (!state) return NULL;
  bool is_array = false;
  if (pieces) CHECK(napi_is_array(env, pieces, &is_array));
  if (!is_array) {
    napi_throw_type_error(env, NULL, "pieces must be an array of Uint8Array");
    return NULL;
  }
  uint32_t count = 0;
  CHECK(napi_get_array_length(env, pieces, &count));
  update_job *job = calloc(1, sizeof *job);
  if (!job || (count > 0 && !(job->ranges = calloc(count, sizeof *job->ranges)))) {
    free(job);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  job->state = state;
  job->count = count;
  for (uint32_t i = 0; i < count; i++) {
    napi_value piece;
    bool is_typedarray = false;
    napi_typedarray_type type;
    size_t length = 0;
    void *bytes = NULL;
    if (napi_get_element(env, pieces, i, &piece) != napi_ok ||
        napi_is_typedarray(env, piece, &is_typedarray) != napi_ok || !is_typedarray ||
        napi_get_typedarray_info(env, piece, &type, &length, &bytes, NULL, NULL) != napi_ok ||
        type != napi_uint8_array) {
      free_job(env, job);
      napi_throw_type_error(env, NULL, "pieces must be an array of Uint8Array");
      return NULL;
    }
    job->ranges[i].data = bytes;
    job->ranges[i].length = length;
  }
  napi_value promise, name;
  napi_value state_value;
  size_t argc = 1;
  if (napi_get_cb_info(env, info, &argc, &state_value, NULL, NULL) != napi_ok ||
      napi_create_reference(env, state_value, 1, &job->state_ref) != napi_ok ||
      napi_create_reference(env, pieces, 1, &job->pieces_ref) != napi_ok ||
      napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "dojo:md5", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, update_execute, update_complete, job, &job->work) != napi_ok) {
    free_job(env, job);
    napi_throw_error(env, NULL, "MD5 update could not be queued");
    return NULL;
  }
  if (napi_queue_async_work(env, job->work) != napi_ok) {
    napi_delete_async_work(env, job->work);
    free_job(env, job);
    napi_throw_error(env, NULL, "MD5 update could not be queued");
    return NULL;
  }
  return promise;
}

napi_status register_md5(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"md5Create", NULL, md5_create, NULL, NULL, NULL, napi_default, NULL},
      {"md5Update", NULL, md5_update, NULL, NULL, NULL, napi_default, NULL},
      {"md5Copy", NULL, md5_copy, NULL, NULL, NULL, napi_default, NULL},
      {"md5Digest", NULL, md5_digest, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
}
