import type { Response } from '@playwright/test';
import { expect, test } from './support/fixtures';

test("the app's scripts and styles arrive brotli-compressed and cached for good", async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const assets: Response[] = [];
    page.on('response', (response) => {
      if (/\/assets\/[^/]+\.(?:js|css)$/.test(new URL(response.url()).pathname)) assets.push(response);
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'login', exact: true })).toBeVisible();

    const scripts = assets.filter((response) => response.url().endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const response of assets) {
      const headers = await response.allHeaders();
      expect(headers['cache-control'], response.url()).toContain('immutable');
      // Tiny files go out as they are; the entry script and the main stylesheet are far above that.
      if (Number(headers['content-length'] ?? Infinity) > 2048 || headers['content-encoding']) {
        expect(headers['content-encoding'], response.url()).toBe('br');
      }
    }
    const entry = scripts.find((response) => /\/assets\/index-[^/]+\.js$/.test(response.url()));
    expect((await entry?.allHeaders())?.['content-encoding']).toBe('br');
  } finally {
    await context.close();
  }
});
