/*
 * The server's one native addon (binding.gyp; built by `npm ci` with node-gyp, loaded by
 * src/server/core/native-addon.ts): what node cannot do for us, each part in a file of its own.
 */
#include <node_api.h>

napi_status register_memory(napi_env env, napi_value exports);
napi_status register_md5(napi_env env, napi_value exports);

NAPI_MODULE_INIT() {
  if (register_memory(env, exports) != napi_ok || register_md5(env, exports) != napi_ok) return NULL;
  return exports;
}
