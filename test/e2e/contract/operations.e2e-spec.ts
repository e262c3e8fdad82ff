import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractFetch } from '../../support/contract-check';
import { startTestApp, type TestApp } from '../../support/test-app';

/** docs/decisions.md §1 and §10: probes, the contract at /openapi.*, the docs, metrics, request ids. */
// /openapi.*, /docs and /metrics are not operations of the contract: plain fetch for those.
describe('operations endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('/healthz and /readyz answer without a key', async () => {
    expect(await (await contractFetch(`${t.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await contractFetch(`${t.baseUrl}/readyz`)).json()).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok', scanning: 'off', ffmpeg: 'ok', libreoffice: 'ok', poppler: 'ok' },
    });
  });

  it('serves the hand-written contract as YAML and JSON, the same document', async () => {
    const yamlText = await (await fetch(`${t.baseUrl}/openapi.yaml`)).text();
    expect(yamlText).toBe(readFileSync(join(__dirname, '..', '..', '..', 'openapi.yaml'), 'utf8'));
    const json = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
    expect(json).toEqual(parse(yamlText));
    expect(json.openapi).toBe('3.0.3');
  });

  it('/docs renders that document', async () => {
    const res = await fetch(`${t.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
    const served = await (await fetch(`${t.baseUrl}/docs/openapi.json`)).json();
    expect(served.info.title).toBe('Dropline API');
    expect(Object.keys(served.paths)).toContain('/v1/drops/{slug}/submissions');
    // Each operation shows its own error examples (components.examples, resolved by the renderer).
    const example = (path: string, method: string, status: string) => {
      const examples = served.paths[path][method].responses[status].content['application/json'].examples;
      return Object.fromEntries(
        Object.entries<{ $ref?: string; value?: unknown }>(examples).map(([key, e]) => [key, e.$ref ? served.components.examples[e.$ref.split('/').pop()!].value : e.value]),
      );
    };
    expect(example('/v1/jobs/{id}', 'get', '404')).toEqual({ not_found: { error: { code: 'not_found', message: 'Job not found.' } } });
    expect(example('/v1/drops/{slug}', 'get', '404')).toEqual({ not_found: { error: { code: 'not_found', message: 'Drop not found.' } } });
    expect(Object.keys(example('/v1/jobs', 'post', '429'))).toEqual(['rate_limited', 'concurrency_exceeded']);
    expect(Object.keys(example('/v1/public/drops/{slug}/submissions', 'post', '415'))).toEqual(['unsupported_media_type', 'kind_not_allowed']);
  });

  it("/docs: this deployment's PUBLIC_BASE_URL as server, curl and TypeScript samples per operation, the webhooks", async () => {
    const served = await (await fetch(`${t.baseUrl}/docs/openapi.json`)).json();
    expect(served.servers).toEqual([{ url: t.baseUrl, description: 'This deployment' }]);
    const createJob = served.paths['/v1/jobs'].post;
    const [curl, ts] = createJob['x-codeSamples'];
    expect(curl).toMatchObject({ lang: 'Shell', source: expect.stringContaining(`curl -s -X POST '${t.baseUrl}/v1/jobs'`) });
    expect(curl.source).toContain('Authorization: Bearer $DROPLINE_API_KEY');
    expect(ts).toMatchObject({ lang: 'TypeScript', source: expect.stringContaining("client.POST('/v1/jobs', { body: {") });
    expect(served.paths['/v1/drops/{slug}'].get['x-codeSamples'][0].source).toContain(`${t.baseUrl}/v1/drops/launch-assets`);
    expect(served.paths['/healthz'].get['x-codeSamples'][0].source).not.toContain('Authorization');
    expect(Object.keys(served['x-webhooks'])).toEqual([
      'submission.created',
      'submission.processed',
      'submission.scanned',
      'submission.quarantined',
      'job.completed',
      'job.failed',
    ]);
    expect(createJob.callbacks.webhookEvents).toBeDefined();
    for (const tool of ['ImageResizeJobCreate', 'ImageConvertJobCreate', 'VideoConvertJobCreate', 'AudioCompressJobCreate']) {
      expect(served.components.schemas[tool].example.tool).toBe(served.components.schemas[tool].properties.tool.enum[0]);
    }
  });

  it('/metrics exposes Prometheus metrics with per-route timings', async () => {
    await fetch(`${t.baseUrl}/healthz`);
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"/);
  });

  it("echoes a caller's X-Request-Id and makes one up otherwise", async () => {
    const given = await contractFetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
    const made = await contractFetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
