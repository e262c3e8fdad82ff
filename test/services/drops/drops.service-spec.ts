import { DataSource } from 'typeorm';
import type { Account } from '../../../src/accounts/account.entity';
import type { DropEventActor } from '../../../src/drops/drop-events.repository';
import { verifyPassword } from '../../../src/drops/drop-password';
import { DropsModule } from '../../../src/drops/drops.module';
import { DropsRepository } from '../../../src/drops/drops.repository';
import { DropsService } from '../../../src/drops/drops.service';
import { TemplatesService } from '../../../src/templates/templates.service';
import { newServiceTest, tenant, type ServiceTest } from '../service-test';

const ACTOR: DropEventActor = { kind: 'key', ip: '127.0.0.1', userAgent: null };
const ALL_SCOPES = ['drops:write', 'image:write', 'video:write', 'audio:write', 'documents:write'];
const IMAGE_TEMPLATE = { name: 'web', steps: { web: { tool: 'image-convert', options: { format: 'webp' } } } };

/** A drop's rules as DropsService keeps them (plan limits, dates, templates, ownership), on the real DropsModule. */
describe('DropsService rules', () => {
  let t: ServiceTest;
  let drops: DropsService;
  let db: DataSource;

  beforeAll(async () => {
    t = await newServiceTest({ modules: [DropsModule] });
    drops = t.get(DropsService);
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const create = (account: Account, input: Record<string, unknown>, scopes = ALL_SCOPES) => drops.create(account, { name: 'Drop', ...input }, scopes, ACTOR);
  const dropCount = async (accountId: string) => (await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM drops WHERE account_id = $1', [accountId]))[0].n;
  const future = (ms: number) => new Date(Date.now() + ms).toISOString();

  describe('create', () => {
    it("applies the defaults: the plan's file size limit, any kind, active, a generated slug", async () => {
      const { account } = await tenant(t, { plan: 'free' });
      const drop = await create(account, {});
      expect(drop).toMatchObject({ accountId: account.id, maxFileSizeMB: 25, allowedKinds: 'any', isActive: true, passwordHash: null, submissionCount: 0 });
      expect(drop.slug).toMatch(/^[a-z0-9-]+$/);
    });

    it('a slug taken by the same or another account is slug_taken; the second drop is not written', async () => {
      const { account } = await tenant(t);
      const { account: other } = await tenant(t);
      const slug = `taken-${account.id.slice(4).toLowerCase()}`;
      await create(account, { slug });
      await expect(create(account, { slug })).rejects.toMatchObject({ code: 'slug_taken' });
      await expect(create(other, { slug })).rejects.toMatchObject({ code: 'slug_taken' });
      expect(await dropCount(other.id)).toBe(0);
    });

    it("maxFileSizeMB over the plan's limit is validation_failed, at the limit it is kept", async () => {
      const { account } = await tenant(t, { plan: 'free' });
      await expect(create(account, { maxFileSizeMB: 26 })).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'body/maxFileSizeMB' }] });
      expect(await create(account, { maxFileSizeMB: 25 })).toMatchObject({ maxFileSizeMB: 25 });
    });

    it('expiresAt in the past is validation_failed and writes nothing', async () => {
      const { account } = await tenant(t);
      await expect(create(account, { expiresAt: new Date(Date.now() - 60_000).toISOString() })).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ path: 'body/expiresAt' }],
      });
      expect(await dropCount(account.id)).toBe(0);
    });

    it('acceptLateUntil needs an expiresAt before it', async () => {
      const { account } = await tenant(t);
      await expect(create(account, { acceptLateUntil: future(3600_000) })).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(create(account, { expiresAt: future(7200_000), acceptLateUntil: future(3600_000) })).rejects.toMatchObject({ code: 'validation_failed' });
      const drop = await create(account, { expiresAt: future(3600_000), acceptLateUntil: future(7200_000) });
      expect(drop.acceptLateUntil!.getTime()).toBeGreaterThan(drop.expiresAt!.getTime());
    });

    it('autoConvertTo must suit the kinds the drop accepts', async () => {
      const { account } = await tenant(t);
      await expect(create(account, { allowedKinds: 'video', autoConvertTo: 'webp' })).rejects.toMatchObject({ code: 'validation_failed' });
      expect(await create(account, { allowedKinds: 'image', autoConvertTo: 'webp' })).toMatchObject({ autoConvertTo: 'webp' });
    });

    it('a password is stored as a hash that verifies, never as sent', async () => {
      const { account } = await tenant(t);
      const drop = await create(account, { password: 'correct horse' });
      expect(drop.passwordHash).not.toContain('correct horse');
      expect(await verifyPassword('correct horse', drop.passwordHash!)).toBe(true);
      expect(await verifyPassword('wrong horse', drop.passwordHash!)).toBe(false);
    });
  });

  describe('processWith (a template run on every file)', () => {
    it("another account's template is as unknown as a missing one: validation_failed on processWith", async () => {
      const { account } = await tenant(t);
      const { account: other } = await tenant(t);
      const theirs = await t.get(TemplatesService).create(other.id, IMAGE_TEMPLATE);
      await expect(create(account, { processWith: theirs.id })).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'body/processWith' }] });
      await expect(create(account, { processWith: 'tpl_missing' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ path: 'body/processWith' }] });
      expect(await dropCount(account.id)).toBe(0);
    });

    it("needs the scopes of the template's tools: a drops-only key is insufficient_scope", async () => {
      const { account } = await tenant(t);
      const mine = await t.get(TemplatesService).create(account.id, IMAGE_TEMPLATE);
      await expect(create(account, { processWith: mine.id }, ['drops:write'])).rejects.toMatchObject({ code: 'insufficient_scope' });
      expect(await create(account, { processWith: mine.id })).toMatchObject({ processWith: mine.id });
    });

    it('is one or the other with autoConvertTo', async () => {
      const { account } = await tenant(t);
      const mine = await t.get(TemplatesService).create(account.id, IMAGE_TEMPLATE);
      await expect(create(account, { processWith: mine.id, autoConvertTo: 'webp' })).rejects.toMatchObject({ code: 'validation_failed' });
    });

    it('a template whose steps take images cannot run on a video-only drop', async () => {
      const { account } = await tenant(t);
      const mine = await t.get(TemplatesService).create(account.id, IMAGE_TEMPLATE);
      await expect(create(account, { processWith: mine.id, allowedKinds: 'video' })).rejects.toMatchObject({ code: 'validation_failed' });
    });
  });

  describe('ownership', () => {
    it("get: the owner's drop; another account's is not_found", async () => {
      const { account } = await tenant(t);
      const { account: other } = await tenant(t);
      const drop = await create(account, {});
      expect((await drops.get(account.id, drop.slug)).id).toBe(drop.id);
      await expect(drops.get(other.id, drop.slug)).rejects.toMatchObject({ code: 'not_found' });
      await expect(drops.read(other.id, drop.slug)).rejects.toMatchObject({ code: 'not_found' });
    });

    it("update of another account's drop is not_found, and the drop stays unchanged", async () => {
      const { account } = await tenant(t);
      const { account: other } = await tenant(t);
      const drop = await create(account, {});
      await expect(drops.update(other, drop.slug, { name: 'mine now' }, ALL_SCOPES, ACTOR)).rejects.toMatchObject({ code: 'not_found' });
      expect((await t.get(DropsRepository).findById(drop.id))!.name).toBe('Drop');
      expect(await drops.update(account, drop.slug, { name: 'Renamed', isActive: false }, ALL_SCOPES, ACTOR)).toMatchObject({ name: 'Renamed', isActive: false });
    });

    it("delete: another account's drop is not_found and survives; the owner's goes, then not_found", async () => {
      const { account } = await tenant(t);
      const { account: other } = await tenant(t);
      const drop = await create(account, {});
      await expect(drops.delete(other.id, drop.slug)).rejects.toMatchObject({ code: 'not_found' });
      expect(await t.get(DropsRepository).findById(drop.id)).toBeDefined();
      await drops.delete(account.id, drop.slug);
      await expect(drops.get(account.id, drop.slug)).rejects.toMatchObject({ code: 'not_found' });
      await expect(drops.delete(account.id, drop.slug)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('update: expiresAt in the past is refused, clearing it is allowed', async () => {
      const { account } = await tenant(t);
      const drop = await create(account, { expiresAt: future(3600_000) });
      await expect(drops.update(account, drop.slug, { expiresAt: new Date(Date.now() - 1000).toISOString() }, ALL_SCOPES, ACTOR)).rejects.toMatchObject({
        code: 'validation_failed',
      });
      expect(await drops.update(account, drop.slug, { expiresAt: null }, ALL_SCOPES, ACTOR)).toMatchObject({ expiresAt: null });
    });
  });
});
