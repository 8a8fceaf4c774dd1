import { describe, it, expect } from 'vitest';
import { FILE_NAME_MAX_LENGTH } from '../../../common/limits';
import { isValidObjectName, safeFileName } from './object-names';

describe('isValidObjectName', () => {
  it.each([
    ['empty', ''],
    ['an empty middle segment', 'a//b'],
    ['a leading slash', '/a'],
    ['a trailing slash', 'a/'],
    ['a lone ..', '..'],
    ['a lone .', '.'],
    ['a .. segment', 'a/../b'],
    ['a . segment', './a'],
    ['a trailing .. segment', 'files/u/..'],
    ['NUL', 'files/u/a\u0000b'],
    ['a newline', 'files/u/a\nb'],
    ['a carriage return', 'files/u/a\rb'],
    ['a tab', 'files/u/a\tb'],
    ['DEL', 'files/u/a\u007fb'],
  ])('refuses %s', (_label, name) => {
    expect(isValidObjectName(name)).toBe(false);
  });

  it('refuses names longer than 1024 characters and accepts exactly 1024', () => {
    expect(isValidObjectName('a'.repeat(1025))).toBe(false);
    expect(isValidObjectName('a'.repeat(1024))).toBe(true);
  });

  it.each([
    'thumbnails/uid/my photo.png',
    'files/u/100% real.txt',
    'files/u/naïve – 東京.jpg',
    'files/u/.hidden',
    'files/u/...',
    'files/u/a..b',
    'single',
  ])('accepts %j', (name) => {
    expect(isValidObjectName(name)).toBe(true);
  });
});

describe('safeFileName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(safeFileName('my photo.png', 'fb')).toBe('my photo.png');
  });

  it('strips forward-slash directories', () => {
    expect(safeFileName('a/b/c.png', 'fb')).toBe('c.png');
  });

  it('strips backslash directories and traversal', () => {
    expect(safeFileName('..\\evil.png', 'fb')).toBe('evil.png');
    expect(safeFileName('C:\\Users\\me\\Pictures\\cat.jpg', 'fb')).toBe('cat.jpg');
    expect(safeFileName('../../etc/passwd', 'fb')).toBe('passwd');
  });

  it('removes control characters', () => {
    expect(safeFileName('a\u0000b\nc\u001fd\u007fe.png', 'fb')).toBe('abcde.png');
  });

  it('trims surrounding whitespace', () => {
    expect(safeFileName('  cat.png  ', 'fb')).toBe('cat.png');
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['.', '.'],
    ['..', '..'],
    ['a directory only', 'photos/'],
    ['only control characters', '\u0000\u0001\n'],
    ['only spaces', '   '],
    ['.. behind a directory', 'a/..'],
  ])('falls back for %s', (_label, name) => {
    expect(safeFileName(name, 'thumbnail')).toBe('thumbnail');
  });

  it('caps the length at FILE_NAME_MAX_LENGTH', () => {
    const long = 'x'.repeat(FILE_NAME_MAX_LENGTH + 50) + '.png';
    const result = safeFileName(long, 'fb');
    expect(result).toHaveLength(FILE_NAME_MAX_LENGTH);
    expect(result).toBe('x'.repeat(FILE_NAME_MAX_LENGTH));
  });

  it('keeps a name of exactly FILE_NAME_MAX_LENGTH', () => {
    const exact = 'y'.repeat(FILE_NAME_MAX_LENGTH - 4) + '.png';
    expect(safeFileName(exact, 'fb')).toBe(exact);
  });

  it('always yields a valid last segment for an object name', () => {
    for (const name of ['a/b/c.png', '..\\evil.png', '..', 'x\u0000y', '', 'ok.png']) {
      expect(isValidObjectName(`thumbnails/uid/${safeFileName(name, 'thumbnail')}`), name).toBe(true);
    }
  });
});
