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
