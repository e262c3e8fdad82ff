import { Agent, fetch } from 'undici';
import { expectError } from '../../support/expect-error';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Wrong drop passwords are counted per client address across all drops as well as per drop: each
 * costs a scrypt, and one account can own any number of protected drops to knock on. The 21st
 * wrong password in a minute from one address is a 429 with Retry-After, whatever drop it is for;
 * the 10-per-drop budget still holds; another address is counted apart.
 */
describe('wrong drop passwords per address across drops', () => {
  let t: TestApp;
  let owner: Tenant;
  /** Requests from 127.0.0.2: another client address on the same loopback. */
  let otherAddress: Agent;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newTenant();
    otherAddress = new Agent({ localAddress: '127.0.0.2' });
  });
  afterAll(async () => {
    await otherAddress?.close();
    await t?.close();
  });

  async function protectedDrop(password: string): Promise<string> {
    const slug = uniqueSlug('budget');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { name: 'Knock knock', slug, password } });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const openDrop = (slug: string, password: string) => t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug }, header: { 'Drop-Password': password } } as any });

  it('the 21st wrong password across drops is 429 rate_limited with Retry-After; 10 per drop still holds; another address is unaffected', async () => {
    const drops = await Promise.all(['first secret', 'second secret', 'third secret'].map(protectedDrop));

    // 10 wrong on the first drop, then its own budget (10 per drop) refuses the 11th.
    for (let i = 1; i <= 10; i++) expect((await openDrop(drops[0], `wrong ${i}`)).response.status).toBe(403);
    const eleventh = await openDrop(drops[0], 'wrong 11');
    expectError(eleventh.response, eleventh.error, 429, 'rate_limited');
    expect(eleventh.response.headers.get('ratelimit-limit')).toBe('10');

    // 10 more on the second drop: 20 wrong from this address in all, each still a plain 403.
    for (let i = 1; i <= 10; i++) expect((await openDrop(drops[1], `wrong ${i}`)).response.status).toBe(403);

    // The 21st is refused on a drop this address never tried.
    const twentyFirst = await openDrop(drops[2], 'wrong 21');
    expectError(twentyFirst.response, twentyFirst.error, 429, 'rate_limited');
    const retryAfter = Number(twentyFirst.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(twentyFirst.response.headers.get('ratelimit-limit')).toBe('20');
    expect(twentyFirst.error!.error.message).toMatch(/wrong passwords for drops from your address/);
    // Even the right password: a guesser learns nothing more for the rest of the minute.
    expect((await openDrop(drops[2], 'third secret')).response.status).toBe(429);

    // Another address has a budget of its own.
    const elsewhere = await fetch(`${t.baseUrl}/v1/public/drops/${drops[2]}`, { headers: { 'drop-password': 'third secret' }, dispatcher: otherAddress });
    expect(elsewhere.status).toBe(200);
    await elsewhere.arrayBuffer();
    const elsewhereWrong = await fetch(`${t.baseUrl}/v1/public/drops/${drops[2]}`, { headers: { 'drop-password': 'not it' }, dispatcher: otherAddress });
    expect(elsewhereWrong.status).toBe(403);
    await elsewhereWrong.arrayBuffer();
  });
});
