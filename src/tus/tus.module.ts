import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ExclusiveSweepsModule } from '../sweeps/sweeps.module';
import { DropsModule } from '../drops/drops.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { UploadsModule } from '../uploads/uploads.module';
import { AdmittedUploads } from './admitted-uploads';
import { DropTusController } from './drop-tus.controller';
import { DropTusService } from './drop-tus.service';
import { RedisLocker } from './redis-locker';
import { TusSweeper } from './tus-sweeper';
import { tusStorageProvider } from './tus-storage.provider';
import { UploadTusController } from './upload-tus.controller';
import { UploadTusService } from './upload-tus.service';

/** Resumable uploads (tus 1.0) for drops and for the jobs API, over the configured storage. */
@Module({
  // AuthModule: the tus routes are rate-limited and size-limited like every other route.
  imports: [AuthModule, DropsModule, SubmissionsModule, UploadsModule, ExclusiveSweepsModule],
  controllers: [DropTusController, UploadTusController],
  providers: [tusStorageProvider, RedisLocker, AdmittedUploads, DropTusService, UploadTusService, TusSweeper],
})
export class TusModule {}
