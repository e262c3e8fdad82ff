import { connect } from 'node:net';
import { expectError } from '../../support/expect-error';
import { form, png, submit } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Values the contract's schemas let through but Postgres or Date cannot hold: a NUL byte in any
 * stored string, a leap second or an out-of-range year, a cursor forged to decode to an
 * impossible instant. Each is a 400 `validation_failed` naming the field, never a 500.
 */
describe('values Postgres cannot hold are 400s naming the field', () => {
  let t: TestApp;
  let owner: Tenant;
  let slug: string;

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    owner = await t.newTenant();
    slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'target', slug } });
  });
  afterAll(() => t.close());

  async function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${owner.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, body: await res.json() };
  }

  function expectField(answer: { res: Response; body: any }, field: string): void {
    expectError(answer.res, answer.body, 400, 'validation_failed');
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  }

  it.each([
    ['drop name', 'POST', '/v1/drops', () => ({ name: 'a\u0000b', slug: uniqueSlug() }), 'body/name'],
    ['drop description', 'POST', '/v1/drops', () => ({ name: 'n', slug: uniqueSlug(), description: '\u0000' }), 'body/description'],
    ['drop patch', 'PATCH', '/v1/drops/{slug}', () => ({ name: 'x\u0000' }), 'body/name'],
    ['job input.url', 'POST', '/v1/jobs', () => ({ tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a\u0000.png' }, options: { width: 5 } }), 'body/input/url'],
    ['job input.fileId', 'POST', '/v1/jobs', () => ({ tool: 'image-resize', input: { fileId: 'upl_\u0000' }, options: { width: 5 } }), 'body/input/fileId'],
    [
      'idempotency key (body)',
      'POST',
      '/v1/jobs',
      () => ({ tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { width: 5 }, idempotencyKey: 'k\u0000' }),
      'body/idempotencyKey',
    ],
    ['an object key', 'POST', '/v1/jobs', () => ({ tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { 'w\u0000': 5 } }), 'body/options/w\\0'],
  ])('NUL in %s', async (_label, method, path, body, field) => {
    expectField(await json(method, path.replace('{slug}', slug), body()), field);
  });

  it('NUL in a query parameter', async () => {
    expectField(await json('GET', '/v1/jobs?tool=image-resize%00'), 'query/tool');
  });

  it('NUL in the Idempotency-Key header is refused before the app (Node rejects it), never a 500', async () => {
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text.split('\r\n')[0]));
      socket.on('error', reject);
      socket.write(`POST /v1/jobs HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
    expect(status).toMatch(/^HTTP\/1\.1 4\d\d/);
  });

  it('NUL in the public sender fields (no key needed)', async () => {
    for (const field of ['senderName', 'senderEmail', 'message']) {
      const answer = await submit(t, slug, form({ [field]: `x\u0000y` }, { data: await png(), name: 'p.png', type: 'image/png' }));
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(`body/${field}`);
    }
  });

  it.each(['2030-06-30T23:59:60Z', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z'])('expiresAt %s is a 400', async (expiresAt) => {
    expectField(await json('POST', '/v1/drops', { name: 'n', slug: uniqueSlug(), expiresAt }), 'body/expiresAt');
  });

  const forged = [
    Buffer.from('-271821-04-20T00:00:00.000Z|job_aaaaaaaaaaaaaaaa').toString('base64url'),
    Buffer.from('+275760-09-13T00:00:00.000Z|sub_aaaaaaaaaaaaaaaa').toString('base64url'),
    Buffer.from('2026-01-01T00:00:00.000Z|sub_\u0000').toString('base64url'),
    Buffer.from('2026-01-01T00:00:00Z|x|y').toString('base64url'),
  ];
  it.each(['/v1/jobs', '/api/v1/jobs', '/v1/webhook-deliveries', '/v1/drops/{slug}/submissions'])('a forged cursor on %s is a 400', async (list) => {
    for (const cursor of forged) {
      expectField(await json('GET', `${list.replace('{slug}', slug)}?cursor=${cursor}`), 'query/cursor');
    }
  });
});
