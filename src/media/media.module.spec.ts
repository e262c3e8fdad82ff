import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/config';
import { MediaError } from './media.errors';
import { MediaModule } from './media.module';
import { MediaEngine } from './media-engine';

describe('MediaModule', () => {
  it('provides MediaEngine without ConfigModule in scope', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [MediaModule] }).compile();
    expect(moduleRef.get(MediaEngine)).toBeInstanceOf(MediaEngine);
  });

  it('takes FFPROBE_PATH from AppConfig when present', async () => {
    const config = Object.assign(new AppConfig(), { FFPROBE_PATH: '/nonexistent/ffprobe' });
    @Global()
    @Module({ providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] })
    class FakeConfigModule {}
    const moduleRef = await Test.createTestingModule({ imports: [FakeConfigModule, MediaModule] }).compile();
    const dir = await mkdtemp(join(tmpdir(), 'dropline-media-module-'));
    try {
      const file = join(dir, 'x.bin');
      await writeFile(file, 'not an image, so probe asks ffprobe');
      const err = await moduleRef
        .get(MediaEngine)
        .probe(file)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaError);
      expect(err).toMatchObject({ code: 'processing_failed', message: 'ffprobe is not available on this server.' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('can also be listed as a plain class provider (options are optional)', async () => {
    const moduleRef = await Test.createTestingModule({ providers: [MediaEngine] }).compile();
    expect(moduleRef.get(MediaEngine)).toBeInstanceOf(MediaEngine);
  });
});
