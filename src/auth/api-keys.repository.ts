import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKey } from './api-key.entity';

/** The api_keys table. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  async create(key: Omit<ApiKey, 'account' | 'createdAt'>): Promise<ApiKey> {
    await this.keys.insert(this.keys.create(key));
    return this.keys.findOneByOrFail({ id: key.id });
  }

  /** One indexed query per request: the key and its account, found by the token's hash. */
  async findByTokenHash(hash: Buffer): Promise<ApiKey | undefined> {
    // A plain join: findOne with `relations` makes TypeORM run two queries.
    return (await this.keys.createQueryBuilder('k').innerJoinAndSelect('k.account', 'account').where('k.token_hash = :hash', { hash }).getOne()) ?? undefined;
  }

  /** Sets revoked_at once (a second revoke keeps the first time); undefined when there is no such key. */
  async revoke(id: string, at: Date): Promise<ApiKey | undefined> {
    await this.keys.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [id, at]);
    return (await this.keys.findOneBy({ id })) ?? undefined;
  }
}
