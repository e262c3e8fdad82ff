import { Logger } from '@nestjs/common';
import { OPERATIONS } from '../../../generated/types';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { contractChecker } from '../../support/contract-check';
import type { JobAccepted } from '../../../generated/types';

/**
 * "Bad input never produces a 5xx or a non-envelope body": every operation of the contract gets
 * hostile path values, query strings, headers and bodies. Each answer is < 500, and every JSON
 * answer with status >= 400 is the error envelope. Each operation gets live targets of its own (a
 * drop with a submission, a job), renewed after any answer that may have used one up (a 2xx), so
 * hostile queries and bodies reach the parsers and handlers instead of stopping at a 404.
 */
describe('hostile input on every operation', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    tenant = await t.newTenant();
  });
  afterAll(() => t.close());

  interface Targets {
    slug: string;
    submissionId: string;
    jobId: string;
    templateId: string;
  }

  /** A drop with one submission, a queued job (no worker runs it) and a template: real values for every path parameter. */
  async function freshTargets(): Promise<Targets> {
    const slug = uniqueSlug('hostile');
    const drop = await tenant.client.POST('/v1/drops', { body: { name: 'target', slug } });
    expect(drop.response.status).toBe(201);
    const fd = new FormData();
    fd.append('file', new Blob(['a target file\n']), 'target.txt');
    const submitted = await fetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: fd });
    expect(submitted.status).toBe(201);
    const submissionId = ((await submitted.json()) as { submission: { id: string } }).submission.id;
    const job = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { width: 10 } } as any });
    expect(job.response.status).toBe(202);
    const template = await tenant.client.POST('/v1/templates', { body: { name: 'target', steps: { small: { tool: 'image-resize', options: { width: 10 } } } } });
    expect(template.response.status).toBe(201);
    return { slug, submissionId, jobId: (job.data as JobAccepted).id, templateId: template.data!.template.id };
  }

  /** The path with real targets, then with each hostile value in every parameter. */
  const pathValues = (template: string, targets: Targets) => [
    realPath(template, targets),
    ...['%00', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(3000), '%F0%9F%92%A9', 'job_!!'].map((v) => fill(template, v)),
  ];

  function realPath(template: string, targets: Targets): string {
    const id = template.includes('/submissions/')
      ? targets.submissionId
      : template.includes('jobs/')
        ? targets.jobId
        : template.includes('/templates/')
          ? targets.templateId
          : 'whd_unknown';
    return template.replace('{slug}', targets.slug).replace('{id}', id).replace('{key}', 'unknown-key');
  }
  const bodies: (string | undefined)[] = [
    undefined,
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '1e400',
    '{"name":{"$gt":""}}',
    '{"tool":["image-resize"]}',
    '{"name":"\\u0000","slug":"' + 'a'.repeat(100) + '"}',
    '{"input":{"url":"file:///etc/passwd"},"tool":"image-resize","options":{"width":5}}',
    '{"input":{"url":"javascript:alert(1)"},"tool":"image-resize"}',
    '{"options":{"width":1e308},"tool":"image-resize","input":{"url":"http://127.0.0.1:9/"}}',
    '{"isRead":"yes"}',
    '{"expiresAt":"2999-99-99T99:99:99Z"}',
    '{"expiresAt":"2030-06-30T23:59:60Z","name":"n","slug":"leap-second"}',
    // NUL bytes (Postgres text cannot hold them) in every kind of stored string, keys included.
    '{"name":"n\\u0000","description":"\\u0000","slug":"nul-slug","isRead":true}',
    '{"tool":"image-resize","input":{"url":"http://127.0.0.1:9/\\u0000"},"options":{"width":5},"idempotencyKey":"\\u0000"}',
    '{"tool":"image-resize","input":{"fileId":"upl_\\u0000"},"options":{"\\u0000":1}}',
    '--x\r\nContent-Disposition: form-data; name="senderName"\r\n\r\na\u0000b\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.txt"\r\n\r\nhello\r\n--x--\r\n',
    '{"maxFileSizeMB":-1}',
    '{"__proto__":{"admin":true},"name":"p"}',
  ];
  // A forged cursor decoding to an instant Postgres cannot hold (year -271821), and a NUL in a filter.
  const forgedCursor = Buffer.from('-271821-04-20T00:00:00.000Z|job_aaaaaaaaaaaaaaaa').toString('base64url');
  const queries = ['', '?limit=abc&processed=maybe&state=exploded', '?cursor=%FF%FE', '?limit=1&limit=2&cursor=' + 'A'.repeat(300), `?cursor=${forgedCursor}&tool=%00`];

  function fill(path: string, value: string): string {
    return path.replace(/\{[^}]+\}/g, value);
  }

  it('never answers 5xx, and errors are always the envelope', async () => {
    // Client mistakes are not the server's errors: nothing is logged at error level.
    const errorLogs = jest.spyOn(Logger.prototype, 'error');
    const failures: string[] = [];
    const contract = contractChecker();
    let requests = 0;
    /** Requests to live targets (no real value exists for a file key or a delivery id), and those answered 404. */
    const live = { requests: 0, notFound: [] as string[] };
    for (const op of OPERATIONS) {
      let targets = await freshTargets();
      for (let p = 0; p < (op.path.includes('{') ? pathValues(op.path, targets).length : 1); p++) {
        for (const query of queries) {
          const sendBodies = ['GET', 'DELETE', 'HEAD', 'OPTIONS'].includes(op.method) ? [undefined] : bodies;
          for (const body of sendBodies) {
            for (const contentType of body === undefined ? [undefined] : ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
              // Computed per request: the targets may have been renewed since the last one.
              const path = op.path.includes('{') ? pathValues(op.path, targets)[p] : op.path;
              requests++;
              const res = await fetch(`${t.baseUrl}${path}${query}`, {
                method: op.method,
                headers: { authorization: `Bearer ${tenant.token}`, ...(contentType ? { 'content-type': contentType } : {}) },
                body,
              });
              const text = await res.text();
              if (path === realPath(op.path, targets) && !/\{key\}|webhook-deliveries/.test(op.path)) {
                live.requests++;
                if (res.status === 404) live.notFound.push(`${op.method} ${path}${query}`);
              }
              // A 2xx may have used the target up (deleted, canceled, paused): the next request gets new ones.
              if (res.status < 300 && path === realPath(op.path, targets)) targets = await freshTargets();
              const label = `${op.method} ${path.slice(0, 60)}${query} [${contentType}] ${String(body).slice(0, 40)} → ${res.status}`;
              if (res.status >= 500) failures.push(`${label} ${text.slice(0, 200)}`);
              // A HEAD answer has the headers of the GET-like answer and never a body.
              else if (res.status >= 400 && op.method !== 'HEAD' && (res.headers.get('content-type') ?? '').startsWith('application/json')) {
                const json = JSON.parse(text);
                if (typeof json?.error?.code !== 'string' || typeof json?.error?.message !== 'string') failures.push(`${label} not an envelope: ${text.slice(0, 200)}`);
              }
              if (/node_modules|\bat \w+ \(/.test(text)) failures.push(`${label} leaks a stack trace`);
              const answer = { method: op.method, url: path, status: res.status, header: (n: string) => res.headers.get(n), text };
              for (const problem of contract.problems(contract.match(op.method, path) ?? contract.byTemplate(op.method, op.path)!, answer)) {
                failures.push(`${label} breaks the contract: ${problem}`);
              }
            }
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
    // Hostile queries and bodies sent to live targets reached their checks: none stopped at a 404.
    expect(live.requests).toBeGreaterThan(500);
    expect(live.notFound).toEqual([]);
    expect(failures).toEqual([]);
    expect(errorLogs.mock.calls).toEqual([]);
  }, 600_000);
});
