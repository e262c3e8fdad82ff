import { DataSource } from 'typeorm';
import { TemplatesModule } from '../../../src/templates/templates.module';
import { TemplatesService } from '../../../src/templates/templates.service';
import { newServiceTest, tenant, type ServiceTest } from '../service-test';

const STEPS = { web: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'web', options: { width: 64 } } };

/** An account's saved pipelines (TemplatesModule): checked as a job's steps when saved, owned by one account. */
describe('TemplatesService', () => {
  let t: ServiceTest;
  let templates: TemplatesService;
  let db: DataSource;

  beforeAll(async () => {
    t = await newServiceTest({ modules: [TemplatesModule] });
    templates = t.get(TemplatesService);
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const countOf = async (accountId: string) => (await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM templates WHERE account_id = $1', [accountId]))[0].n;

  it('creates, reads, renames, replaces the steps of and deletes a template', async () => {
    const { account } = await tenant(t);
    const created = await templates.create(account.id, { name: 'web', steps: STEPS });
    expect(await templates.get(account.id, created.id)).toMatchObject({ name: 'web', steps: STEPS });
    expect(await templates.update(account.id, created.id, { name: 'renamed' })).toMatchObject({ name: 'renamed', steps: STEPS });
    const only = { web: STEPS.web };
    expect(await templates.update(account.id, created.id, { steps: only })).toMatchObject({ name: 'renamed', steps: only });
    await templates.delete(account.id, created.id);
    await expect(templates.get(account.id, created.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('an unknown tool is invalid_pipeline naming the step; nothing is saved', async () => {
    const { account } = await tenant(t);
    const err = await templates.create(account.id, { name: 'x', steps: { first: { tool: 'no-such-tool' } } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_pipeline' });
    expect(JSON.stringify(err)).toContain('first');
    expect(await countOf(account.id)).toBe(0);
  });

  it('a step reading a step that does not exist is invalid_pipeline', async () => {
    const { account } = await tenant(t);
    await expect(templates.create(account.id, { name: 'x', steps: { small: { tool: 'image-resize', input: 'missing', options: { width: 10 } } } })).rejects.toMatchObject({
      code: 'invalid_pipeline',
    });
    expect(await countOf(account.id)).toBe(0);
  });

  it("options a tool's schema refuses are validation_failed at the option's path, also when replacing the steps (which stay as they were)", async () => {
    const { account } = await tenant(t);
    const created = await templates.create(account.id, { name: 'web', steps: STEPS });
    await expect(templates.update(account.id, created.id, { steps: { web: { tool: 'image-convert', options: { format: 'not-a-format' } } } })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'body/steps/web/options/format' }],
    });
    expect((await templates.get(account.id, created.id)).steps).toEqual(STEPS);
  });

  it('steps reading each other in a cycle, or a video step feeding an image tool, are invalid_pipeline at the reading step', async () => {
    const { account } = await tenant(t);
    const resize = (input: string) => ({ tool: 'image-resize', input, options: { width: 10 } });
    await expect(templates.create(account.id, { name: 'x', steps: { a: resize('b'), b: resize('a') } })).rejects.toMatchObject({
      code: 'invalid_pipeline',
      details: [{ path: 'body/steps/a/input' }],
    });
    await expect(templates.create(account.id, { name: 'x', steps: { mp4: { tool: 'video-convert', options: { format: 'mp4' } }, small: resize('mp4') } })).rejects.toMatchObject({
      code: 'invalid_pipeline',
      details: [{ path: 'body/steps/small/input' }],
    });
    expect(await countOf(account.id)).toBe(0);
  });

  it("another account's template is not_found to get, update and delete, and stays as it was", async () => {
    const { account } = await tenant(t);
    const { account: other } = await tenant(t);
    const theirs = await templates.create(other.id, { name: 'theirs', steps: STEPS });
    await expect(templates.get(account.id, theirs.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(templates.update(account.id, theirs.id, { name: 'mine' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(templates.delete(account.id, theirs.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await templates.get(other.id, theirs.id)).toMatchObject({ name: 'theirs' });
  });

  it("lists only the account's own templates, newest first, a page at a time", async () => {
    const { account } = await tenant(t);
    const { account: other } = await tenant(t);
    await templates.create(other.id, { name: 'theirs', steps: STEPS });
    const made = [];
    for (const name of ['a', 'b', 'c']) made.push(await templates.create(account.id, { name, steps: STEPS }));
    const first = await templates.list(account.id, 2);
    expect(first.items.map((x) => x.name)).toEqual(['c', 'b']);
    expect(first.nextCursor).not.toBeNull();
    const second = await templates.list(account.id, 2, first.nextCursor!);
    expect(second.items.map((x) => x.name)).toEqual(['a']);
    expect(second.nextCursor).toBeNull();
  });
});
