#!/usr/bin/env node
// Runs Dredd against a freshly started server: a throwaway database, an account and key made
// with the admin CLI, and hooks (hooks.js) that inject the key and the fixtures each operation needs.
const { spawn, execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { Client } = require('pg');

const root = join(__dirname, '..', '..');
const port = Number(process.env.DREDD_PORT ?? 3999);
const baseUrl = `http://127.0.0.1:${port}`;
const adminUrl = process.env.DREDD_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = process.env.DREDD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/dropline_dredd';

async function resetDatabase() {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  const name = new URL(databaseUrl).pathname.slice(1);
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}

function admin(env, ...args) {
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', 'src/cli/admin.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  return JSON.parse(out);
}

async function waitForHealth(server) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in 60 s');
}

async function main() {
  await resetDatabase();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: 'warn',
    STORAGE_DIR: join(root, 'tmp', 'dredd-files'),
    ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    SIGNING_SECRET: 'dredd-signing-secret-0123456789',
  };
  const server = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitForHealth(server);
    const { account } = admin(env, 'account:create', '--plan', 'bench', '--credits', '100000');
    const scopes = 'drops:read,drops:write,image:write,video:write,audio:write,uploads:write,webhooks:read,webhooks:write';
    const { key } = admin(env, 'key:create', '--account', account.id, '--scopes', scopes);
    const code = await new Promise((resolve) => {
      const dredd = spawn(
        join(root, 'node_modules', '.bin', 'dredd'),
        ['openapi.yaml', baseUrl, '--hookfiles', 'test/dredd/hooks*.js', '--loglevel', 'warning', '--reporter', 'cli'],
        { cwd: root, env: { ...env, DREDD_TOKEN: key.token, DREDD_BASE_URL: baseUrl }, stdio: 'inherit' },
      );
      dredd.on('exit', (c) => resolve(c ?? 1));
    });
    process.exitCode = code;
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
