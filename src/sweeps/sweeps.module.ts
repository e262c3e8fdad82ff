import { Module } from '@nestjs/common';
import { ExclusiveSweeps } from './exclusive-sweeps';

/**
 * One process per deployment for each background sweep (a Postgres advisory lock), for every
 * module that sweeps: the job and webhook sweepers and retention in workers, the tus sweep in API processes.
 */
@Module({ providers: [ExclusiveSweeps], exports: [ExclusiveSweeps] })
export class ExclusiveSweepsModule {}
