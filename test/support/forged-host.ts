import http from 'node:http';

export interface ForgedHostAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request with headers fetch will not send as given (`Host` above all), as an attacker's own client
 * would: `headers` may name any `Host`, `X-Forwarded-Host` or `X-Forwarded-Proto`.
 */
export function requestWithForgedHost(
  url: string,
  options: { method?: string; headers: Record<string, string>; body?: string },
): Promise<ForgedHostAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
