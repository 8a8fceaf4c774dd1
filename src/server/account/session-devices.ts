import { createHash } from 'node:crypto';
import Bowser from 'bowser';

/**
 * A session's id on the settings screen: derived from its hash, so the hash (which id tokens name) is
 * never shown, and nothing new is stored.
 */
export const publicSessionId = (tokenHash: string): string =>
  createHash('sha256').update(`session-id:${tokenHash}`).digest('base64url').slice(0, 22);

/** 'Chrome 131 on Linux' from a User-Agent; what a person recognizes as their device. */
export function describeDevice(userAgent: string): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = parsed.os.name ?? '';
  if (!browser && !os) return userAgent.slice(0, 60);
  return os ? `${browser || 'Unknown browser'} on ${os}` : browser;
}
