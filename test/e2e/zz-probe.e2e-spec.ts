import { form, submit, tempStorageDir } from '../support/intake';
import { startTestApp, uniqueSlug } from '../support/test-app';
it('probe', async () => {
  const dir = await tempStorageDir('probe');
  const t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
  const owner = await t.newTenant();
  const { data } = await owner.client.POST('/v1/drops', { body: { name: 'x', slug: uniqueSlug() } });
  const slug = data!.drop.slug;
  console.log(await submit(t, slug, form({}, { data: '', name: 'empty.txt' })));
  console.log(await submit(t, slug, form({}, { data: 'abc', name: '' })));
  console.log(await submit(t, slug, form({}, { data: 'abc', name: '...' })));
  const fd = form({}, { data: 'abc', name: 'a.txt' }); fd.append('senderEmail', 'bad');
  console.log(await submit(t, slug, fd));
  const fd2 = form({}, { data: 'abc', name: 'a.txt' }); fd2.append('file', new Blob(['def']), 'b.txt');
  console.log(await submit(t, slug, fd2));
  await t.close();
}, 30000);
