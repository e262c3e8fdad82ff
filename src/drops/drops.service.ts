import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, type Repository } from 'typeorm';
import type { DropCreate, DropUpdate, Drop as DropView } from '../../generated/types';
import type { Account } from '../accounts/account.entity';
import { ApiError } from '../common/api-error';
import { decodeCursor, paginate } from '../common/cursor';
import { newId, randomSlug } from '../common/ids';
import { AppConfig, publicBaseUrl } from '../config/config';
import { limitsOf } from '../config/plans';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { checkDropRules } from './drop-rules';
import { Drop } from './drop.entity';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class DropsService {
  private readonly baseUrl: string;
  private readonly logger = new Logger(DropsService.name);

  constructor(
    @InjectRepository(Drop) private readonly drops: Repository<Drop>,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    config: AppConfig,
  ) {
    this.baseUrl = publicBaseUrl(config);
  }

  async create(account: Account, input: DropCreate): Promise<Drop> {
    const drop = this.drops.create({
      id: newId('drp'),
      accountId: account.id,
      slug: input.slug ?? randomSlug(),
      name: input.name,
      description: input.description ?? '',
      emoji: null,
      accentColor: null,
      isActive: true,
      allowedKinds: input.allowedKinds ?? 'any',
      maxFileSizeMB: input.maxFileSizeMB ?? limitsOf(account.plan).maxFileSizeMB,
      requireSenderEmail: input.requireSenderEmail ?? false,
      requireMessage: input.requireMessage ?? false,
      autoConvertTo: input.autoConvertTo ?? null,
      autoCompress: input.autoCompress ?? false,
      webhookUrl: input.webhookUrl ?? null,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      submissionCount: 0,
      totalBytes: 0,
    });
    checkDropRules(drop, limitsOf(account.plan).maxFileSizeMB, true);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.drops.insert(drop);
        break;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (input.slug) throw ApiError.conflict('slug_taken', `The slug ${input.slug} is already taken.`);
        if (attempt >= 5) throw err;
        drop.slug = randomSlug(); // a generated slug collided: draw another
      }
    }
    return this.drops.findOneByOrFail({ id: drop.id });
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<{ items: Drop[]; nextCursor: string | null }> {
    const after = decodeCursor(cursor);
    const qb = this.drops
      .createQueryBuilder('d')
      .where('d.account_id = :accountId', { accountId })
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit + 1);
    if (after) qb.andWhere('(d.created_at, d.id) < (:createdAt, :id)', after);
    return paginate(await qb.getMany(), limit);
  }

  /** The account's drop; another account's drop is indistinguishable from a missing one (404). */
  async get(accountId: string, slug: string): Promise<Drop> {
    const drop = await this.drops.findOneBy({ slug, accountId });
    if (!drop) throw ApiError.notFound('Drop');
    return drop;
  }

  async update(account: Account, slug: string, patch: DropUpdate): Promise<Drop> {
    const drop = await this.get(account.id, slug);
    const { expiresAt, ...rest } = patch;
    Object.assign(drop, rest);
    if (expiresAt !== undefined) drop.expiresAt = expiresAt === null ? null : new Date(expiresAt);
    checkDropRules(drop, limitsOf(account.plan).maxFileSizeMB, expiresAt !== undefined);
    const { id, accountId, slug: _slug, submissionCount, totalBytes, createdAt, ...changes } = drop;
    await this.drops.update({ id }, changes);
    return this.drops.findOneByOrFail({ id });
  }

  /** A drop by its public slug, whoever owns it (public pages and intake). */
  async findBySlug(slug: string): Promise<Drop> {
    const drop = await this.drops.findOneBy({ slug });
    if (!drop) throw ApiError.notFound('Drop');
    return drop;
  }

  /** Deletes the drop and its submissions in one transaction, then their stored files. */
  async delete(accountId: string, slug: string): Promise<Drop> {
    const drop = await this.get(accountId, slug);
    // The drop row is locked first. Reading the keys before a separate DELETE missed every
    // submission an intake committed in between (the intake's counter UPDATE holds the same row
    // lock, so they queue up exactly then): the FK cascade removed those rows and their files
    // stayed on disk for good. Now an intake still in flight waits for this transaction, then
    // finds no drop (404) and removes its own file; everything committed before is returned here.
    const files = await this.drops.manager.transaction(async (tx) => {
      await tx.query('SELECT id FROM drops WHERE id = $1 FOR UPDATE', [drop.id]);
      const [deleted]: [{ storage_key: string; processed_key: string | null }[], number] = await tx.query(
        'DELETE FROM submissions WHERE drop_id = $1 RETURNING storage_key, processed_key',
        [drop.id],
      );
      await tx.query('DELETE FROM drops WHERE id = $1', [drop.id]);
      return deleted;
    });
    const keys = files.flatMap((f) => [f.storage_key, f.processed_key]).filter((k): k is string => Boolean(k));
    if (keys.length > 0) {
      await this.storage.deleteMany(keys).catch((err: Error) => this.logger.error(`Drop ${drop.id}: stored files left behind: ${err.message}`));
    }
    return drop;
  }

  toView(drop: Drop): DropView {
    return {
      slug: drop.slug,
      name: drop.name,
      description: drop.description,
      emoji: drop.emoji,
      accentColor: drop.accentColor,
      isActive: drop.isActive,
      allowedKinds: drop.allowedKinds,
      maxFileSizeMB: drop.maxFileSizeMB,
      requireSenderEmail: drop.requireSenderEmail,
      requireMessage: drop.requireMessage,
      autoConvertTo: drop.autoConvertTo,
      autoCompress: drop.autoCompress,
      webhookUrl: drop.webhookUrl,
      expiresAt: drop.expiresAt ? drop.expiresAt.toISOString() : null,
      submissionCount: drop.submissionCount,
      totalBytes: drop.totalBytes,
      publicUrl: `${this.baseUrl}/d/${drop.slug}`,
      createdAt: drop.createdAt.toISOString(),
    };
  }
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err as any).driverError?.code === UNIQUE_VIOLATION;
}
