import { describe, expect, it } from 'vitest';
import { dragHasFiles, filesFromPaste } from './pasted-files';

/** The parts of a DataTransfer these helpers read. */
function transfer(files: File[], types = files.length > 0 ? ['Files'] : ['text/plain']): DataTransfer {
  return { files, types } as unknown as DataTransfer;
}

describe('filesFromPaste', () => {
  const at = new Date('2026-11-28T09:05:07.123Z');

  it('names a pasted image by when it was pasted, keeping its bytes, type and extension', async () => {
    const image = new File([new Uint8Array([1, 2, 3])], 'image.png', { type: 'image/png' });
    const [named] = filesFromPaste(transfer([image]), at);
    expect(named?.name).toBe('Pasted image 2026-11-28 09.05.07.png');
    expect(named?.type).toBe('image/png');
    expect([...new Uint8Array(await named!.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('keeps the names of files copied from a folder, and finds none in a text paste', () => {
    const file = new File(['x'], 'contract.pdf', { type: 'application/pdf' });
    expect(filesFromPaste(transfer([file]), at).map((one) => one.name)).toEqual(['contract.pdf']);
    expect(filesFromPaste(transfer([]), at)).toEqual([]);
    expect(filesFromPaste(null, at)).toEqual([]);
  });
});

describe('dragHasFiles', () => {
  it('is true only when files are dragged', () => {
    expect(dragHasFiles(transfer([new File(['x'], 'a.txt')]))).toBe(true);
    expect(dragHasFiles(transfer([], ['text/uri-list']))).toBe(false);
    expect(dragHasFiles(null)).toBe(false);
  });
});
