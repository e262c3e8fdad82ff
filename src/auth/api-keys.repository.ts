import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Account } from '../accounts/account.entity';
import { firstRow } from '../database/sql';
import type { ApiKey } from './api-key.entity';

const KEY_COLUMNS = `k.id, k.account_id AS "accountId", k.token_hash AS "tokenHash", k.token_prefix AS "tokenPrefix", k.scopes,
  k.ip_allowlist AS "ipAllowlist", k.daily_cap AS "dailyCap", k.monthly_cap AS "monthlyCap", k.expires_at AS "expiresAt",
  k.revoked_at AS "revokedAt", k.created_at AS "createdAt"`;

/** The account's columns beside the key's, prefixed so the two do not clash. */
const ACCOUNT_COLUMNS = `a.plan AS "a.plan", a.credit_balance::float8 AS "a.creditBalance", a.webhook_secret AS "a.webhookSecret",
  a.previous_webhook_secret AS "a.previousWebhookSecret", a.webhook_secret_rotated_at AS "a.webhookSecretRotatedAt", a.created_at AS "a.createdAt"`;

type KeyRow = Omit<ApiKey, 'account'>;
type KeyWithAccountRow = KeyRow & { [C in keyof Omit<Account, 'id'> as `a.${C}`]: Account[C] };

/** The api_keys table. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(key: Omit<ApiKey, 'account' | 'createdAt'>): Promise<ApiKey> {
    return (await firstRow<ApiKey>(
      this.db,
      `INSERT INTO api_keys AS k (id, account_id, token_hash, token_prefix, scopes, ip_allowlist, daily_cap, monthly_cap, expires_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${KEY_COLUMNS}`,
      [key.id, key.accountId, key.tokenHash, key.tokenPrefix, key.scopes, key.ipAllowlist, key.dailyCap, key.monthlyCap, key.expiresAt, key.revokedAt],
    ))!;
  }

  /** One indexed query per request: the key and its account, found by the token's hash. */
  async findByTokenHash(hash: Buffer): Promise<ApiKey | undefined> {
    const row = await firstRow<KeyWithAccountRow>(
      this.db,
      `SELECT ${KEY_COLUMNS}, ${ACCOUNT_COLUMNS} FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.token_hash = $1`,
      [hash],
    );
    if (!row) return undefined;
    const { 'a.plan': plan, 'a.creditBalance': creditBalance, 'a.webhookSecret': webhookSecret, ...rest } = row;
    const { 'a.previousWebhookSecret': previousWebhookSecret, 'a.webhookSecretRotatedAt': webhookSecretRotatedAt, 'a.createdAt': accountCreatedAt, ...key } = rest;
    const account: Account = { id: key.accountId, plan, creditBalance, webhookSecret, previousWebhookSecret, webhookSecretRotatedAt, createdAt: accountCreatedAt };
    return { ...key, account };
  }

  /** Sets revoked_at once (a second revoke keeps the first time); undefined when there is no such key. */
  revoke(id: string, at: Date): Promise<ApiKey | undefined> {
    return firstRow<ApiKey>(this.db, `UPDATE api_keys AS k SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`, [id, at]);
  }
}
