import { expectError } from '../../support/expect-error';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/** Issue 20 item 2: an account's saved pipelines, over real HTTP with the generated client. */
describe('templates', () => {
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newTenant();
  });
  afterAll(() => t.close());

  const WEB_READY = {
    webp: { tool: 'image-convert', options: { format: 'webp', quality: 70 } },
    small: { tool: 'image-resize', input: 'webp', options: { width: 320 } },
  };
  const create = (body: Record<string, unknown>, tenant = owner) => tenant.client.POST('/v1/templates', { body: body as any });
  const get = (id: string, tenant = owner) => tenant.client.GET('/v1/templates/{id}', { params: { path: { id } } });
  const patch = (id: string, body: Record<string, unknown>, tenant = owner) => tenant.client.PATCH('/v1/templates/{id}', { params: { path: { id } }, body: body as any });
  const remove = (id: string, tenant = owner) => tenant.client.DELETE('/v1/templates/{id}', { params: { path: { id } } });

  it('creates, reads, lists, renames, replaces the steps of and deletes a template', async () => {
    const created = await create({ name: 'Web-ready image', steps: { ...WEB_READY, small: { ...WEB_READY.small, options: { width: 320, junk: 1 } } } });
    expect(created.response.status).toBe(201);
    const template = created.data!.template;
    expect(template).toEqual({
      id: expect.stringMatching(/^tpl_[A-Za-z0-9]{16}$/),
      name: 'Web-ready image',
      steps: WEB_READY, // unknown option keys are dropped, as a job's are
      createdAt: expect.any(String),
      updatedAt: template.createdAt,
    });
    expect((await get(template.id)).data!.template).toEqual(template);
    // The steps read back in the order they were written (not sorted: a longer name first here).
    const ordered = (await create({ name: 'Order', steps: { poster_large: WEB_READY.webp, small: WEB_READY.webp, a: WEB_READY.webp } })).data!.template;
    expect(Object.keys((await get(ordered.id)).data!.template.steps)).toEqual(['poster_large', 'small', 'a']);
    await owner.client.DELETE('/v1/templates/{id}', { params: { path: { id: ordered.id } } });

    const second = (await create({ name: 'Poster', steps: { mp4: { tool: 'video-convert', options: { format: 'mp4' } } } })).data!.template;
    const page = await owner.client.GET('/v1/templates', { params: { query: { limit: 1 } } });
    expect(page.data!.templates.map((x) => x.id)).toEqual([second.id]);
    const next = await owner.client.GET('/v1/templates', { params: { query: { limit: 1, cursor: page.data!.nextCursor! } } });
    expect(next.data!.templates.map((x) => x.id)).toEqual([template.id]);

    const renamed = await patch(template.id, { name: 'Web-ready (320)' });
    expect(renamed.data!.template).toMatchObject({ name: 'Web-ready (320)', steps: WEB_READY });
    const replaced = await patch(template.id, { steps: { thumb: { tool: 'image-resize', options: { width: 64, height: 64 } } } });
    expect(replaced.data!.template.steps).toEqual({ thumb: { tool: 'image-resize', options: { width: 64, height: 64 } } });
    expect(replaced.data!.template.name).toBe('Web-ready (320)');
    expect(Date.parse(replaced.data!.template.updatedAt)).toBeGreaterThanOrEqual(Date.parse(template.createdAt));

    expect((await remove(template.id)).response.status).toBe(204);
    const gone = await get(template.id);
    expectError(gone.response, gone.error, 404, 'not_found');
  });

  it('steps that cannot run are 400 invalid_pipeline naming the step; nothing is saved', async () => {
    const resize = (input?: string) => ({ tool: 'image-resize', options: { width: 10 }, ...(input ? { input } : {}) });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ a: resize('b'), b: resize('a') }, 'body/steps/a/input', /cycle/],
      [{ a: resize('nowhere') }, 'body/steps/a/input', /"nowhere", which is not a step/],
      [
        { mp4: { tool: 'video-convert', options: { format: 'mp4' } }, small: resize('mp4') },
        'body/steps/small/input',
        /takes an image file; step "mp4" \(video-convert\) writes a video file/,
      ],
      [{ a: { tool: 'no-such-tool' } }, 'body/steps/a/tool', /unknown tool/],
      [{ Upper: resize() }, 'body/steps/Upper', /must match/],
      [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, resize()])), 'body/steps', /at most 10 steps; step "s10"/],
      [{}, 'body/steps', /at least one step/],
    ];
    for (const [steps, path, message] of cases) {
      const res = await create({ name: 'Broken', steps });
      expectError(res.response, res.error, 400, 'invalid_pipeline');
      expect(res.error!.error.message).toMatch(message);
      expect(res.error!.error.details).toEqual([{ path, message: res.error!.error.message }]);
    }
    // A step's options are checked against its tool's schema, at the step's path.
    const badOptions = await create({ name: 'Broken', steps: { a: { tool: 'image-convert', options: { format: 'bmp' } } } });
    expectError(badOptions.response, badOptions.error, 400, 'validation_failed');
    expect(badOptions.error!.error.details![0].path).toBe('body/steps/a/options/format');
    const noName = await create({ steps: WEB_READY });
    expectError(noName.response, noName.error, 400, 'validation_failed');

    const stranger = await t.newTenant();
    expect((await stranger.client.GET('/v1/templates')).data!.templates).toEqual([]);
  });

  it("another account's template is 404 to every operation; scopes are templates:read and templates:write", async () => {
    const template = (await create({ name: 'Mine', steps: WEB_READY })).data!.template;
    const other = await t.newTenant();
    for (const res of [await get(template.id, other), await patch(template.id, { name: 'Theirs' }, other), await remove(template.id, other)]) {
      expectError(res.response, res.error, 404, 'not_found');
    }
    expect((await get(template.id)).data!.template.name).toBe('Mine');

    const readOnly = await t.newTenant({ key: { scopes: ['templates:read'] } });
    const refused = await create({ name: 'x', steps: WEB_READY }, readOnly);
    expectError(refused.response, refused.error, 403, 'insufficient_scope');
    expect(refused.error!.error.message).toBe('This operation needs the templates:write scope.');
    const writeOnly = await t.newTenant({ key: { scopes: ['templates:write'] } });
    const unread = await writeOnly.client.GET('/v1/templates');
    expectError(unread.response, unread.error, 403, 'insufficient_scope');
  });
});
