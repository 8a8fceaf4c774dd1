/**
 * How every browser run here starts Debian's Chromium (Playwright's own browser download is not available):
 * the e2e suite (playwright.config.ts) and the web benchmark (bench/web.ts).
 */
export const CHROMIUM_EXECUTABLE = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Without these, Chromium keeps trying Google's hosts, which this network refuses.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
