/**
 * End-to-end tests of the guarded client against real sockets — on loopback only.
 * Canary servers on 127.0.0.2 and [::1] stand in for private targets: they are not allow-listed,
 * so every connection they receive is a guard failure. No test here resolves a real name: the
 * injected lookup answers for *.test names and fails everything else.
 */
import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppConfig, loadConfig } from '../config/config';
import { request } from 'undici';
import { HttpFetchModule } from './http-fetch.module';
import { BlockedAddressError, createGuardedDispatcher } from './guarded-dispatcher';
import { DISCARD_LIMIT_BYTES, FetchError, GuardedHttpClient, MAX_REDIRECTS } from './guarded-fetch';

interface TestServer {
  server: http.Server;
  port: number;
  connections: number;
  requests: number;
  base: string;
}

function startServer(host: string, handler: http.RequestListener = (_req, res) => res.end('canary')): Promise<TestServer> {
  return new Promise((resolve, reject) => {
    const server = http.createServer();
    const state: TestServer = { server, port: 0, connections: 0, requests: 0, base: '' };
    server.on('connection', () => state.connections++);
    server.on('request', (req, res) => {
      state.requests++;
      handler(req, res);
    });
    server.once('error', reject);
    server.listen(0, host, () => {
      state.port = (server.address() as AddressInfo).port;
      state.base = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}`;
      resolve(state);
    });
  });
}

function stopServer(s: TestServer): Promise<void> {
  return new Promise((resolve) => {
    s.server.closeAllConnections();
    s.server.close(() => resolve());
  });
}

/** Resolves only the test's own names, all to loopback addresses; everything else is NXDOMAIN. */
let rebindCalls = 0;
const testLookup = ((hostname: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
  const answers: Record<string, LookupAddress[]> = {
    'canary.test': [{ address: '127.0.0.2', family: 4 }],
    'canary6.test': [{ address: '::1', family: 6 }],
    'legit.test': [{ address: '127.0.0.1', family: 4 }],
    'mixed.test': [
      { address: '127.0.0.1', family: 4 },
      { address: '127.0.0.2', family: 4 },
    ],
    localhost: [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ],
  };
  let found = answers[hostname];
  if (hostname === 'rebind.test') found = [{ address: rebindCalls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
  setImmediate(() => {
    if (!found) cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
    else if (options.all) cb(null, found);
    else cb(null, found[0].address, found[0].family);
  });
}) as unknown as LookupFunction;

const FILE = randomBytes(300 * 1024 + 17);
const MB = 1024 * 1024;

let legit: TestServer;
let canary4: TestServer;
let canary6: TestServer;
let client: GuardedHttpClient;
let dir: string;
const seen: { host?: string; postBody?: string; postHeaders?: http.IncomingHttpHeaders; endlessFinished?: boolean } = {};

function legitHandler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const p = url.pathname;
  if (p === '/file') {
    seen.host = req.headers.host;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': FILE.length });
    res.end(FILE);
  } else if (p === '/chunked') {
    // No Content-Length: only counting while streaming can stop it. Bounded at 4 MB.
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < 4 * MB) {
        sent += 64 * 1024;
        if (!res.write(Buffer.alloc(64 * 1024, 1))) return;
      }
      if (!res.destroyed) res.end();
    };
    res.on('drain', pump);
    pump();
  } else if (p === '/declared-big') {
    res.writeHead(200, { 'content-length': 2 * MB });
    res.end(Buffer.alloc(2 * MB));
  } else if (p.startsWith('/hops/')) {
    const n = Number(p.slice('/hops/'.length));
    res.writeHead(302, { location: n > 1 ? `/hops/${n - 1}` : '/file' });
    res.end();
  } else if (p === '/redirect') {
    res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/' });
    res.end();
  } else if (p.startsWith('/status/')) {
    res.writeHead(Number(p.slice('/status/'.length)), { 'content-type': 'text/plain', 'x-test': 'yes' });
    res.end('status body');
  } else if (p === '/moved') {
    res.writeHead(301, { location: '/file' });
    res.end();
  } else if (p === '/hang') {
    // never answers; closed by stopServer
  } else if (p === '/stall-body') {
    res.writeHead(200, { 'content-length': 100_000 });
    res.write(Buffer.alloc(1000));
  } else if (p === '/echo') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.postBody = body;
      seen.postHeaders = req.headers;
      res.writeHead(204);
      res.end();
    });
  } else if (p === '/endless') {
    // A huge answer to a webhook: the client must stop reading after ~64 KB. Bounded at 256 MB.
    seen.endlessFinished = false;
    res.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < 256 * MB) {
        sent += 64 * 1024;
        if (!res.write(Buffer.alloc(64 * 1024, 120))) return;
      }
      if (!res.destroyed) res.end();
    };
    res.on('finish', () => (seen.endlessFinished = true));
    res.on('drain', pump);
    pump();
  } else {
    res.writeHead(404);
    res.end();
  }
}

async function fetchError(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(FetchError);
    return err as FetchError;
  }
  throw new Error('expected a FetchError');
}

const opts = { maxBytes: 10 * MB, timeoutMs: 5000 };
const dest = (name: string) => join(dir, name);

beforeAll(async () => {
  [legit, canary4, canary6] = await Promise.all([startServer('127.0.0.1', legitHandler), startServer('127.0.0.2'), startServer('::1')]);
  client = new GuardedHttpClient({ allowPrivateHosts: ['127.0.0.1'], lookup: testLookup });
  dir = await mkdtemp(join(tmpdir(), 'dropline-fetch-'));
});

afterAll(async () => {
  await client.close();
  await Promise.all([legit, canary4, canary6].filter(Boolean).map(stopServer));
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  // The canaries are never allow-listed: any connection at all means the guard failed.
  expect(canary4.connections).toBe(0);
  expect(canary6.connections).toBe(0);
});

describe('the guard keeps canaries unreached', () => {
  const targets: Record<string, () => string> = {
    'IPv4 literal': () => `${canary4.base}/`,
    'IPv6 literal [::1]': () => `${canary6.base}/`,
    'IPv4-mapped IPv6 literal': () => `http://[::ffff:127.0.0.2]:${canary4.port}/`,
    'decimal spelling 2130706434': () => `http://2130706434:${canary4.port}/`,
    'hex spelling 0x7f000002': () => `http://0x7f000002:${canary4.port}/`,
    'name resolving to 127.0.0.2': () => `http://canary.test:${canary4.port}/`,
    'name resolving to ::1': () => `http://canary6.test:${canary6.port}/`,
    'name resolving to an allowed and a forbidden address': () => `http://mixed.test:${canary4.port}/`,
  };

  it.each(Object.keys(targets))('download refuses a direct URL: %s', async (name) => {
    const url = targets[name]();
    const err = await fetchError(client.download(url, dest('direct'), opts));
    expect(err.code).toBe('blocked_address');
    expect(err.message).toContain(new URL(url).hostname);
    expect(existsSync(dest('direct'))).toBe(false);
  });

  it('the blocked message names the host, not the address it resolved to', async () => {
    const err = await fetchError(client.download(`http://canary.test:${canary4.port}/`, dest('x'), opts));
    expect(err.message).toContain('canary.test');
    expect(err.message).not.toContain('127.0.0.2');
  });

  it.each(Object.keys(targets))('download refuses a 302 from the allowed server to: %s', async (name) => {
    const target = targets[name]();
    const before = legit.requests;
    const url = `${legit.base}/redirect?to=${encodeURIComponent(target)}`;
    const err = await fetchError(client.download(url, dest('redirected'), opts));
    expect(legit.requests).toBe(before + 1); // the first hop was served
    expect(err.code).toBe('blocked_address');
    expect(existsSync(dest('redirected'))).toBe(false);
  });

  it.each([301, 303, 307, 308])('download re-checks a %s redirect too', async (status) => {
    const url = `${legit.base}/redirect?status=${status}&to=${encodeURIComponent(`http://canary.test:${canary4.port}/`)}`;
    expect((await fetchError(client.download(url, dest('r'), opts))).code).toBe('blocked_address');
  });

  it.each(Object.keys(targets))('post refuses: %s', async (name) => {
    const url = targets[name]();
    const err = await fetchError(client.post(url, '{}', { 'content-type': 'application/json' }, { timeoutMs: 5000 }));
    expect(err.code).toBe('blocked_address');
  });

  it('checks every new connection: a name that rebinds to a forbidden address is refused', async () => {
    rebindCalls = 0;
    const fresh = new GuardedHttpClient({ allowPrivateHosts: ['127.0.0.1'], lookup: testLookup });
    try {
      // First resolution: the allowed 127.0.0.1. Second (new client, new connection): the canary.
      const ok = await fresh.download(`http://rebind.test:${legit.port}/file`, dest('rebind-1'), opts);
      expect(ok.size).toBe(FILE.length);
    } finally {
      await fresh.close();
    }
    const again = new GuardedHttpClient({ allowPrivateHosts: ['127.0.0.1'], lookup: testLookup });
    try {
      const err = await fetchError(again.download(`http://rebind.test:${canary4.port}/`, dest('rebind-2'), opts));
      expect(err.code).toBe('blocked_address');
    } finally {
      await again.close();
    }
  });

  it('the connect-time layer alone refuses IP literals and names (no URL pre-check involved)', async () => {
    const dispatcher = createGuardedDispatcher({ allowPrivateHosts: ['127.0.0.1'], lookup: testLookup });
    try {
      for (const url of [`${canary4.base}/`, `${canary6.base}/`, `http://canary.test:${canary4.port}/`, `http://2130706434:${canary4.port}/`]) {
        await expect(request(url, { dispatcher })).rejects.toBeInstanceOf(BlockedAddressError);
      }
      const ok = await request(`${legit.base}/status/200`, { dispatcher });
      expect(ok.statusCode).toBe(200);
      await ok.body.dump();
    } finally {
      await dispatcher.close();
    }
  });

  it('a client with an empty allow-list refuses the loopback server in every spelling', async () => {
    const strict = new GuardedHttpClient({ allowPrivateHosts: [], lookup: testLookup });
    const before = legit.connections;
    try {
      for (const url of [
        `${legit.base}/file`,
        `http://localhost:${legit.port}/file`,
        `http://legit.test:${legit.port}/file`,
        `http://127.1:${legit.port}/file`,
        `http://0x7f000001:${legit.port}/file`,
        `http://017700000001:${legit.port}/file`,
        `http://2130706433:${legit.port}/file`,
        `http://0.0.0.0:${legit.port}/file`,
        `http://[::ffff:127.0.0.1]:${legit.port}/file`,
      ]) {
        expect((await fetchError(strict.download(url, dest('strict'), opts))).code).toBe('blocked_address');
      }
      expect((await fetchError(strict.post(`${legit.base}/echo`, 'x', {}, { timeoutMs: 5000 }))).code).toBe('blocked_address');
    } finally {
      await strict.close();
    }
    expect(legit.connections).toBe(before);
  });
});

describe('download', () => {
  it('streams the file to disk byte for byte', async () => {
    const result = await client.download(`${legit.base}/file`, dest('file.bin'), opts);
    expect(result).toEqual({ size: FILE.length, contentType: 'application/octet-stream', finalUrl: `${legit.base}/file` });
    expect((await readFile(dest('file.bin'))).equals(FILE)).toBe(true);
  });

  it('keeps the Host header of the URL when connecting to the checked address', async () => {
    // legit.test resolves to 127.0.0.1, which is allow-listed by IP
    const result = await client.download(`http://legit.test:${legit.port}/file`, dest('named.bin'), opts);
    expect(result.size).toBe(FILE.length);
    expect(seen.host).toBe(`legit.test:${legit.port}`);
  });

  it('an allow-list entry naming the host lets it through, but not the same server by IP', async () => {
    const byName = new GuardedHttpClient({ allowPrivateHosts: ['legit.test'], lookup: testLookup });
    try {
      expect((await byName.download(`http://legit.test:${legit.port}/file`, dest('byname.bin'), opts)).size).toBe(FILE.length);
      expect((await fetchError(byName.download(`${legit.base}/file`, dest('byip.bin'), opts))).code).toBe('blocked_address');
    } finally {
      await byName.close();
    }
  });

  it(`follows ${MAX_REDIRECTS} redirects and reports the final URL`, async () => {
    const result = await client.download(`${legit.base}/hops/${MAX_REDIRECTS}`, dest('hops.bin'), opts);
    expect(result.finalUrl).toBe(`${legit.base}/file`);
    expect((await readFile(dest('hops.bin'))).equals(FILE)).toBe(true);
  });

  it(`fails on ${MAX_REDIRECTS + 1} redirects`, async () => {
    const before = legit.requests;
    const err = await fetchError(client.download(`${legit.base}/hops/${MAX_REDIRECTS + 1}`, dest('hops6.bin'), opts));
    expect(err.code).toBe('input_fetch_failed');
    expect(err.message).toMatch(/redirects/);
    expect(legit.requests - before).toBe(MAX_REDIRECTS + 1); // the 7th URL (/file) is never asked for
    expect(existsSync(dest('hops6.bin'))).toBe(false);
  });

  it('refuses a declared Content-Length over the cap before writing anything', async () => {
    const err = await fetchError(client.download(`${legit.base}/declared-big`, dest('big.bin'), { ...opts, maxBytes: MB }));
    expect(err.code).toBe('input_too_large');
    expect(existsSync(dest('big.bin'))).toBe(false);
  });

  it('aborts a streamed body that grows past the cap and deletes the partial file', async () => {
    const err = await fetchError(client.download(`${legit.base}/chunked`, dest('chunked.bin'), { ...opts, maxBytes: MB }));
    expect(err.code).toBe('input_too_large');
    expect(existsSync(dest('chunked.bin'))).toBe(false);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const result = await client.download(`${legit.base}/file`, dest('exact.bin'), { ...opts, maxBytes: FILE.length });
    expect(result.size).toBe(FILE.length);
  });

  it('times out on a server that never answers', async () => {
    // Without the timeout this would hang until jest's test timeout.
    const err = await fetchError(client.download(`${legit.base}/hang`, dest('hang.bin'), { ...opts, timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(existsSync(dest('hang.bin'))).toBe(false);
  });

  it('times out on a body that stalls half-way and deletes the partial file', async () => {
    const err = await fetchError(client.download(`${legit.base}/stall-body`, dest('stall.bin'), { ...opts, timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(existsSync(dest('stall.bin'))).toBe(false);
  });

  it.each([404, 500])('fails with the status on HTTP %s', async (status) => {
    const err = await fetchError(client.download(`${legit.base}/status/${status}`, dest('status.bin'), opts));
    expect(err.code).toBe('input_fetch_failed');
    expect(err.message).toContain(String(status));
    expect(existsSync(dest('status.bin'))).toBe(false);
  });

  it('fails on a refused connection', async () => {
    const closed = await startServer('127.0.0.1');
    await stopServer(closed);
    const err = await fetchError(client.download(`${closed.base}/`, dest('refused.bin'), opts));
    expect(err.code).toBe('input_fetch_failed');
    expect(err.message).toMatch(/refused/);
  });

  it('fails on a name that does not resolve', async () => {
    const err = await fetchError(client.download('http://nxdomain.test/file', dest('nx.bin'), opts));
    expect(err.code).toBe('input_fetch_failed');
    expect(err.message).toContain('nxdomain.test');
  });

  it.each(['not a url', 'ftp://127.0.0.1/file', 'file:///etc/passwd', 'gopher://example.com/', 'http://'])('refuses %j as invalid_url', async (url) => {
    expect((await fetchError(client.download(url, dest('bad.bin'), opts))).code).toBe('invalid_url');
  });

  it('refuses a redirect to another scheme', async () => {
    const url = `${legit.base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`;
    expect((await fetchError(client.download(url, dest('scheme.bin'), opts))).code).toBe('invalid_url');
  });

  it("rethrows a failure to write the destination as it is (not the input's fault)", async () => {
    await expect(client.download(`${legit.base}/file`, join(dir, 'missing-folder', 'x.bin'), opts)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('leaves no stray files behind: a refused or broken download removes what it wrote', async () => {
    // A folder of its own, so the test stands alone (jest -t) and whatever else ran does not count.
    const own = await mkdtemp(join(dir, 'stray-'));
    const at = (name: string) => join(own, name);
    expect((await fetchError(client.download(`${legit.base}/chunked`, at('chunked.bin'), { ...opts, maxBytes: MB }))).code).toBe('input_too_large');
    expect((await fetchError(client.download(`${legit.base}/declared-big`, at('big.bin'), { ...opts, maxBytes: MB }))).code).toBe('input_too_large');
    expect((await fetchError(client.download(`${legit.base}/hops/${MAX_REDIRECTS + 1}`, at('hops.bin'), opts))).code).toBe('input_fetch_failed');
    expect((await fetchError(client.download(`${canary4.base}/`, at('blocked.bin'), opts))).code).toBe('blocked_address');
    expect((await client.download(`${legit.base}/file`, at('kept.bin'), opts)).size).toBe(FILE.length);
    expect((await readdir(own)).sort()).toEqual(['kept.bin']);
  });
});

describe('post', () => {
  it('sends the body and headers and reports the status', async () => {
    const result = await client.post(`${legit.base}/echo`, '{"a":1}', { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, { timeoutMs: 5000 });
    expect(result.status).toBe(204);
    expect(seen.postBody).toBe('{"a":1}');
    expect(seen.postHeaders).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_1', host: `127.0.0.1:${legit.port}` });
  });

  it('returns a 500 as a result, with its headers', async () => {
    const result = await client.post(`${legit.base}/status/500`, '{}', {}, { timeoutMs: 5000 });
    expect(result.status).toBe(500);
    expect(result.headers['x-test']).toBe('yes');
  });

  it('returns a 301 without following it', async () => {
    const before = legit.requests;
    const result = await client.post(`${legit.base}/moved`, '{}', {}, { timeoutMs: 5000 });
    expect(result.status).toBe(301);
    expect(result.headers.location).toBe('/file');
    expect(legit.requests).toBe(before + 1);
  });

  it('returns a 302 pointing at a canary without touching the canary', async () => {
    const url = `${legit.base}/redirect?to=${encodeURIComponent(`${canary4.base}/`)}`;
    expect((await client.post(url, '{}', {}, { timeoutMs: 5000 })).status).toBe(302);
  });

  it(`stops reading a huge response after about ${DISCARD_LIMIT_BYTES / 1024} KB`, async () => {
    const result = await client.post(`${legit.base}/endless`, '{}', {}, { timeoutMs: 5000 });
    expect(result.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.endlessFinished).toBe(false); // the server could not send it all: the client hung up
  });

  it('times out on a server that never answers', async () => {
    const err = await fetchError(client.post(`${legit.base}/hang`, '{}', {}, { timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
  });
});

describe('HttpFetchModule', () => {
  /** Stands in for the root's global ConfigModule: the real AppConfig, read from process.env. */
  @Global()
  @Module({ providers: [{ provide: AppConfig, useFactory: () => loadConfig() }], exports: [AppConfig] })
  class EnvConfigModule {}

  const saved = process.env.ALLOW_PRIVATE_HOSTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
    else process.env.ALLOW_PRIVATE_HOSTS = saved;
  });

  it('takes ALLOW_PRIVATE_HOSTS from the environment', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = ' 10.9.9.9 , 127.0.0.1 ';
    const moduleRef = await Test.createTestingModule({ imports: [EnvConfigModule, HttpFetchModule] }).compile();
    try {
      const fromModule = moduleRef.get(GuardedHttpClient);
      expect((await fromModule.download(`${legit.base}/file`, dest('module.bin'), opts)).size).toBe(FILE.length);
      expect((await fetchError(fromModule.download(`${canary4.base}/`, dest('module2.bin'), opts))).code).toBe('blocked_address');
    } finally {
      await moduleRef.close();
      await rm(dest('module.bin'), { force: true });
    }
  });

  it('refuses loopback when ALLOW_PRIVATE_HOSTS is empty', async () => {
    delete process.env.ALLOW_PRIVATE_HOSTS;
    const moduleRef = await Test.createTestingModule({ imports: [EnvConfigModule, HttpFetchModule] }).compile();
    const before = legit.connections;
    try {
      const fromModule = moduleRef.get(GuardedHttpClient);
      expect((await fetchError(fromModule.download(`${legit.base}/file`, dest('module3.bin'), opts))).code).toBe('blocked_address');
    } finally {
      await moduleRef.close();
    }
    expect(legit.connections).toBe(before);
  });
});
