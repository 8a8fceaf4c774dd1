import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, outboundRequest, OutboundAddressRefused } from './outbound-http';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.215.14'])(
    'lets %s through',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('outboundRequest', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/body' }).end();
      } else if (request.url === '/large') {
        response.end(Buffer.alloc(10_000, 1));
      } else {
        response.end('hello');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const options = { timeoutMs: 10_000, maxBytes: 1_000, allowPrivate: true };

  it('refuses a loopback address unless the operator allows private ones', async () => {
    const refused = outboundRequest(new URL(`${base}/body`), { ...options, allowPrivate: false });
    await expect(refused).rejects.toBeInstanceOf(OutboundAddressRefused);
    const allowed = await outboundRequest(new URL(`${base}/body`), options);
    expect(allowed.body.toString()).toBe('hello');
  });

  it('refuses a name that resolves to a private address, checked at connection', async () => {
    const url = new URL(base.replace('127.0.0.1', 'localhost') + '/body');
    await expect(outboundRequest(url, { ...options, allowPrivate: false })).rejects.toBeInstanceOf(
      OutboundAddressRefused,
    );
  });

  it('answers a redirect as it is, without following it', async () => {
    const answer = await outboundRequest(new URL(`${base}/redirect`), options);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/body');
  });

  it('stops reading at the byte limit and says so', async () => {
    const answer = await outboundRequest(new URL(`${base}/large`), options);
    expect(answer.tooLarge).toBe(true);
    expect(answer.body.length).toBe(1_000);
  });

  it('refuses other protocols', async () => {
    await expect(outboundRequest(new URL('file:///etc/passwd'), options)).rejects.toThrow(/protocol/);
  });
});
