/*
 * Gives the C allocator's free memory back to the system (src/server/core/malloc-trim.ts says when and why).
 * It holds the budget line "Server RSS after 1,000 signups and 10,000 projects served once" of
 * docs/benchmarks.md.
 * glibc returns freed memory only from the top of its heap; malloc_trim(0) also releases every whole free
 * page in the middle of it. Elsewhere (musl, macOS) there is nothing to call and nothing is released.
 */
#include <stdlib.h>
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value trim_malloc(napi_env env, napi_callback_info info) {
  (void)info;
  int released = 0;
#if defined(__GLIBC__)
  released = malloc_trim(0);
#endif
  napi_value result;
  napi_get_boolean(env, released != 0, &result);
  return result;
}

napi_status register_memory(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"trimMalloc", NULL, trim_malloc, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, 1, functions);
}
