// The accounts and keys the Dredd hooks need to provoke each 401, 402, 403 and 429 of the
// contract: written straight to the Dredd database (one process instead of a dozen admin CLI
// runs) and printed as one JSON object on stdout. Run by run-dredd.js.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { Clock } from '../../src/common/clock';
import { SCOPES } from '../../src/auth/scopes';
import { dataSourceOptions } from '../../src/database/data-source';

async function main(): Promise<void> {
  const ds = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  await ds.initialize();
  try {
    const accounts = new AccountsService(new AccountsRepository(ds), new Clock());
    const keys = new ApiKeysService(new ApiKeysRepository(ds), new Clock());
    const all = [...SCOPES];
    const bench = await accounts.create('bench', 100_000);
    const free = await accounts.create('free', 100_000);
    const poor = await accounts.create('bench', 0);
    const other = await accounts.create('bench', 100_000);
    const main = await keys.create({ accountId: bench.id, scopes: all });
    const revoked = await keys.create({ accountId: bench.id, scopes: all });
    await keys.revoke(revoked.key.id);
    const expired = await keys.create({ accountId: bench.id, scopes: all });
    await ds.query('UPDATE api_keys SET expires_at = $2 WHERE id = $1', [expired.key.id, new Date(Date.now() - 86_400_000)]);
    const out = {
      main: main.token,
      revoked: revoked.token,
      expired: expired.token,
      // TEST-NET-1: the hooks never send from there, so every request of this key is refused.
      ipNotAllowed: (await keys.create({ accountId: bench.id, scopes: all, ipAllowlist: ['192.0.2.0/24'] })).token,
      // webhooks:read only: every operation needing another scope answers 403 insufficient_scope.
      webhooksReadOnly: (await keys.create({ accountId: bench.id, scopes: ['webhooks:read'] })).token,
      free: (await keys.create({ accountId: free.id, scopes: all })).token,
      noCredits: (await keys.create({ accountId: poor.id, scopes: all })).token,
      // Another account: its template is 404 to the main key's jobs.
      otherAccount: (await keys.create({ accountId: other.id, scopes: all })).token,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await ds.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
