import { OPERATIONS } from '../../generated/types';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../support/test-app';

/**
 * "Bad input never produces a 5xx or a non-envelope body": every operation of the contract gets
 * hostile path values, query strings, headers and bodies. Each answer is < 500, and every JSON
 * answer with status >= 400 is the error envelope.
 */
describe('hostile input on every operation', () => {
  let t: TestApp;
  let tenant: Tenant;
  let slug: string;

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    tenant = await t.newTenant();
    slug = uniqueSlug();
    await tenant.client.POST('/v1/drops', { body: { name: 'target', slug } });
  });
  afterAll(() => t.close());

  const pathValues = () => [slug, '%00', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(3000), '%F0%9F%92%A9', 'job_!!'];
  const bodies: (string | undefined)[] = [
    undefined, '', '{', 'null', '[]', '"text"', '1e400', '{"name":{"$gt":""}}', '{"tool":["image-resize"]}',
    '{"name":"\\u0000","slug":"' + 'a'.repeat(100) + '"}', '{"input":{"url":"file:///etc/passwd"},"tool":"image-resize","options":{"width":5}}',
    '{"input":{"url":"javascript:alert(1)"},"tool":"image-resize"}', '{"options":{"width":1e308},"tool":"image-resize","input":{"url":"http://127.0.0.1:9/"}}',
    '{"isRead":"yes"}', '{"expiresAt":"2999-99-99T99:99:99Z"}', '{"maxFileSizeMB":-1}', '{"__proto__":{"admin":true},"name":"p"}',
  ];
  const queries = ['', '?limit=abc&processed=maybe&state=exploded', '?cursor=%FF%FE', '?limit=1&limit=2&cursor=' + 'A'.repeat(300)];

  function fill(path: string, value: string): string {
    return path.replace(/\{[^}]+\}/g, value);
  }

  it('never answers 5xx, and errors are always the envelope', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const op of OPERATIONS) {
      const paths = op.path.includes('{') ? pathValues().map((v) => fill(op.path, v)) : [op.path];
      for (const path of paths) {
        for (const query of queries) {
          const sendBodies = op.method === 'GET' || op.method === 'DELETE' ? [undefined] : bodies;
          for (const body of sendBodies) {
            for (const contentType of body === undefined ? [undefined] : ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
              requests++;
              const res = await fetch(`${t.baseUrl}${path}${query}`, {
                method: op.method,
                headers: { authorization: `Bearer ${tenant.token}`, ...(contentType ? { 'content-type': contentType } : {}) },
                body,
              });
              const text = await res.text();
              const label = `${op.method} ${path.slice(0, 60)}${query} [${contentType}] ${String(body).slice(0, 40)} → ${res.status}`;
              if (res.status >= 500) failures.push(`${label} ${text.slice(0, 200)}`);
              else if (res.status >= 400 && (res.headers.get('content-type') ?? '').startsWith('application/json')) {
                const json = JSON.parse(text);
                if (typeof json?.error?.code !== 'string' || typeof json?.error?.message !== 'string') failures.push(`${label} not an envelope: ${text.slice(0, 200)}`);
              }
              if (/node_modules|\bat \w+ \(/.test(text)) failures.push(`${label} leaks a stack trace`);
            }
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 600_000);
});
