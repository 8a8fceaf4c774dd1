/*
 * The server's one native addon (binding.gyp; built by `npm ci` with node-gyp, loaded by
 * src/server/core/native-addon.ts): what node cannot do for us and a budget line of docs/benchmarks.md
 * needs (docs/decisions/059-native-code-only-where-it-pays.md), each part in a file of its own.
 */
#include <node_api.h>

napi_status register_memory(napi_env env, napi_value exports);

NAPI_MODULE_INIT() {
  if (register_memory(env, exports) != napi_ok) return NULL;
  return exports;
}
