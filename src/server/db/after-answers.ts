import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Waits until commits are durable and the answers waiting for that same sync are written, so work that
 * follows a write (its live fan-out, its queued notifications) starts after the writer's answer left. The
 * request asks for its sync after it publishes (its answer's onSend hook), hence the turn before waiting;
 * work that no request caused (presence, reminders) starts a sync of its own. A failed sync is the answer's
 * to report: the commits happened, so the work still goes on (`onSyncError` hears of it).
 * docs/decisions/031-answer-before-fan-out.md.
 */
export async function afterAnswers(
  durable: () => Promise<void>,
  onSyncError: (error: unknown) => void,
): Promise<void> {
  await nextTurn();
  try {
    await durable();
  } catch (error) {
    onSyncError(error);
  }
  await nextTurn();
}
