import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

/** PRODUCT.md §1 and §10: probes, the contract at /openapi.*, the docs, metrics, request ids. */
describe('operations endpoints', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('/healthz and /readyz answer without a key', async () => {
    expect(await (await fetch(`${t.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${t.baseUrl}/readyz`)).json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('serves the hand-written contract as YAML and JSON, the same document', async () => {
    const yamlText = await (await fetch(`${t.baseUrl}/openapi.yaml`)).text();
    expect(yamlText).toBe(readFileSync(join(__dirname, '..', '..', 'openapi.yaml'), 'utf8'));
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
  });

  it('/metrics exposes Prometheus metrics with per-route timings', async () => {
    await fetch(`${t.baseUrl}/healthz`);
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"/);
  });

  it('echoes a caller\'s X-Request-Id and makes one up otherwise', async () => {
    const given = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
    const made = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
