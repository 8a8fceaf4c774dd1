import { describe, expect, it } from 'vitest';
import { loadMallocTrim } from './malloc-trim';

describe('loadMallocTrim', () => {
  it('finds the addon npm ci built, and calling it answers whether memory went back', () => {
    // The tests run on Linux with glibc, where `npm ci` builds the addon (binding.gyp): not finding it here
    // means the build or the lookup broke, and a quiet server would keep its freed memory.
    const trimMalloc = loadMallocTrim();
    expect(trimMalloc).toBeTypeOf('function');
    expect(trimMalloc?.()).toBeTypeOf('boolean');
  });
});
