import { describe, it, expect } from 'vitest';
import { parseObjectUrl, parseRange } from './request-parsers';

describe('parseObjectUrl', () => {
  it('decodes the name exactly once', () => {
    expect(parseObjectUrl('/v0/b/dojo/o/a%252Fb')).toEqual({ bucket: 'dojo', name: 'a%2Fb' });
  });

  it('decodes %2F and %20 and ignores the query string', () => {
    expect(parseObjectUrl('/v0/b/dojo/o/dir%2Fhello%20world.txt?alt=media')).toEqual({
      bucket: 'dojo',
      name: 'dir/hello world.txt',
    });
  });

  it('decodes multi-byte UTF-8 names', () => {
    expect(
      parseObjectUrl(`/v0/b/dojo/o/${encodeURIComponent('files/u/東京 ü.png')}?alt=media&token=t`),
    ).toEqual({ bucket: 'dojo', name: 'files/u/東京 ü.png' });
  });

  it('decodes the bucket too', () => {
    expect(parseObjectUrl('/v0/b/my%2Ebucket/o/x')).toEqual({ bucket: 'my.bucket', name: 'x' });
  });

  it('has no name for the bucket listing, with or without a trailing slash', () => {
    expect(parseObjectUrl('/v0/b/dojo/o')).toEqual({ bucket: 'dojo', name: undefined });
    expect(parseObjectUrl('/v0/b/dojo/o/')).toEqual({ bucket: 'dojo', name: undefined });
    expect(parseObjectUrl('/v0/b/dojo/o?prefix=files%2F')).toEqual({ bucket: 'dojo', name: undefined });
  });

  it('returns null for a malformed percent escape', () => {
    expect(parseObjectUrl('/v0/b/dojo/o/%E0%A4%A')).toBe(null);
    expect(parseObjectUrl('/v0/b/dojo/o/%')).toBe(null);
    expect(parseObjectUrl('/v0/b/dojo/o/%ZZ')).toBe(null);
  });

  it('returns null for paths not under /v0/b', () => {
    expect(parseObjectUrl('/v1/b/dojo/o/x')).toBe(null);
    expect(parseObjectUrl('/api/v0/b/dojo/o/x')).toBe(null);
    expect(parseObjectUrl('/')).toBe(null);
    expect(parseObjectUrl('')).toBe(null);
  });

  it('returns null when the object part is missing or the name has a raw slash', () => {
    expect(parseObjectUrl('/v0/b/dojo')).toBe(null);
    expect(parseObjectUrl('/v0/b/dojo/x/name')).toBe(null);
    expect(parseObjectUrl('/v0/b/dojo/o/dir/file.txt')).toBe(null);
    expect(parseObjectUrl('/v0/b//o/x')).toBe(null);
  });
});

describe('parseRange', () => {
  // Each case: its name, then every [header, size, expected answer] it checks.
  const cases: [string, [string | undefined, number, ReturnType<typeof parseRange>][]][] = [
    [
      'returns null when there is no Range header',
      [
        [undefined, 100, null],
        ['', 100, null],
      ],
    ],
    [
      'parses a closed range',
      [
        ['bytes=0-9', 100, { start: 0, end: 9 }],
        ['bytes=10-10', 100, { start: 10, end: 10 }],
      ],
    ],
    ['parses an open-ended range to the last byte', [['bytes=90-', 100, { start: 90, end: 99 }]]],
    ['parses a suffix range as the last N bytes', [['bytes=-10', 100, { start: 90, end: 99 }]]],
    [
      'clamps a suffix longer than the object to the whole object',
      [['bytes=-500', 100, { start: 0, end: 99 }]],
    ],
    [
      'clamps the end to size - 1',
      [
        ['bytes=50-1000', 100, { start: 50, end: 99 }],
        ['bytes=0-100', 100, { start: 0, end: 99 }],
      ],
    ],
    ['tolerates surrounding whitespace', [['  bytes=0-9 ', 100, { start: 0, end: 9 }]]],
    [
      'is invalid when the start is at or beyond the size',
      [
        ['bytes=100-', 100, 'invalid'],
        ['bytes=150-200', 100, 'invalid'],
      ],
    ],
    ['is invalid when start > end', [['bytes=9-5', 100, 'invalid']]],
    [
      'is invalid for a zero-length suffix and for any range of an empty object',
      [
        ['bytes=-0', 100, 'invalid'],
        ['bytes=0-', 0, 'invalid'],
        ['bytes=-5', 0, 'invalid'],
      ],
    ],
  ];
  it.each(cases)('%s', (_name, checks) => {
    for (const [header, size, expected] of checks) expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([
    'bytes=-',
    'bytes=abc',
    'bytes=1-2-3',
    'items=0-9',
    'bytes 0-9',
    'bytes=0-9,20-29',
    'bytes=-1-5',
    '0-9',
  ])('is invalid for malformed %j', (header) => {
    expect(parseRange(header, 100)).toBe('invalid');
  });
});
