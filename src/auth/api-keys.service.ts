import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import type { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { hashToken, newToken } from './tokens';

export interface NewKeyInput {
  accountId: string;
  scopes: string[];
  ipAllowlist?: string[];
  dailyCap?: number | null;
  monthlyCap?: number | null;
  expiresAt?: Date | null;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
  ) {}

  /** Creates a key and returns it with its token, which is shown this once and never stored. */
  async create(input: NewKeyInput): Promise<{ key: ApiKey; token: string }> {
    const token = newToken();
    const key = await this.keys.create({
      id: newId('key'),
      accountId: input.accountId,
      tokenHash: hashToken(token),
      tokenPrefix: token.slice(0, 12),
      scopes: input.scopes,
      ipAllowlist: input.ipAllowlist ?? [],
      dailyCap: input.dailyCap ?? null,
      monthlyCap: input.monthlyCap ?? null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    });
    return { key, token };
  }

  async findByToken(token: string): Promise<ApiKey | null> {
    return (await this.keys.findByTokenHash(hashToken(token))) ?? null;
  }

  async revoke(id: string): Promise<ApiKey | null> {
    return (await this.keys.revoke(id, this.clock.now())) ?? null;
  }
}
