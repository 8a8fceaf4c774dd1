/**
 * The server injects `<meta name="csp-nonce" content="...">` into index.html at request time, because its
 * Content-Security-Policy only allows `<style>` elements that carry that nonce. Libraries that insert
 * styles at run time (react-select through emotion) must be given it, e.g.
 * `createCache({ key: 'dojo', nonce: getCspNonce() })`.
 *
 * The nonce travels in `content` rather than a `nonce` attribute because browsers hide the value of
 * `nonce` attributes from scripts.
 */
let cached: string | undefined | null = null;

export function getCspNonce(): string | undefined {
  if (cached !== null) return cached;
  const content = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content.trim();
  cached = content ? content : undefined;
  return cached;
}
