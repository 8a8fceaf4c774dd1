#!/usr/bin/env node
/**
 * Fails when the folders of src/server stop forming layers (docs/architecture.md#import-rules,
 * docs/decisions/049-server-folder-layers-and-one-read-rule.md). It reads every non-test source file under
 * src/server, takes each of its imports of another src/server file (type-only imports and `import()` too,
 * as TypeScript's own scanner finds them) and checks:
 *
 * - the folder graph (an edge from a file's top folder under src/server to the top folder of what it
 *   imports) has no cycle, so every folder can be read, changed and tested knowing only the folders below it;
 * - no file in a folder imports a file at the top of src/server (app.ts, services.ts, main.ts): those are
 *   the composition root, which may import every folder and which no folder may import.
 *
 * Usage: node scripts/check-server-folders.mjs [--root DIR]
 * Prints `file:line: message` for each problem and exits 1 if there is any; on success it prints the
 * folders, each after every folder it imports.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = path.resolve(values.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const serverDir = path.join(root, 'src', 'server');
/** The composition root's place in the graph: the files directly in src/server. */
const ROOT_FOLDER = '(composition root)';

const isSource = (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function listSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return isSource(entry.name) ? [full] : [];
  });
}

/** The top folder under src/server of a file or folder path, or the composition root for a file at its top. */
function folderOf(target) {
  const parts = path.relative(serverDir, target).split(path.sep);
  if (parts.length > 1) return parts[0];
  const isFolder = existsSync(target) && statSync(target).isDirectory();
  return isFolder ? parts[0] : ROOT_FOLDER;
}

/** Every import of another src/server folder: `{from, to, file, line, specifier}`. */
function crossFolderImports(file) {
  const text = readFileSync(file, 'utf8');
  const from = folderOf(file);
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
    .flatMap(({ fileName, pos }) => {
      const target = path.resolve(path.dirname(file), fileName);
      if (path.relative(serverDir, target).startsWith('..')) return [];
      const to = folderOf(target);
      if (to === from) return [];
      const line = text.slice(0, pos).split('\n').length;
      return [{ from, to, file: path.relative(root, file), line, specifier: fileName }];
    });
}

/** The strongly connected components of more than one folder (Tarjan). */
function cyclicComponents(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (folder) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder));
    stack.push(folder);
    onStack.add(folder);
    for (const next of graph.get(folder) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(folder, Math.min(low.get(folder), index.get(next)));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) components.push(component.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return components;
}

/** A shortest cycle through `start` inside `component`, as a list of folders ending where it starts. */
function cycleThrough(start, component, graph) {
  const inside = new Set(component);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    for (const next of [...(graph.get(folder) ?? [])].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at = folder; at !== start; at = previous.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(next)) {
        previous.set(next, folder);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** The folders in an order where each comes after every folder it imports (the graph has no cycle). */
function layered(graph) {
  const placed = [];
  const seen = new Set();
  const place = (folder) => {
    if (seen.has(folder)) return;
    seen.add(folder);
    for (const next of [...(graph.get(folder) ?? [])].sort()) place(next);
    placed.push(folder);
  };
  for (const folder of [...graph.keys()].sort()) place(folder);
  return placed;
}

const files = existsSync(serverDir) ? listSources(serverDir) : [];
const imports = files.flatMap(crossFolderImports);
const problems = [];

for (const found of imports) {
  if (found.to === ROOT_FOLDER && found.from !== ROOT_FOLDER) {
    problems.push(
      `${found.file}:${found.line}: imports the composition root ('${found.specifier}'): ` +
        'app.ts, services.ts and main.ts wire the folders, no folder imports them',
    );
  }
}

// The composition root imports every folder and nothing imports it: it closes no cycle, so it stays out.
const graph = new Map();
for (const { from, to } of imports) {
  if (from === ROOT_FOLDER || to === ROOT_FOLDER) continue;
  if (!graph.has(from)) graph.set(from, new Set());
  if (!graph.has(to)) graph.set(to, new Set());
  graph.get(from).add(to);
}

for (const component of cyclicComponents(graph)) {
  const cycle = cycleThrough(component[0], component, graph);
  const sites = cycle
    .slice(0, -1)
    .flatMap((from, at) =>
      imports
        .filter((found) => found.from === from && found.to === cycle[at + 1])
        .map((found) => `  ${found.file}:${found.line}: ${from} → ${found.to} ('${found.specifier}')`),
    );
  problems.push(
    [
      `src/server: the folders ${component.join(', ')} import each other in a loop: ${cycle.join(' → ')}`,
      ...sites,
    ].join('\n'),
  );
}

for (const problem of problems) console.log(problem);
if (problems.length > 0) {
  console.error(
    `check-server-folders: ${problems.length} problem(s) in ${files.length} files under ${serverDir}`,
  );
  process.exit(1);
}
console.error(
  `check-server-folders: ${files.length} files, no loop; from the bottom: ${layered(graph).join(', ')}`,
);
