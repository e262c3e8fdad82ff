import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MAX_JSON_DEPTH } from '../../../src/common/json-body';
import { assertContract } from '../../support/contract-check';
import { expectError } from '../../support/expect-error';
import { form, png, submit } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Issue 26 item 3: a body nested 10,000 deep overflowed the stack of a recursive walker (a 500).
 * Every JSON body is refused past MAX_JSON_DEPTH levels while it is parsed (src/common/json-body.ts),
 * so nothing after the parser ever walks a deeper value.
 */
const DEEP = 10_000;
const document = parse(readFileSync(join(__dirname, '../../../openapi.yaml'), 'utf8'));

/** `depth` levels of objects ({"a":{"a":…}}) or arrays ([[…]]) around a 0. */
const nested = (depth: number, kind: 'objects' | 'arrays' = 'objects') =>
  kind === 'objects' ? '{"a":'.repeat(depth) + '0' + '}'.repeat(depth) : '['.repeat(depth) + '0' + ']'.repeat(depth);

interface JsonOperation {
  operationId: string;
  method: string;
  template: string;
  example: Record<string, unknown>;
}

/** Every operation of openapi.yaml that takes a JSON request body, with its request example. */
function jsonOperations(): JsonOperation[] {
  const deref = (node: any) =>
    node?.$ref
      ? String(node.$ref)
          .slice(2)
          .split('/')
          .reduce((acc: any, part: string) => acc[part], document)
      : node;
  const found: JsonOperation[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const method of ['post', 'put', 'patch', 'delete', 'get']) {
      const op = item[method];
      const media = op && deref(op.requestBody)?.content?.['application/json'];
      if (!media) continue;
      found.push({ operationId: op.operationId, method: method.toUpperCase(), template, example: media.example ?? {} });
    }
  }
  return found;
}

describe('deeply nested JSON bodies are 400 validation_failed, never a 5xx', () => {
  let t: TestApp;
  let owner: Tenant;
  let slug: string;
  let submissionId: string;
  const operations = jsonOperations();

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    owner = await t.newTenant();
    slug = uniqueSlug('deep');
    await owner.client.POST('/v1/drops', { body: { name: 'deep', slug } });
    const sent = await submit(t, slug, form({}, { data: await png(), name: 'p.png', type: 'image/png' }));
    submissionId = sent.body.submission.id;
  });
  afterAll(() => t.close());

  /** Sends raw JSON text with the owner's key; the answer is checked against the contract when it is not a 5xx. */
  async function send(method: string, path: string, text: string) {
    const res = await fetch(`${t.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: text });
    const raw = await res.text();
    const body = raw ? JSON.parse(raw) : undefined;
    if (res.status < 500) assertContract(method, `${t.baseUrl}${path}`, { status: res.status, headers: res.headers, text: raw });
    return { res, body };
  }

  const pathOf = (template: string) => template.replace('{slug}', slug).replace('{id}', submissionId);

  it('the contract has the JSON operations this suite expects', () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(expect.arrayContaining(['apiCreateJob', 'createDrop', 'createJob', 'updateDrop', 'updateSubmission']));
  });

  it.each([
    ['POST /v1/jobs', 'POST', '/v1/jobs'],
    ['POST /v1/drops', 'POST', '/v1/drops'],
    ['PATCH /v1/drops/{slug}', 'PATCH', '/v1/drops/{slug}'],
  ])('%s nested 5,000 deep: 400 validation_failed naming the body', async (_label, method, template) => {
    const { res, body } = await send(method, pathOf(template), `{"name":${nested(5000)}}`);
    expectError(res, body, 400, 'validation_failed');
    expect(body.error.details).toEqual([{ path: 'body', message: expect.stringContaining(`${MAX_JSON_DEPTH}`) }]);
  });

  // The fuzz of the issue: every JSON operation of the contract, a body nested 10,000 deep at the
  // top, and inside each field of the operation's own example.
  it('every JSON operation of the contract, bodies nested 10,000 deep: no 5xx, each a 400 validation_failed', async () => {
    const answers: string[] = [];
    for (const op of operations) {
      const bodies: [string, string][] = [
        ['objects', nested(DEEP)],
        ['arrays', nested(DEEP, 'arrays')],
        ...Object.keys(op.example).map((field): [string, string] => [`in ${field}`, JSON.stringify({ ...op.example, [field]: '\u0001' }).replace('"\\u0001"', nested(DEEP))]),
      ];
      for (const [label, text] of bodies) {
        const { res, body } = await send(op.method, pathOf(op.template), text);
        answers.push(`${op.operationId} ${label}: ${res.status} ${body?.error?.code}`);
      }
    }
    expect(answers.length).toBeGreaterThan(operations.length * 2);
    expect(answers.filter((a) => !/: 400 validation_failed$/.test(a))).toEqual([]);
  });

  it(`${MAX_JSON_DEPTH} levels are accepted (a job's options ignore unknown keys), ${MAX_JSON_DEPTH + 1} are refused`, async () => {
    // The body is level 1, `options` level 2: the rest of the depth goes in an unknown option.
    const job = (depth: number) => `{"tool":"image-resize","input":{"url":"http://127.0.0.1:9/a.png"},"options":{"width":5,"extra":${nested(depth - 2)}}}`;
    const accepted = await send('POST', '/v1/jobs', job(MAX_JSON_DEPTH));
    expect(accepted.res.status).toBe(202);
    const refused = await send('POST', '/v1/jobs', job(MAX_JSON_DEPTH + 1));
    expectError(refused.res, refused.body, 400, 'validation_failed');
  });

  it('a deep body inside a JSON string is not nesting', async () => {
    const { res } = await send('PATCH', pathOf('/v1/drops/{slug}'), JSON.stringify({ description: nested(200) }));
    expect(res.status).toBe(200);
  });
});
