import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Agent, Dispatcher } from 'undici';
import { parseHostAddress } from './address-policy';
import { FetchError } from './fetch-error';
import { BlockedAddressError, checkAddress, createGuardedDispatcher } from './guarded-dispatcher';

export { FetchError, type FetchErrorCode } from './fetch-error';

export const GUARDED_HTTP_CLIENT_OPTIONS = Symbol('GUARDED_HTTP_CLIENT_OPTIONS');

export interface GuardedHttpClientOptions {
  /** ALLOW_PRIVATE_HOSTS: hostnames, IPs or CIDRs that may be reached although private. */
  allowPrivateHosts: readonly string[];
  /** DNS resolution (dns.lookup by default); tests inject one. */
  lookup?: LookupFunction;
}

export interface DownloadOptions {
  maxBytes: number;
  /** Bounds everything: every redirect hop, connecting, and streaming the body. */
  timeoutMs: number;
}

export interface DownloadResult {
  size: number;
  contentType?: string;
  finalUrl: string;
}

export interface PostOptions {
  timeoutMs: number;
}

export interface PostResult {
  status: number;
  headers: Record<string, string>;
}

export const MAX_REDIRECTS = 5;
/** How much of a response we read and throw away (webhook answers, redirect and error bodies). */
export const DISCARD_LIMIT_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Dropline/1.0';

/** Wraps a failure to write destPath: ours, not the URL's, so it is rethrown as it is. */
class LocalFileError extends Error {
  constructor(override readonly cause: unknown) {
    super('writing the downloaded file failed');
  }
}

/** An AbortSignal that fires after the time budget, and remembers whether it did. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  expired = false;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`deadline of ${ms} ms passed`));
    }, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * HTTP client for user-given URLs (job inputs, webhooks), guarded against SSRF: every connection,
 * including each redirect hop, goes only to an address the policy allows (see guarded-dispatcher.ts).
 */
@Injectable()
export class GuardedHttpClient implements OnModuleDestroy {
  private readonly allowPrivateHosts: readonly string[];
  private readonly dispatcher: Agent;

  constructor(@Inject(GUARDED_HTTP_CLIENT_OPTIONS) options: GuardedHttpClientOptions) {
    this.allowPrivateHosts = [...options.allowPrivateHosts];
    this.dispatcher = createGuardedDispatcher({ allowPrivateHosts: this.allowPrivateHosts, lookup: options.lookup });
  }

  /**
   * Streams the body of a GET to destPath. Follows at most MAX_REDIRECTS redirects, checking each
   * one. Refuses a body over maxBytes (declared or streamed); on any failure no file is left.
   * Throws FetchError for everything about the URL; an error writing destPath itself (missing
   * folder, full disk) is rethrown unchanged, since it is not the input's fault.
   */
  async download(url: string, destPath: string, options: DownloadOptions): Promise<DownloadResult> {
    let current = this.checkUrl(url);
    const deadline = new Deadline(options.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.dispatcher.request({
          origin: current.origin,
          path: current.pathname + current.search,
          method: 'GET',
          headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity' },
          signal: deadline.signal,
        });
        const { statusCode } = response;
        const location = header(response.headers, 'location');
        if (REDIRECT_STATUSES.has(statusCode) && location !== undefined) {
          await discard(response.body);
          if (redirects >= MAX_REDIRECTS) {
            throw new FetchError('input_fetch_failed', `Fetching the input from ${current.hostname} failed: more than ${MAX_REDIRECTS} redirects.`);
          }
          current = this.checkUrl(resolveLocation(location, current), true);
          continue;
        }
        if (statusCode < 200 || statusCode > 299) {
          await discard(response.body);
          throw new FetchError('input_fetch_failed', `Fetching the input from ${current.hostname} failed: the server answered HTTP ${statusCode}.`);
        }
        const declared = Number(header(response.headers, 'content-length'));
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.body.destroy();
          throw tooLarge(current, options.maxBytes);
        }
        const size = await this.saveBody(response.body, destPath, options.maxBytes, current);
        return { size, contentType: header(response.headers, 'content-type'), finalUrl: current.href };
      }
    } catch (err) {
      if (err instanceof LocalFileError) throw err.cause;
      throw toFetchError(err, deadline, current);
    } finally {
      deadline.clear();
    }
  }

  /**
   * POSTs body as is. Never follows a redirect: a 3xx is returned like any other status. Reads at
   * most DISCARD_LIMIT_BYTES of the response and drops them; once the status line has arrived, a
   * response body that breaks or runs out of time does not change the result.
   */
  async post(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
    const target = this.checkUrl(url);
    const deadline = new Deadline(options.timeoutMs);
    try {
      const response = await this.dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: 'POST',
        headers: { 'user-agent': USER_AGENT, ...headers },
        body,
        signal: deadline.signal,
      });
      await discard(response.body);
      return { status: response.statusCode, headers: flattenHeaders(response.headers) };
    } catch (err) {
      throw toFetchError(err, deadline, target);
    } finally {
      deadline.clear();
    }
  }

  /** Closes pooled connections; requests in flight are allowed to finish. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  /**
   * Scheme and address checks that need no DNS: malformed URLs, other schemes and IP-literal hosts
   * that are forbidden fail here with a clear error. Names are checked where it counts, at connect.
   */
  private checkUrl(raw: string, isRedirect = false): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      const message = isRedirect ? 'The input URL redirected to an invalid URL.' : 'The URL is not valid.';
      throw new FetchError('invalid_url', message);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchError(
        'invalid_url',
        isRedirect ? `The input URL redirected to a ${url.protocol.replace(/:$/, '')} URL; only http and https are fetched.` : 'Only http and https URLs can be fetched.',
      );
    }
    const literal = parseHostAddress(url.hostname);
    if (literal !== null) {
      const blocked = checkAddress(url.hostname, literal, this.allowPrivateHosts);
      if (blocked) throw blockedError(url.hostname, blocked);
    }
    return url;
  }

  private async saveBody(body: Dispatcher.ResponseData['body'], destPath: string, maxBytes: number, url: URL): Promise<number> {
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) done(tooLarge(url, maxBytes));
        else done(null, chunk);
      },
    });
    // 1 MiB of buffer (16 KiB by default): the body's 64 KiB reads queue up while one write is in
    // flight and go out together in one writev, not one thread-pool round trip each.
    const file = createWriteStream(destPath, { highWaterMark: 1024 * 1024 });
    // A local write error is the file's own error, not one the pipeline passed down from the body:
    // Node 26's pipeline destroys the file with the body's error (a timeout's abort, say) too.
    let upstreamFailed = false;
    const upstream = () => (upstreamFailed = true);
    body.once('error', upstream);
    limit.once('error', upstream);
    let fileError: unknown;
    file.once('error', (err) => {
      if (!upstreamFailed) fileError = err;
    });
    try {
      await pipeline(body, limit, file);
      return size;
    } catch (caught) {
      const err = caught === fileError ? new LocalFileError(caught) : caught;
      // The file may still be opening when the pipeline fails: remove it only once it is closed.
      // (Not events.once: it rejects on the 'error' the failed pipeline emits.)
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await rm(destPath, { force: true });
      throw err;
    }
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location; // checkUrl reports it as invalid
  }
}

/** Reads and drops what is left of a body, up to DISCARD_LIMIT_BYTES (then the connection is closed). */
async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  try {
    await body.dump({ limit: DISCARD_LIMIT_BYTES });
  } catch {
    // nothing we need is in there
  }
}

function tooLarge(url: URL, maxBytes: number): FetchError {
  return new FetchError('input_too_large', `The input at ${url.hostname} is larger than the limit of ${maxBytes} bytes.`);
}

function blockedError(host: string, cause: BlockedAddressError): FetchError {
  return new FetchError('blocked_address', `Refusing to connect to ${host}: it is not a public address. Only public internet hosts can be fetched.`, { cause });
}

function findInChain<T>(err: unknown, test: (e: unknown) => e is T): T | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return e;
  }
  return undefined;
}

const NETWORK_MESSAGES: Record<string, string> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection was closed unexpectedly',
  HPE_INVALID_CONSTANT: 'the server did not answer with valid HTTP',
};
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function toFetchError(err: unknown, deadline: Deadline, url: URL): FetchError {
  const host = url.hostname;
  if (err instanceof FetchError) return err;
  const blocked = findInChain(err, (e): e is BlockedAddressError => e instanceof BlockedAddressError);
  if (blocked) return blockedError(host, blocked);
  const hasCode = (e: unknown): e is { code: string } => typeof (e as { code?: unknown })?.code === 'string';
  const code = findInChain(err, hasCode)?.code;
  if (deadline.expired || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new FetchError('timeout', `Fetching from ${host} took longer than ${deadline.ms} ms.`, { cause: err });
  }
  const reason = (code !== undefined && NETWORK_MESSAGES[code]) || 'the request failed';
  return new FetchError('input_fetch_failed', `Fetching from ${host} failed: ${reason}.`, { cause: err });
}
