/** Runs `task(0..count-1)` with at most `concurrency` in flight; rejects on the first failure. */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async (): Promise<void> => {
    while (failed === undefined && next < count) {
      const index = next;
      next += 1;
      try {
        await task(index);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (failed !== undefined) throw failed;
}
