import type { Appearance, Theme } from '../common/appearance';
import type { Transport } from './transport';

/**
 * The signed-in member's theme (docs/api.md "Account"). Not part of `createDojoCoreClient`: only the
 * settings screen and the sign-in sync use it, each in a lazy chunk, so it stays out of the first page's
 * bundle; build it on a client's transport, `new AppearanceClient(dojo.transport)`.
 */
export class AppearanceClient {
  constructor(private readonly transport: Transport) {}

  /** The account's theme; the answer also mirrors it into the `dojo_theme` cookie. */
  async get(): Promise<Appearance> {
    return (await this.transport.request<{ appearance: Appearance }>('GET', '/api/account/appearance'))
      .appearance;
  }

  /** Pins 'light' or 'dark', or follows the device with 'system'. */
  async set(theme: Theme): Promise<Appearance> {
    return (
      await this.transport.request<{ appearance: Appearance }>('PUT', '/api/account/appearance', { theme })
    ).appearance;
  }
}
