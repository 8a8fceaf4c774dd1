#!/usr/bin/env node
/**
 * Fails on documentation references that do not resolve, so the repository keeps explaining itself
 * (docs/architecture.md#tests). It reads the tracked files (`git ls-files`; a plain directory walk when
 * the root is not a git work tree) of kinds .md .ts .tsx .js .mjs .css and checks:
 *
 * - relative Markdown links `[text](path#anchor)`: the path, relative to the citing file, exists, and the
 *   anchor is a heading of the target (GitHub's slug) or an explicit `<a id>`/`<a name>`;
 * - bare references `docs/….md` or `docs/….md#anchor` (comments, strings, prose): the same, relative to
 *   the repository root;
 * - bare paths of source files (`src/…`, `test/…`, `e2e/…`, `bench/…`, `scripts/…` ending in a file kind),
 *   as comments, configs (`eslint.config.js`, `knip.config.ts`) and scripts cite them: the file exists;
 * - no mention of design notes that live outside the repository;
 * - every section sign names its document: `docs/storage-protocol.md §4.8`, `RFC 9110 §5.6.2`, a list after
 *   one name (`docs/product-spec.md §5 and §8`), or in Markdown a link (`[§4.7](#47-multipart-upload)`),
 *   never a bare `§4.8` that leaves the reader to guess which document it means.
 *
 * Usage: node scripts/check-doc-links.mjs [--root DIR]
 * Prints `file:line: message` for each problem and exits 1 if there is any.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const KINDS = new Set(['.md', '.ts', '.tsx', '.js', '.mjs', '.css']);
const WALK_SKIP = new Set([
  'node_modules',
  'dist',
  '.git',
  'data',
  'test-results',
  'playwright-report',
  '.tmp',
]);

/**
 * Names of notes kept outside the repository: a reference to them is a dead end for every reader. The
 * names are spelled in parts so this list is not itself a reference to them.
 */
const outsideNote = (...parts) => parts.join('-');
const BANNED = [
  {
    pattern: new RegExp(`${outsideNote('STORAGE', 'PROTOCOL')}\\.md`),
    text: `${outsideNote('STORAGE', 'PROTOCOL')}.md`,
    use: 'docs/storage-protocol.md',
  },
  {
    pattern: new RegExp(outsideNote('ORIGINAL', 'FLAWS')),
    text: outsideNote('ORIGINAL', 'FLAWS'),
    use: 'a #flaw-N anchor in docs/product-spec.md',
  },
  { pattern: /ARCHITECTURE\.md/, text: 'ARCHITECTURE.md', use: 'docs/architecture.md' },
  { pattern: /STYLE\.md/, text: 'STYLE.md', use: 'docs/architecture.md' },
  // The server's own `shared` folder is fine; only the sibling checkout's design/ and seed/ notes are not.
  {
    pattern: /(?:\.\.\/)+shared\/(?:design|seed)\b|\/work\/shared\b/,
    text: '../shared',
    use: 'a document under docs/',
  },
  { pattern: /\bspec §/i, text: 'spec §', use: 'docs/product-spec.md#<section>' },
];

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const selfPath = fileURLToPath(import.meta.url);
const SELF = 'scripts/check-doc-links.mjs';
const root = path.resolve(values.root ?? path.join(path.dirname(selfPath), '..'));

/** Repository-relative paths with forward slashes. */
function listFiles() {
  let tracked;
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (path.resolve(top) === root) {
      tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
        .split('\0')
        .filter(Boolean);
    }
  } catch {
    // not a git work tree: walk the directory instead
  }
  if (!tracked) {
    tracked = [];
    const walk = (dir) => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        if (WALK_SKIP.has(entry.name)) continue;
        const relative = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(relative);
        else if (entry.isFile()) tracked.push(relative);
      }
    };
    walk('');
  }
  return tracked.filter((file) => KINDS.has(path.extname(file)) && existsSync(path.join(root, file))).sort();
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to dashes (duplicates get -1, -2 …). */
function slugOf(heading) {
  const text = heading
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map();
/** Every anchor a Markdown file offers: heading slugs and explicit ids. */
function anchorsOf(absolute) {
  let anchors = anchorCache.get(absolute);
  if (anchors) return anchors;
  anchors = new Set();
  const counts = new Map();
  let fence = null;
  for (const line of readFileSync(absolute, 'utf8').split('\n')) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slugOf(heading[1]);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const match of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  anchorCache.set(absolute, anchors);
  return anchors;
}

/** A problem with `target` (a path relative to `baseDir`, with an optional #anchor), or null. */
function problemOf(baseDir, target, citingFile) {
  const hash = target.indexOf('#');
  const rawPath = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? '' : decodeURIComponent(target.slice(hash + 1));
  let filePath;
  try {
    filePath = decodeURIComponent(rawPath);
  } catch {
    return `malformed link target '${target}'`;
  }
  const absolute = filePath === '' ? path.join(root, citingFile) : path.resolve(baseDir, filePath);
  const shown = path.relative(root, absolute).split(path.sep).join('/') || '.';
  if (!absolute.startsWith(root + path.sep) && absolute !== root) {
    return `'${target}' points outside the repository`;
  }
  if (!existsSync(absolute)) return `'${target}': no such file (${shown})`;
  if (!anchor) return null;
  if (statSync(absolute).isDirectory() || path.extname(absolute) !== '.md') {
    return `'${target}': an anchor needs a Markdown file`;
  }
  if (!anchorsOf(absolute).has(anchor)) return `'${target}': no heading with anchor #${anchor} in ${shown}`;
  return null;
}

const LINK =
  /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+"[^"]*")?\s*\)/g;
/** In code, only targets that are unmistakably documents count as links (`handlers[kind](event)` does not). */
const CODE_LINK_TARGET = /^(?:\.{1,2}\/)+[^\s]*\.md(?:#[\w-]+)?$|^[\w.-]+\.md(?:#[\w-]+)?$/;
const BARE_DOCS_REF = /(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\w-]*[\w])?/g;
const BARE_SOURCE_REF = /(?<![\w./-])(?:src|test|e2e|bench|scripts)\/[\w./-]*\.(?:tsx?|m?js|css|md)\b/g;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** What may stand before a `§`: a document's name, then perhaps earlier sections of the same list. */
const SECTION_OWNER = /(?:\.md(?:#[\w-]+)?|\bRFC \d+)\s+(?:§[^\s,;)]+(?:,\s*|\s+(?:and|or)\s+))*$/;

function checkFile(file, report) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const isMarkdown = file.endsWith('.md');
  // This file names the banned notes in order to find them; so does any copy of it under another root.
  const isSelf = file === SELF;
  const baseDir = path.dirname(path.join(root, file));
  let fence = null;
  text.split('\n').forEach((line, index) => {
    const at = (message) => report(`${file}:${index + 1}: ${message}`);
    if (!isSelf) {
      for (const banned of BANNED) {
        if (banned.pattern.test(line)) {
          at(`cites '${banned.text}', which is not in the repository; use ${banned.use}`);
        }
      }
    }

    let inFence = false;
    if (isMarkdown) {
      const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fenceMatch) {
        if (fence === null) fence = fenceMatch[1][0];
        else if (fenceMatch[1][0] === fence) fence = null;
        inFence = true;
      }
      inFence ||= fence !== null;
    }

    if (!inFence) {
      // Inline code is an example, not a link: `[a](b)` inside backticks is left alone.
      const linkText = isMarkdown ? line.replace(/`[^`]*`/g, '') : line;
      for (const match of linkText.matchAll(LINK)) {
        const target = match[1];
        if (EXTERNAL.test(target) || target.startsWith('/')) continue;
        if (!isMarkdown && !CODE_LINK_TARGET.test(target)) continue;
        const problem = problemOf(baseDir, target, file);
        if (problem) at(`dead link ${problem}`);
      }
    }

    if (!isSelf && !inFence) {
      // In Markdown a link names its target, and inline code is an example.
      const prose = isMarkdown ? line.replace(/`[^`]*`/g, '').replace(LINK, '') : line;
      for (const match of prose.matchAll(/§[^\s,;)]*/g)) {
        if (!SECTION_OWNER.test(prose.slice(0, match.index))) {
          at(`bare '${match[0]}': name its document, as in 'docs/storage-protocol.md §4.8'`);
        }
      }
    }

    for (const match of [...line.matchAll(BARE_DOCS_REF), ...line.matchAll(BARE_SOURCE_REF)]) {
      const problem = problemOf(root, match[0], file);
      if (problem) at(`dead reference ${problem}`);
    }
  });
}

const problems = [];
const files = listFiles();
for (const file of files) checkFile(file, (problem) => problems.push(problem));
for (const problem of problems) console.log(problem);
if (problems.length > 0) {
  console.error(`check-doc-links: ${problems.length} problem(s) in ${files.length} files under ${root}`);
  process.exit(1);
}
console.error(`check-doc-links: ${files.length} files, every reference resolves`);
