import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { MediaEngine } from './media-engine';

/**
 * Provides MediaEngine. Program paths come from the validated config alone (FFMPEG_PATH,
 * FFPROBE_PATH, SOFFICE_PATH, PDFTOPPM_PATH, PDFINFO_PATH): the media layer reads no environment.
 * Without ConfigModule in scope (unit tests, benches) the programs on PATH run.
 */
@Module({
  providers: [
    {
      provide: MediaEngine,
      inject: [{ token: AppConfig, optional: true }],
      useFactory: (config?: AppConfig) =>
        new MediaEngine({
          ffmpegPath: config?.FFMPEG_PATH,
          ffprobePath: config?.FFPROBE_PATH,
          sofficePath: config?.SOFFICE_PATH,
          pdftoppmPath: config?.PDFTOPPM_PATH,
          pdfinfoPath: config?.PDFINFO_PATH,
        }),
    },
  ],
  exports: [MediaEngine],
})
export class MediaModule {}
