import { spawn } from 'node:child_process';
import path from 'node:path';

/** `vite build` of the web client into `outDir`: the files a server started as `npm start` serves. */
export function buildWebApp(outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.resolve('node_modules/.bin/vite'),
      ['build', '--outDir', outDir, '--emptyOutDir'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output.slice(-3000)}`)),
    );
  });
}
