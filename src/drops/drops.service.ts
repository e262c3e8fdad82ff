import { Injectable, Logger } from '@nestjs/common';
import type { DropCreate, DropUpdate, Drop as DropView } from '../../generated/types';
import type { Account } from '../accounts/account.entity';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { decodeCursor, paginate } from '../common/cursor';
import { newId, randomSlug } from '../common/ids';
import { AppConfig, publicBaseUrl } from '../config/config';
import { limitsOf } from '../config/plans';
import { Transactions } from '../database/transactions';
import { FileDeletions } from '../storage/file-deletions';
import { TemplatesService } from '../templates/templates.service';
import { toolScopes } from '../tools/tool-definition';
import { findTool } from '../tools/tool-registry';
import { DropCache, dropLookups } from './drop-cache';
import { checkDropRules, checkTemplateKinds } from './drop-rules';
import { hashPassword } from './drop-password';
import type { Drop } from './drop.entity';
import { type DropEvent, type DropEventActor, type DropEventFilters, DropEventsRepository } from './drop-events.repository';
import { toOwnerDropView } from './drop-views';
import { DropsRepository } from './drops.repository';

@Injectable()
export class DropsService {
  private readonly baseUrl: string;
  private readonly logger = new Logger(DropsService.name);

  constructor(
    private readonly drops: DropsRepository,
    private readonly cache: DropCache,
    private readonly transactions: Transactions,
    private readonly fileDeletions: FileDeletions,
    private readonly clock: Clock,
    private readonly templates: TemplatesService,
    private readonly events: DropEventsRepository,
    config: AppConfig,
  ) {
    this.baseUrl = publicBaseUrl(config);
  }

  /** `scopes`: the calling key's; setting `processWith` needs those of the template's tools. */
  async create(account: Account, input: DropCreate, scopes: readonly string[], actor: DropEventActor): Promise<Drop> {
    const drop: Omit<Drop, 'createdAt'> = {
      id: newId('drp'),
      accountId: account.id,
      slug: input.slug ?? randomSlug(),
      name: input.name,
      description: input.description ?? '',
      emoji: input.emoji ?? null,
      accentColor: input.accentColor ?? null,
      isActive: true,
      allowedKinds: input.allowedKinds ?? 'any',
      maxFileSizeMB: input.maxFileSizeMB ?? limitsOf(account.plan).maxFileSizeMB,
      requireSenderEmail: input.requireSenderEmail ?? false,
      requireMessage: input.requireMessage ?? false,
      autoConvertTo: input.autoConvertTo ?? null,
      autoCompress: input.autoCompress ?? false,
      processWith: input.processWith ?? null,
      webhookUrl: input.webhookUrl ?? null,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      maxSubmissions: input.maxSubmissions ?? null,
      maxTotalMB: input.maxTotalMB ?? null,
      allowedExtensions: input.allowedExtensions ?? null,
      acceptLateUntil: input.acceptLateUntil ? new Date(input.acceptLateUntil) : null,
      submissionCount: 0,
      totalBytes: 0,
    };
    checkDropRules(drop, limitsOf(account.plan).maxFileSizeMB, true, this.clock.now());
    await this.checkTemplate(account.id, drop, scopes);
    const insert = () =>
      this.transactions.run(async (tx) => {
        if (!(await this.drops.insert(drop, tx))) return false;
        await this.events.record(tx, drop.id, 'drop.created', actor);
        return true;
      });
    for (let attempt = 0; !(await templateKept(insert())); attempt++) {
      if (input.slug) throw new DomainError('slug_taken', `The slug ${input.slug} is already taken.`);
      if (attempt >= 5) throw new Error('Could not draw a free slug in 6 attempts');
      drop.slug = randomSlug(); // a generated slug collided: draw another
    }
    return (await this.drops.findById(drop.id))!;
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<{ items: Drop[]; nextCursor: string | null }> {
    return paginate(await this.drops.listForAccount(accountId, limit + 1, decodeCursor(cursor)), limit);
  }

  /** The account's drop; another account's drop is indistinguishable from a missing one (404). */
  async get(accountId: string, slug: string): Promise<Drop> {
    const drop = await this.drops.findBySlugForAccount(slug, accountId);
    if (!drop) throw DomainError.notFound('Drop');
    return drop;
  }

  /**
   * `get` for the owner's read (`GET /v1/drops/{slug}`): from this process's cache when it can
   * vouch for the row (DropCache). The row is shared with later reads: do not change it.
   */
  async read(accountId: string, slug: string): Promise<Readonly<Drop>> {
    let drop = await this.cache.getSynced(slug);
    if (drop) {
      dropLookups.inc({ source: 'cache' });
    } else {
      const generation = this.cache.generation;
      drop = await this.drops.findBySlug(slug);
      dropLookups.inc({ source: 'database' });
      if (drop) this.cache.store(slug, drop, generation);
    }
    // Another account's drop is indistinguishable from a missing one (404).
    if (!drop || drop.accountId !== accountId) throw DomainError.notFound('Drop');
    return drop;
  }

  async update(account: Account, slug: string, patch: DropUpdate, scopes: readonly string[], actor: DropEventActor): Promise<Drop> {
    const drop = await this.get(account.id, slug);
    const { expiresAt, acceptLateUntil, password, ...rest } = patch;
    Object.assign(drop, rest);
    if (expiresAt !== undefined) drop.expiresAt = expiresAt === null ? null : new Date(expiresAt);
    if (acceptLateUntil !== undefined) drop.acceptLateUntil = acceptLateUntil === null ? null : new Date(acceptLateUntil);
    checkDropRules(drop, limitsOf(account.plan).maxFileSizeMB, expiresAt !== undefined, this.clock.now());
    if (patch.processWith !== undefined || patch.allowedKinds !== undefined) await this.checkTemplate(account.id, drop, patch.processWith ? scopes : undefined);
    if (password !== undefined) drop.passwordHash = password === null ? null : await hashPassword(password);
    const { id, accountId, slug: _slug, submissionCount, totalBytes, createdAt, template: _template, ...changes } = drop;
    // The event names the properties sent, never their values (a password is among them).
    await templateKept(
      this.transactions.run(async (tx) => {
        await this.drops.update(tx, id, changes);
        await this.events.record(tx, id, 'drop.updated', actor, null, { fields: Object.keys(patch).sort() });
      }),
    );
    return (await this.drops.findById(id))!;
  }

  /** The drop's audit log, newest first. */
  async listEvents(drop: Drop, limit: number, cursor: string | undefined, filters: DropEventFilters): Promise<{ items: DropEvent[]; nextCursor: string | null }> {
    return paginate(await this.events.list(drop.id, limit + 1, decodeCursor(cursor), filters), limit);
  }

  /**
   * `processWith` names a template of the account (another account's is as unknown: 400, never a
   * hint that it exists) whose steps reading the arriving file take the drop's kind of file. Being
   * set (`scopes` given), it needs the key to hold each step's tool scope, as running the template
   * as a job would: the drop runs it on every file, charged to the owner.
   */
  private async checkTemplate(accountId: string, drop: Pick<Drop, 'processWith' | 'allowedKinds'>, scopes?: readonly string[]): Promise<void> {
    if (!drop.processWith) return;
    const template = await this.templates.get(accountId, drop.processWith).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === 'not_found') throw unknownTemplate(drop.processWith!);
      throw err;
    });
    const steps = Object.entries(template.steps).map(([name, spec]) => ({
      name,
      tool: findTool(spec.tool) ?? { slug: spec.tool, kind: 'any' as const },
      input: spec.input ?? null,
    }));
    checkTemplateKinds(drop.allowedKinds, steps);
    if (!scopes) return;
    for (const [name, spec] of Object.entries(template.steps)) {
      const tool = findTool(spec.tool);
      if (tool && !toolScopes(tool).some((scope) => scopes.includes(scope))) {
        throw new DomainError('insufficient_scope', `processWith: step "${name}" of template ${template.id} needs the ${toolScopes(tool)[0]} scope, which this key lacks.`);
      }
    }
  }

  /** A drop by its public slug, whoever owns it (public pages and intake). */
  async findBySlug(slug: string): Promise<Drop> {
    const drop = await this.drops.findBySlug(slug);
    if (!drop) throw DomainError.notFound('Drop');
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
    // The keys are recorded in the same transaction (FileDeletions): a storage failure after the
    // commit leaves them recorded, and the retention purge deletes them later, never forgets them.
    const keys = await this.transactions.run(async (tx) => {
      await this.drops.lock(tx, drop.id);
      const deleted = await this.drops.deleteWithSubmissions(tx, drop.id);
      const stored = deleted.flatMap((f) => [f.storageKey, f.processedKey]);
      await this.fileDeletions.record(tx, stored);
      return stored;
    });
    if (!(await this.fileDeletions.removeNow(keys))) this.logger.warn(`Drop ${drop.id}: stored files not deleted yet, retried by the purge`);
    return drop;
  }

  toView(drop: Readonly<Drop>): DropView {
    return toOwnerDropView(drop, this.baseUrl);
  }
}

function unknownTemplate(id: string): DomainError {
  return DomainError.validation(`processWith: no template ${id} in this account.`, [{ path: 'body/processWith', message: 'must name a template of this account' }]);
}

/** The write, or the 400 of an unknown template when it was deleted between the check and the write (the foreign key). */
async function templateKept<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const driverError = (err as { driverError?: { code?: string; constraint?: string; detail?: string } }).driverError;
    if (driverError?.code === '23503' && driverError.constraint === 'drops_process_with_fkey') {
      throw unknownTemplate(/\(process_with\)=\(([^)]*)\)/.exec(driverError.detail ?? '')?.[1] ?? 'named');
    }
    throw err;
  }
}
