import { DojoError, errorFromResponse, networkError } from './errors';

export interface TransportOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:3000`; empty in the browser (same origin). */
  baseUrl: string;
}

/**
 * HTTP for the SDK. Browsers carry the session cookie themselves; in Node (tests, benchmarks, scripts)
 * there is no cookie store, so the transport keeps the session cookie it is given, like a browser would.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly keepsCookies = typeof document === 'undefined';
  private cookies = new Map<string, string>();
  /** Called when the server answers 401 unauthenticated: the session is gone. */
  onUnauthenticated: (() => void) | undefined;

  constructor({ baseUrl }: TransportOptions) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
  }

  /** The `Cookie` header a non-browser client must send (also used for its WebSocket). */
  cookieHeader(): string | undefined {
    if (!this.keepsCookies || this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /**
   * POSTs a form and reports upload progress. Browsers' fetch cannot observe request bytes, so this
   * uses XMLHttpRequest where it exists; elsewhere it falls back to `request` and reports only the end.
   */
  async upload<T>(
    path: string,
    form: FormData,
    onProgress: (sent: number, total: number) => void,
  ): Promise<T> {
    if (typeof XMLHttpRequest === 'undefined') {
      const result = await this.request<T>('POST', path, form);
      onProgress(1, 1);
      return result;
    }
    const xhr = new XMLHttpRequest();
    const done = new Promise<void>((resolve, reject) => {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      xhr.onload = () => resolve();
      xhr.onerror = () => reject(networkError());
      xhr.onabort = () => reject(networkError());
    });
    xhr.open('POST', `${this.baseUrl}${path}`);
    xhr.withCredentials = false;
    xhr.send(form);
    await done;
    const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
      status: xhr.status,
      headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' },
    });
    if (!response.ok) throw await this.failure(response);
    return (await response.json()) as T;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    let payload: BodyInit | undefined;
    if (body instanceof FormData) {
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;

    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: payload,
        credentials: 'same-origin',
      });
    } catch {
      throw networkError();
    }
    this.rememberCookies(response);
    if (!response.ok) throw await this.failure(response);
    if (response.status === 204) return undefined as T;
    try {
      return (await response.json()) as T;
    } catch {
      throw new DojoError('internal', 'The server sent an unreadable answer.', response.status);
    }
  }

  /** The typed error for a non-2xx answer; a 401 also tells the SDK the session is gone. */
  private async failure(response: Response): Promise<DojoError> {
    const error = await errorFromResponse(response);
    if (error.code === 'unauthenticated') this.onUnauthenticated?.();
    return error;
  }

  private rememberCookies(response: Response): void {
    if (!this.keepsCookies) return;
    for (const line of response.headers.getSetCookie?.() ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
