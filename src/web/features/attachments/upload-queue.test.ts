import { describe, expect, it } from 'vitest';
import { UploadQueue, type QueueItem, type QueueTask } from './upload-queue';

type Next = (snapshot: { bytesTransferred: number; totalBytes: number; state: string }) => unknown;

/** A task the test drives by hand, like the storage client's: pause/resume/cancel report through `on`. */
class FakeTask implements QueueTask {
  next: Next = () => undefined;
  error: (error: unknown) => unknown = () => undefined;
  complete: () => unknown = () => undefined;
  state = 'running';
  constructor(readonly file: File) {}
  on(_event: 'state_changed', next: Next, error: (e: unknown) => unknown, complete: () => unknown) {
    this.next = next;
    this.error = error;
    this.complete = complete;
    return () => undefined;
  }
  progress(bytes: number) {
    this.next({ bytesTransferred: bytes, totalBytes: this.file.size, state: this.state });
  }
  pause() {
    this.state = 'paused';
    this.progress(0);
    return true;
  }
  resume() {
    this.state = 'running';
    this.progress(0);
    return true;
  }
  cancel() {
    this.error({ code: 'storage/canceled' });
    return true;
  }
}

function file(name: string, size = 10): File {
  return new File([new Uint8Array(size)], name);
}

function setUp(limit = 2, maxBytes = 100) {
  const tasks: FakeTask[] = [];
  const settled: Array<readonly QueueItem[]> = [];
  const finished: string[] = [];
  const queue = new UploadQueue({
    concurrency: limit,
    check: (candidate) => (candidate.size > maxBytes ? 'too big' : null),
    start: (candidate) => {
      const task = new FakeTask(candidate);
      tasks.push(task);
      return task;
    },
    finish: (candidate) => {
      finished.push(candidate.name);
      return candidate.name.startsWith('bad') ? Promise.reject(new Error('no')) : Promise.resolve();
    },
    describeError: (error) => (error instanceof Error ? error.message : 'failed'),
    onSettled: (items) => settled.push(items),
  });
  const states = () => queue.getSnapshot().map((item) => `${item.name}:${item.state}`);
  return { queue, tasks, settled, finished, states };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('UploadQueue', () => {
  it('runs at most `concurrency` uploads and starts the next as one ends', async () => {
    const { queue, tasks, states, settled, finished } = setUp(2);
    queue.add([file('a'), file('b'), file('c')]);
    expect(tasks.map((task) => task.file.name)).toEqual(['a', 'b']);
    expect(states()).toEqual(['a:uploading', 'b:uploading', 'c:waiting']);

    tasks[0]?.progress(5);
    expect(queue.getSnapshot()[0]?.transferred).toBe(5);
    tasks[0]?.complete();
    expect(tasks.map((task) => task.file.name)).toEqual(['a', 'b', 'c']);
    await flush();
    tasks[1]?.complete();
    tasks[2]?.complete();
    await flush();
    expect(states()).toEqual(['a:done', 'b:done', 'c:done']);
    expect(finished).toEqual(['a', 'b', 'c']);
    expect(settled).toHaveLength(1);
  });

  it('refuses a file before sending anything, with the reason, and queues the rest', () => {
    const { queue, tasks, states } = setUp(2, 50);
    queue.add([file('big', 51), file('small', 50)]);
    expect(tasks.map((task) => task.file.name)).toEqual(['small']);
    expect(states()).toEqual(['big:failed', 'small:uploading']);
    expect(queue.getSnapshot()[0]?.error).toBe('too big');
  });

  it('pauses, resumes and cancels running and waiting files; a paused waiting file is not started', () => {
    const { queue, tasks, states } = setUp(1);
    queue.add([file('a'), file('b'), file('c')]);
    const [a, b, c] = queue.getSnapshot();
    queue.pause(b!.id);
    queue.pause(a!.id);
    expect(states()).toEqual(['a:paused', 'b:paused', 'c:waiting']);
    queue.resume(a!.id);
    expect(states()).toEqual(['a:uploading', 'b:paused', 'c:waiting']);
    queue.cancel(a!.id);
    // c starts, not the held b.
    expect(states()).toEqual(['a:canceled', 'b:paused', 'c:uploading']);
    expect(queue.getSnapshot()[0]?.error).toBeNull();
    queue.cancel(c!.id);
    expect(tasks.map((task) => task.file.name)).toEqual(['a', 'c']);
    queue.resume(b!.id);
    expect(tasks.map((task) => task.file.name)).toEqual(['a', 'c', 'b']);
  });

  it('a failed upload or registration shows its message; clearEnded takes ended rows away', async () => {
    const { queue, tasks, states, settled } = setUp(2);
    queue.add([file('a'), file('bad')]);
    tasks[0]?.error(new Error('over quota'));
    tasks[1]?.complete();
    await flush();
    expect(states()).toEqual(['a:failed', 'bad:failed']);
    expect(queue.getSnapshot().map((item) => item.error)).toEqual(['over quota', 'no']);
    expect(settled).toHaveLength(1);
    queue.clearEnded();
    expect(queue.getSnapshot()).toEqual([]);
  });
});
