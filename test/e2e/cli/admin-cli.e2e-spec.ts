import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expectError } from '../../support/expect-error';
import { TEST_DATABASE_URL } from '../../support/env';
import { testLogFile } from '../../support/log-lines';
import { startTestApp, type TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');

/** The admin CLI (src/cli/admin.ts), as an operator runs it: every command and option, and its exit codes. */
describe('admin CLI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const cliLog = testLogFile('cli');
  beforeAll(() => mkdirSync(dirname(cliLog), { recursive: true }));

  function admin(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['-r', '@swc-node/register', 'src/cli/admin.ts', ...args],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, LOG_LEVEL: 'info' } },
        (err, stdout, stderr) => {
          // The CLI's log lines are the run's log lines too: checked at the end (log-lines.ts).
          appendFileSync(cliLog, stderr);
          const code = err ? ((err as { code?: number }).code ?? 1) : 0;
          resolve({ code: typeof code === 'number' ? code : 1, json: stdout.trim() ? JSON.parse(stdout) : undefined, stderr });
        },
      );
    });
  }

  it('account:create, account:show, credits:grant, key:create with every option, key:revoke', async () => {
    const created = await admin('account:create', '--plan', 'pro', '--credits', '7');
    expect(created).toMatchObject({ code: 0, json: { account: { plan: 'pro', creditBalance: 7, webhookSecret: expect.any(String) } } });
    const accountId: string = created.json.account.id;

    expect(await admin('account:show', accountId)).toMatchObject({ code: 0, json: { account: { id: accountId, plan: 'pro', creditBalance: 7 } } });
    expect(await admin('credits:grant', '--account', accountId, '--amount', '5')).toMatchObject({ code: 0, json: { account: { id: accountId, creditBalance: 12 } } });

    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const key = await admin(
      'key:create',
      '--account',
      accountId,
      '--scopes',
      'drops:read,image:write',
      '--ip',
      '127.0.0.1/32,::1/128',
      '--daily-cap',
      '3',
      '--monthly-cap',
      '9',
      '--expires-at',
      expiresAt,
    );
    expect(key).toMatchObject({
      code: 0,
      json: {
        key: {
          accountId,
          token: expect.any(String),
          scopes: ['drops:read', 'image:write'],
          ipAllowlist: ['127.0.0.1/32', '::1/128'],
          dailyCap: 3,
          monthlyCap: 9,
          expiresAt,
          revokedAt: null,
        },
      },
    });
    // The key works, with exactly its scopes.
    const client = t.client(key.json.key.token);
    expect((await client.GET('/v1/account')).data!.account).toMatchObject({ id: accountId, creditBalance: 12 });
    expect((await client.GET('/v1/drops')).response.status).toBe(200);
    const write = await client.POST('/v1/drops', { body: { name: 'not allowed' } });
    expectError(write.response, write.error, 403, 'insufficient_scope');

    const revoked = await admin('key:revoke', key.json.key.id);
    expect(revoked).toMatchObject({ code: 0, json: { key: { id: key.json.key.id, revokedAt: expect.any(String) } } });
    expect(revoked.json.key.token).toBeUndefined(); // printed once, at creation
    const after = await client.GET('/v1/drops');
    expectError(after.response, after.error, 401, 'revoked');
  }, 300_000); // six CLI processes (each boots Nest and migrates): a hang guard, not a bound on speed

  it('at a terminal, an error is one plain line that names the id it did not find', async () => {
    // script(1) gives the CLI a terminal, as an operator's shell does; its output is the terminal's.
    const command = `${process.execPath} -r @swc-node/register src/cli/admin.ts account:show acc_nope`;
    // As an operator runs it: no LOG_LEVEL, no LOG_FORMAT.
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: TEST_DATABASE_URL };
    delete env.LOG_FORMAT;
    delete env.LOG_LEVEL;
    const terminal = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env }, (err, stdout) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout });
      });
    });
    expect(terminal.code).toBe(1);
    expect(terminal.output.trim()).toBe('error: no account with id acc_nope (account:create makes one)');
  }, 60_000);

  it.each([
    ['an unknown plan', ['account:create', '--plan', 'platinum'], /--plan must be one of/],
    ['an unknown account', ['account:show', 'acc_nope'], /no account with id acc_nope\b/],
    ['an unknown scope', ['key:create', '--account', 'acc_nope', '--scopes', 'drops:read,root'], /unknown scope/],
    ['a malformed CIDR', ['key:create', '--account', 'acc_nope', '--scopes', 'drops:read', '--ip', '10.0.0.0/99'], /--ip/],
    ['a malformed expiry', ['key:create', '--account', 'acc_nope', '--scopes', 'drops:read', '--expires-at', 'soon'], /--expires-at/],
    ['a key for an unknown account', ['key:create', '--account', 'acc_nope', '--scopes', 'drops:read'], /no account with id acc_nope\b/],
    ['revoking an unknown key', ['key:revoke', 'key_nope'], /no key with id key_nope\b/],
    ['credits for an unknown account', ['credits:grant', '--account', 'acc_nope', '--amount', '3'], /no account with id acc_nope\b/],
    ['a negative amount', ['credits:grant', '--account', 'acc_nope', '--amount', '-3'], /./],
    ['a missing required option', ['credits:grant', '--amount', '3'], /required option/],
    ['an unknown command', ['account:delete', 'acc_x'], /unknown command/],
  ])('exits non-zero with a message and no JSON on %s', async (_label, args, message) => {
    const res = await admin(...args);
    expect(res.code).not.toBe(0);
    expect(res.json).toBeUndefined();
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toMatch(/\bat \w+ \(|node_modules/); // a message, not a stack trace
  });
});
