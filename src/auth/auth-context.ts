import type { Account } from '../accounts/account.entity';
import type { ApiKey } from './api-key.entity';

/**
 * The key and its account, possibly shared with other requests through ApiKeyCache: read-only,
 * and `account.creditBalance` may be stale (read the balance from the database).
 */
export interface AuthContext {
  key: ApiKey;
  account: Account;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by ApiKeyGuard on authenticated operations. */
    auth?: AuthContext;
  }
}
