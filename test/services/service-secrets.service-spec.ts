import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../src/config/config';
import { DownloadUrlSigner } from '../../src/storage/download-url-signer';
import { ServiceSecretsRepository } from '../../src/storage/service-secrets.repository';
import { newServiceTest, type ServiceTest } from './service-test';

/** The secrets the service keeps for itself: made once, the same for every process, even when they start together. */
describe('ServiceSecretsRepository', () => {
  let module: ServiceTest;
  let secrets: ServiceSecretsRepository;

  beforeAll(async () => {
    module = await newServiceTest({ modules: [], env: { SIGNING_SECRET: '' } });
    secrets = module.get(ServiceSecretsRepository);
  });
  afterAll(() => module.close());

  it('concurrent first callers all get the one secret stored first, and it stays', async () => {
    const name = `test_${randomUUID()}`;
    const kept = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((candidate) => secrets.keepFirst(name, candidate)));
    expect(new Set(kept).size).toBe(1);
    expect(await secrets.keepFirst(name, 'later')).toBe(kept[0]);
  });

  it('signers started together without SIGNING_SECRET sign alike', async () => {
    const config = module.get(AppConfig);
    const signers = [0, 1, 2].map(() => new DownloadUrlSigner(config, undefined, secrets));
    await Promise.all(signers.map((signer) => signer.onModuleInit()));
    const urls = signers.map((signer) => signer.url('key_a', 'a.txt', 60, 0));
    expect(new Set(urls).size).toBe(1);
  });
});
