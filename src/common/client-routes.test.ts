import { describe, expect, it } from 'vitest';
import { editProjectPath, isClientRoute, projectPath } from './client-routes';

describe('client routes', () => {
  it.each([
    '/',
    '/create',
    '/login',
    '/signup',
    '/projects/abc',
    projectPath('a b/c'),
    '/projects/abc/edit',
    editProjectPath('a b/c'),
    '/completed',
  ])('%s is a screen of the app', (pathname) => expect(isClientRoute(pathname)).toBe(true));

  it.each([
    '/index.html',
    '/create/',
    '/projects',
    '/projects/',
    '/projects/a/b',
    '/projects/a/edit/',
    '/completed/x',
    '/nope',
    '/loginx',
  ])('%s is not', (pathname) => expect(isClientRoute(pathname)).toBe(false));

  it('puts the project id in one path segment', () => {
    expect(projectPath('a b/c')).toBe('/projects/a%20b%2Fc');
    expect(editProjectPath('a b/c')).toBe('/projects/a%20b%2Fc/edit');
  });
});
