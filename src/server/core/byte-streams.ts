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

/**
 * Starts reading `source` at once and keeps up to `limit` bytes ready for the consumer, so a request body
 * keeps arriving while the consumer still waits on something else (an S3 store lists the upload's entries
 * before it takes the first byte). Errors reach the consumer in order, after the bytes read before them.
 * `stop()` ends the reading for a consumer that will never iterate; breaking out of the iteration ends
 * the source too, as a `for await` over the source itself would.
 */
export class ReadAhead implements AsyncIterable<Uint8Array> {
  private readonly iterator: AsyncIterator<Uint8Array>;
  private readonly queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private pulling: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    source: AsyncIterable<Uint8Array>,
    private readonly limit: number,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
    this.pull();
  }

  /** No more reading; what was read ahead is dropped. */
  async stop(): Promise<void> {
    this.ended = true;
    await this.pulling;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    let finished = false;
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          this.queuedBytes -= next.byteLength;
          this.pull();
          yield next;
          continue;
        }
        if (this.failure) throw this.failure.error;
        if (this.ended) {
          finished = true;
          return;
        }
        this.pull();
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    } finally {
      if (!finished && !this.failure) {
        // The consumer left early: end the source as its own `for await` would have.
        await this.stop();
        await this.iterator.return?.();
      }
    }
  }

  private pull(): void {
    if (this.pulling || this.ended || this.failure || this.queuedBytes >= this.limit) return;
    this.pulling = this.iterator.next().then(
      (result) => {
        if (result.done) {
          this.ended = true;
        } else if (!this.ended) {
          this.queue.push(result.value);
          this.queuedBytes += result.value.byteLength;
        }
        this.settled();
      },
      (error: unknown) => {
        this.failure = { error };
        this.settled();
      },
    );
  }

  private settled(): void {
    this.pulling = undefined;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
    this.pull();
  }
}
