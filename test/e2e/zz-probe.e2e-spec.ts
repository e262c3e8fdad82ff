import { form, submit, tempStorageDir, storedFiles } from '../support/intake';
import { startTestApp, uniqueSlug } from '../support/test-app';
it('probe race', async () => {
  const dir = await tempStorageDir('probe');
  const t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
  const owner = await t.newTenant();
  let leaks = 0;
  for (let round = 0; round < 10; round++) {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'x', slug } });
    const data = Buffer.alloc(100_000, 1);
    const uploads = Array.from({ length: 60 }, (_, i) => submit(t, slug, form({}, { data, name: `${i}.bin` })));
    await Promise.race(uploads); await new Promise((r) => setTimeout(r, round * 3));
    const del = await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
    const res = await Promise.all(uploads);
    await new Promise((r) => setTimeout(r, 200));
    const files = await storedFiles(dir);
    console.log(round, del.response.status, JSON.stringify(res.reduce((a: any, r) => ((a[String(r.status)] = (a[String(r.status)] ?? 0) + 1), a), {})), res.filter(r=>r.status!==201&&r.status!==404).map(r=>JSON.stringify(r.body)).slice(0,2), 'files left', files.length);
    leaks += files.length;
    for (const f of files) (await import('node:fs/promises')).rm(`${dir}/${f}`);
  }
  await t.close();
  expect(leaks).toBe(0);
}, 60000);
