import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { newId } from '../common/ids';
import { ApiKey } from './api-key.entity';
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
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  /** Creates a key and returns it with its token, which is shown this once and never stored. */
  async create(input: NewKeyInput): Promise<{ key: ApiKey; token: string }> {
    const token = newToken();
    const key = this.keys.create({
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
    await this.keys.insert(key);
    return { key: (await this.keys.findOneByOrFail({ id: key.id })), token };
  }

  /** One indexed query per request: the key and its account, found by the token's hash. */
  findByToken(token: string): Promise<ApiKey | null> {
    // A plain join: findOne with `relations` makes TypeORM run two queries.
    return this.keys
      .createQueryBuilder('k')
      .innerJoinAndSelect('k.account', 'account')
      .where('k.token_hash = :hash', { hash: hashToken(token) })
      .getOne();
  }

  async revoke(id: string): Promise<ApiKey | null> {
    await this.keys.update({ id }, { revokedAt: () => 'COALESCE(revoked_at, now())' } as any);
    return this.keys.findOneBy({ id });
  }
}
