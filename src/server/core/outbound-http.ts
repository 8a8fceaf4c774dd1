import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a request the server makes on someone else's word (a provider's picture URL, later a webhook
 * endpoint) must not reach unless the operator allows it: loopback, private, link-local (cloud metadata
 * lives there), carrier-grade NAT, benchmarking, multicast and reserved ranges. Otherwise such a URL is a
 * way into the operator's own network (request forgery).
 */
const PRIVATE_NETWORKS = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  for (const [network, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  return list;
})();

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** True for an address in a private, loopback, link-local or reserved range (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = IPV4_MAPPED.exec(address)?.[1];
  if (mapped) return PRIVATE_NETWORKS.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE_NETWORKS.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class OutboundAddressRefused extends Error {
  constructor(readonly address: string) {
    super(`refused to connect to ${address}: a private or reserved address`);
  }
}

/**
 * A DNS lookup that fails for private addresses. It is the socket's own lookup, so the address checked is
 * the address connected to: a name that resolves to a public address when checked and a private one when
 * used (DNS rebinding) cannot slip through.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused) return callback(new OutboundAddressRefused(refused.address), '', 0);
      if (options.all) return callback(null, addresses as unknown as string, 0);
      const first = addresses[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connection to last byte. */
  timeoutMs: number;
  /** A longer answer is cut off and reported as `tooLarge`. */
  maxBytes: number;
  /** The operator's setting (OUTBOUND_ALLOW_PRIVATE): whether private and loopback addresses may be reached. */
  allowPrivate: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The answer was longer than `maxBytes`; `body` holds what arrived up to the limit. */
  tooLarge: boolean;
}

/**
 * One HTTP(S) request to a URL someone else chose: never to a private address unless allowed, redirects
 * never followed (a 3xx is an answer like any other, so a public URL cannot bounce the request inward),
 * bounded in time and size. Rejects on a refused address, a network error or the time limit.
 */
export function outboundRequest(url: URL, options: OutboundRequest): Promise<OutboundResponse> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  }
  // A literal address never goes through the lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal) !== 0 && isPrivateAddress(literal)) {
    return Promise.reject(new OutboundAddressRefused(literal));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        lookup: guardedLookup(options.allowPrivate),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let tooLarge = false;
        response.on('data', (chunk: Buffer) => {
          if (tooLarge) return;
          size += chunk.length;
          if (size > options.maxBytes) {
            tooLarge = true;
            chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
            response.destroy();
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
              tooLarge,
            });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            tooLarge,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
