import { connect } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { LINGER_MAX_BYTES } from '../../../src/common/lingering-close';
import { MiB, removeDir, streamedForm, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * An answer sent before the request body was read (413, 415, 403 paused, 404, 401) reaches a client
 * that is still sending: the server reads and discards the rest of the body (up to 64 MiB or 10 s,
 * src/common/lingering-close.ts) before it closes, so no reset destroys the answer in flight.
 */
describe('early answers are readable while the client still sends', () => {
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  /** A 1 MB drop, a paused drop (both made in beforeAll), a slug that does not exist. */
  const small = uniqueSlug('early-small');
  const paused = uniqueSlug('early-paused');
  const missing = uniqueSlug('early-missing');

  beforeAll(async () => {
    dir = await tempStorageDir('early-answer');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant();
    await createDrop({ slug: small, maxFileSizeMB: 1 });
    await createDrop({ slug: paused });
    const { response } = await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: paused } }, body: { isActive: false } });
    expect(response.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await removeDir(dir);
  });

  async function createDrop(body: Record<string, unknown>): Promise<void> {
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Early answers', ...body } as any });
    expect(response.status).toBe(201);
  }

  const intake = (slug: string) => `/v1/public/drops/${slug}/submissions`;
  /** Each refusal the server gives before (or while) reading a multipart body. */
  const cases = () =>
    [
      ['413 file_too_large', intake(small), 413, 'file_too_large'],
      ['403 drop_paused', intake(paused), 403, 'drop_paused'],
      ['404 not_found', intake(missing), 404, 'not_found'],
      ['401 unauthorized (uploads without a key)', '/v1/uploads', 401, 'unauthorized'],
    ] as const;

  /**
   * The worst case, made deterministic: the client reads nothing until it has sent `size` bytes.
   * Closing early makes the kernel answer those bytes with a reset that discards the unread answer.
   */
  function sendAllThenRead(path: string, size: number, contentType: string): Promise<{ answer: string; sent: number; error?: string }> {
    return new Promise((resolve) => {
      const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
      let answer = '';
      let sent = 0;
      let error: string | undefined;
      socket.pause();
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code));
      socket.on('close', () => resolve({ answer, sent, error }));
      const sendBody = async () => {
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${size}\r\n\r\n`);
        const chunk = Buffer.alloc(256 * 1024, 0x61);
        while (sent < size && !socket.destroyed) {
          const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
          sent += piece.length;
          if (!socket.write(piece)) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
        }
        socket.resume();
      };
      // A failure while sending ends the socket, which resolves with the error seen.
      socket.once('connect', () => void sendBody().catch((err: Error) => socket.destroy(err)));
    });
  }

  const multipart = 'multipart/form-data; boundary=xyz';
  const multipartHead = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n';

  it.each(cases())('%s: read whole by a client that sends 20 MiB before reading', async (_label, path, status, code) => {
    // The file part starts right away, so the size limit is what refuses 413 (the rest is its content).
    const res = await new Promise<{ answer: string; sent: number; error?: string }>((resolve) => {
      void sendAllThenRead(path, 20 * MiB, multipart).then(resolve);
    });
    expect(res.sent).toBe(20 * MiB);
    expect(res.answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${statusText(status)}`);
    expect(res.answer.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(res.answer.slice(res.answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('415 unsupported_media_type: a 20 MiB body of a type nobody parses is read whole by the client', async () => {
    const res = await sendAllThenRead(intake(small), 20 * MiB, 'application/octet-stream');
    expect(res.answer.split('\r\n')[0]).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(JSON.parse(res.answer.slice(res.answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('unsupported_media_type');
  });

  it('gives up after 64 MiB: a longer body is cut, not read to its end', async () => {
    const res = await sendAllThenRead(intake(missing), 200 * MiB, multipart);
    expect(res.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    expect(res.sent).toBeGreaterThan(LINGER_MAX_BYTES);
    expect(res.sent).toBeLessThan(200 * MiB);
  });

  it('gives up on a client that stops sending (after 10 s), instead of holding the socket', async () => {
    // Half-open allowed: the client keeps its side open after the answer, as a stalled sender would.
    const socket = connect({ port: Number(new URL(t.baseUrl).port), host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise((r) => socket.once('close', r));
    socket.write(`POST ${intake(missing)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${multipart}\r\nContent-Length: ${10 * MiB}\r\n\r\n${multipartHead}`);
    // The answer ended (FIN); a byte now and then, as a stalled sender might still send, shows when
    // the server has let go of the socket: it answers the byte with a reset.
    await new Promise((r) => socket.once('end', r));
    const poke = setInterval(() => socket.write('a'), 500);
    await closed; // jest's test timeout (60 s) fails this test if the server never lets go
    clearInterval(poke);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
  });

  describe("Node's fetch", () => {
    it.each(cases())('%s: a 20 MiB form and a streamed 20 MiB body both get the answer', async (_label, path, status, code) => {
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(20 * MiB)]), 'big.bin');
      const whole = await fetch(`${t.baseUrl}${path}`, { method: 'POST', body: fd });
      expect(whole.status).toBe(status);
      expect(await whole.json()).toEqual({ error: { code, message: expect.any(String) } });

      const { body, contentType } = streamedForm({ fileName: 'big.bin', size: 20 * MiB });
      const streamed = await fetch(`${t.baseUrl}${path}`, { method: 'POST', body: body as any, duplex: 'half', headers: { 'content-type': contentType } } as RequestInit);
      expect(streamed.status).toBe(status);
      expect(await streamed.json()).toEqual({ error: { code, message: expect.any(String) } });
      body.destroy();
    });
  });

  describe('Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it.each(cases())('%s: a 30 MiB upload from the drop page, past its own size check, gets the answer', async (_label, path, status, code) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${t.baseUrl}/d/${small}`);
        // What the page's form sends, minus the page's own check of maxFileSizeMB: a browser that
        // skips it (or an outdated page) must still be told why.
        const answer = await page.evaluate(async (url) => {
          const fd = new FormData();
          fd.append('file', new Blob([new Uint8Array(30 * 1024 * 1024)]), 'big.bin');
          try {
            const res = await fetch(url, { method: 'POST', body: fd });
            return { status: res.status, body: await res.json() };
          } catch (err) {
            return { status: 0, body: String(err) };
          }
        }, `${t.baseUrl}${path}`);
        expect(answer).toEqual({ status, body: { error: { code, message: expect.any(String) } } });
      } finally {
        await context.close();
      }
    });
  });
});

function statusText(status: number): string {
  return ({ 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 413: 'Payload Too Large' } as Record<number, string>)[status];
}
