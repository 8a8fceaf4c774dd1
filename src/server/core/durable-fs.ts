import fsp from 'node:fs/promises';

/** fsync of a file (or a directory), so what was written to it survives a power loss. */
export async function syncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a directory: makes the names created, renamed or linked in it survive a power loss. */
export const syncDirectory = (dir: string): Promise<void> => syncFile(dir);
