/** Small helpers over request bodies read as async iterables of bytes. */

export interface ByteLimit {
  max: number;
  /** The error to throw once more than `max` bytes have arrived. */
  error: () => Error;
}

/** Passes bytes through; throws the error of the first limit passed, before yielding the excess. */
export async function* limitBytes(
  source: AsyncIterable<Uint8Array>,
  limits: ByteLimit[],
): AsyncGenerator<Uint8Array> {
  const ordered = [...limits].sort((a, b) => a.max - b.max);
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    const passed = ordered.find((limit) => total > limit.max);
    if (passed) throw passed.error();
    yield chunk;
  }
}

/** Drops the first `count` bytes. */
export async function* skipBytes(
  source: AsyncIterable<Uint8Array>,
  count: number,
): AsyncGenerator<Uint8Array> {
  let toSkip = count;
  for await (const chunk of source) {
    if (toSkip >= chunk.byteLength) {
      toSkip -= chunk.byteLength;
      continue;
    }
    yield toSkip > 0 ? chunk.subarray(toSkip) : chunk;
    toSkip = 0;
  }
}

/** Reads a whole (small) body into memory; `tooLarge` past `maxBytes`. */
export async function readAll(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitBytes(source, [{ max: maxBytes, error: tooLarge }])) chunks.push(chunk);
  return Buffer.concat(chunks);
}
