import { describe, expect, it } from 'vitest';
import { listPage, parseListQuery, successorOf, type ListRequest } from './object-listing';

const NAMES = ['a/1', 'a/2', 'a/3', 'b', 'c/x/1', 'c/y', 'd', 'e/1'].sort();

/** An in-memory name source with the repository's contract (byte order, bound, limit). */
const source = async (from: { name: string; exclusive: boolean }, limit: number) =>
  NAMES.filter((name) => (from.exclusive ? name > from.name : name >= from.name)).slice(0, limit);

const request = (overrides: Partial<ListRequest>): ListRequest => ({
  prefix: '',
  delimiter: '/',
  maxResults: 1000,
  pageToken: undefined,
  ...overrides,
});

describe('listPage', () => {
  it('folds under the delimiter', async () => {
    expect(await listPage(request({}), source)).toEqual({
      prefixes: ['a/', 'c/', 'e/'],
      items: ['b', 'd'],
    });
  });

  it.each([1, 2, 3, 4])(
    'pages with maxResults %i without duplicates or a token on the last page',
    async (max) => {
      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await listPage(request({ maxResults: max, pageToken }), source);
        expect(page.prefixes.length + page.items.length).toBeLessThanOrEqual(max);
        seen.push(...page.prefixes, ...page.items);
        pageToken = page.nextPageToken;
        pages += 1;
      } while (pageToken);
      expect(seen.sort()).toEqual(['a/', 'b', 'c/', 'd', 'e/']);
      expect(pages).toBe(Math.ceil(5 / max));
    },
  );
});

describe('parseListQuery', () => {
  it('defaults maxResults to 1000 and refuses values outside 1..1000', () => {
    expect(parseListQuery(new Map()).maxResults).toBe(1000);
    for (const bad of ['0', '1001', 'x', '-1', '']) {
      expect(() => parseListQuery(new Map([['maxResults', bad]]))).toThrow(/maxResults/);
    }
  });
});

describe('successorOf', () => {
  it('is the next string above every extension of the prefix', () => {
    expect(successorOf('a/')).toBe('a0');
    expect(successorOf('\u{10FFFF}')).toBe(null);
    expect(successorOf('a\u{D7FF}')).toBe('a\u{E000}');
  });
});
