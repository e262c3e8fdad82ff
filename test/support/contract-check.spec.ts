import { createServer, type Server } from 'node:http';
import { createDroplineClient } from '../../generated/client';
import { assertContract, contractChecker, contractFetch, contractMiddleware, ContractViolation } from './contract-check';
import { NEW_DROP_SETTINGS } from './drops';

/**
 * The response checker must bite: a stand-in server on 127.0.0.1 answers with whatever the test
 * scripts, and the checker must refuse a wrong body, an undeclared status and a missing header.
 */
describe('contract check of responses', () => {
  let server: Server;
  let baseUrl: string;
  let next: { status: number; headers?: Record<string, string>; body?: string } = { status: 200 };

  // The owner's view: the entity's settings, the password shown only as hasPassword.
  const { passwordHash: _hash, ...settings } = NEW_DROP_SETTINGS;
  const drop = {
    slug: 'launch-assets',
    name: 'Launch',
    ...settings,
    hasPassword: false,
    publicUrl: 'http://127.0.0.1:3000/d/launch-assets',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const rateHeaders = { 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '1' };
  const json = (status: number, body: unknown, headers: Record<string, string> = rateHeaders) => {
    next = { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
  };

  beforeAll(async () => {
    server = createServer((req, res) => req.resume().on('end', () => res.writeHead(next.status, next.headers).end(next.body)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function client() {
    const c = createDroplineClient({ baseUrl, token: 'dl_live_x' });
    c.use(contractMiddleware);
    return c;
  }

  it('passes a response the contract promises', async () => {
    json(200, { drop });
    const { data, response } = await client().GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } });
    expect(response.status).toBe(200);
    expect(data?.drop.slug).toBe('launch-assets');
  });

  it('rejects a body with a renamed field, naming the operation, the status and the Ajv error', async () => {
    const { name, ...rest } = drop;
    json(200, { drop: { ...rest, title: name } });
    const call = client().GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } });
    await expect(call).rejects.toThrow(ContractViolation);
    await expect(client().GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } })).rejects.toThrow(
      /getDrop \(GET \/v1\/drops\/\{slug\}\) → 200[\s\S]*body\/drop must have required property 'name'/,
    );
  });

  it('rejects a wrong type, a bad enum value and a bad format', async () => {
    json(200, { drop: { ...drop, isActive: 'yes', allowedKinds: 'pdf', createdAt: 'yesterday' } });
    const error = await client()
      .GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolation);
    const message = (error as Error).message;
    expect(message).toMatch(/body\/drop\/isActive must be boolean/);
    expect(message).toMatch(/body\/drop\/allowedKinds must be equal to one of the allowed values/);
    expect(message).toMatch(/body\/drop\/createdAt must match format "date-time"/);
  });

  it('rejects a status the operation does not declare', async () => {
    json(418, { error: { code: 'teapot', message: 'short and stout' } });
    await expect(client().GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } })).rejects.toThrow(
      /getDrop \(GET \/v1\/drops\/\{slug\}\) → 418[\s\S]*status 418 is not declared/,
    );
  });

  it('rejects an error that is not the envelope, and a missing declared header', async () => {
    json(404, { message: 'nope' });
    await expect(client().GET('/v1/drops/{slug}', { params: { path: { slug: 'x-y-z' } } })).rejects.toThrow(/body must have required property 'error'/);
    json(200, { drop }, {});
    await expect(client().GET('/v1/drops/{slug}', { params: { path: { slug: 'launch-assets' } } })).rejects.toThrow(/header RateLimit-Limit is missing/);
  });

  it('rejects an undeclared Content-Type', async () => {
    next = { status: 200, headers: { 'content-type': 'text/plain', ...rateHeaders }, body: 'ok' };
    await expect(client().GET('/v1/account')).rejects.toThrow(/Content-Type "text\/plain" is not declared/);
  });

  it('checks raw fetch calls on both prefixes, and refuses paths the contract does not have', async () => {
    json(200, { job: { nope: true } });
    await expect(contractFetch(`${baseUrl}/api/v1/jobs/job_abc`)).rejects.toThrow(/apiGetJob \(GET \/api\/v1\/jobs\/\{id\}\) → 200/);
    await expect(contractFetch(`${baseUrl}/v1/jobs/job_abc`)).rejects.toThrow(/getJob \(GET \/v1\/jobs\/\{id\}\) → 200/);
    json(500, { error: { code: 'internal_error', message: 'x' } });
    await expect(contractFetch(`${baseUrl}/v1/drops`)).rejects.toThrow(/listDrops .*→ 500[\s\S]*status 500 is not declared/);
    await expect(contractFetch(`${baseUrl}/v1/nowhere`)).rejects.toThrow(/no operation of openapi.yaml serves/);
  });

  it('checks answers read with node:http, and matches literal paths before templates', () => {
    expect(() => assertContract('DELETE', '/v1/drops/a-b', { status: 204, headers: { ...rateHeaders } })).not.toThrow();
    expect(() => assertContract('DELETE', '/v1/drops/a-b', { status: 201, headers: {} })).toThrow(/deleteDrop .*→ 201/);
    expect(contractChecker().match('POST', '/v1/jobs/job_1/cancel?x=1')?.operationId).toBe('cancelJob');
    expect(contractChecker().match('GET', 'http://h/v1/public/drops/abc')?.operationId).toBe('getPublicDrop');
  });
});
