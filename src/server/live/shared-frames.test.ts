import { describe, expect, it } from 'vitest';
import { changesMessage } from './result-state';
import { SharedDiffFrames } from './shared-frames';
import { textFrame } from './text-frame';

describe('SharedDiffFrames', () => {
  it('encodes a diff once per subscription id, as the changes message and its whole text frame', () => {
    const diff = JSON.stringify([{ type: 'removed', id: 'p1' }]);
    const frames = new SharedDiffFrames(diff);
    const dashboard = frames.frameFor('dashboard');
    expect(frames.frameFor('dashboard')).toBe(dashboard);
    expect(dashboard.payload.toString()).toBe(changesMessage('dashboard', diff));
    expect(dashboard.whole.equals(textFrame(dashboard.payload))).toBe(true);
    expect(frames.frameFor('sidebar').payload.toString()).toBe(changesMessage('sidebar', diff));
  });
});
