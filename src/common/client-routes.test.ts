import { describe, expect, it } from 'vitest';
import { isClientRoute, projectPath } from './client-routes';

describe('client routes', () => {
  it.each(['/', '/create', '/login', '/signup', '/projects/abc', projectPath('a b/c')])(
    '%s is a screen of the app',
    (pathname) => expect(isClientRoute(pathname)).toBe(true),
  );

  it.each(['/index.html', '/create/', '/projects', '/projects/', '/projects/a/b', '/nope', '/loginx'])(
    '%s is not',
    (pathname) => expect(isClientRoute(pathname)).toBe(false),
  );

  it('puts the project id in one path segment', () => {
    expect(projectPath('a b/c')).toBe('/projects/a%20b%2Fc');
  });
});
