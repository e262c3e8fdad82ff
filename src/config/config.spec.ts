import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config';

describe('SIGNING_SECRET', () => {
  it('refuses a secret shorter than 32 bytes, naming the variable', () => {
    expect(() => loadConfig({ SIGNING_SECRET: 'x'.repeat(31) })).toThrow(/SIGNING_SECRET must be at least 32/);
    expect(loadConfig({ SIGNING_SECRET: 'x'.repeat(32) }).SIGNING_SECRET).toHaveLength(32);
  });

  it('refuses the example secrets of docker-compose.yml and .env.example (published ones included)', () => {
    const root = join(__dirname, '..', '..');
    const literal = [readFileSync(join(root, 'docker-compose.yml'), 'utf8'), readFileSync(join(root, '.env.example'), 'utf8')].flatMap((text) =>
      [...text.matchAll(/SIGNING_SECRET[:=][ \t]*([^\s$#]+)/g)].map((m) => m[1]),
    );
    for (const secret of ['change-me-to-a-long-random-string', ...literal]) {
      expect(() => loadConfig({ SIGNING_SECRET: secret })).toThrow(/SIGNING_SECRET/);
    }
  });
});

describe('retention durations', () => {
  it('reads 30s, 24h, 7d (the ms package) in milliseconds, with the documented defaults', () => {
    const config = loadConfig({ OUTPUT_RETENTION: '30s', JOB_RETENTION: '24h', DELIVERY_RETENTION: '7d' });
    expect([config.OUTPUT_RETENTION, config.JOB_RETENTION, config.DELIVERY_RETENTION]).toEqual([30_000, 86_400_000, 604_800_000]);
    const defaults = loadConfig({});
    expect([defaults.OUTPUT_RETENTION, defaults.JOB_RETENTION, defaults.DELIVERY_RETENTION, defaults.PURGE_INTERVAL]).toEqual([
      undefined,
      90 * 86_400_000,
      30 * 86_400_000,
      300_000,
    ]);
  });

  it('refuses what is not a duration, naming the variable', () => {
    for (const value of ['soon', '-5m', '7 fortnights', 'd']) expect(() => loadConfig({ JOB_RETENTION: value })).toThrow(/JOB_RETENTION must be a duration/);
    expect(() => loadConfig({ PURGE_INTERVAL: 'never' })).toThrow(/PURGE_INTERVAL/);
    expect(() => loadConfig({ OUTPUT_RETENTION: '10ms' })).toThrow(/OUTPUT_RETENTION/);
  });
});
