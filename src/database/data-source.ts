import 'reflect-metadata';
import type { DataSourceOptions } from 'typeorm';
import { Init1763700000000 } from './migrations/1763700000000-init';
import { Submissions1763700000001 } from './migrations/1763700000001-submissions';
import { WebhookDeliveries1763700000002 } from './migrations/1763700000002-webhook-deliveries';
import { Jobs1763700000003 } from './migrations/1763700000003-jobs';
import { Idempotency1763700000004 } from './migrations/1763700000004-idempotency';
import { JobDeployment1763800000000 } from './migrations/1763800000000-job-deployment';
import { ServiceSecrets1763800000010 } from './migrations/1763800000010-service-secrets';
import { SubmissionProcessingError1763800000011 } from './migrations/1763800000011-submission-processing-error';
import { AuthNotify1763900000000 } from './migrations/1763900000000-auth-notify';
import { WebhookSecretRotation1763950000000 } from './migrations/1763950000000-webhook-secret-rotation';
import { JobWaitingForSlot1764000000100 } from './migrations/1764000000100-job-waiting-for-slot';
import { JobRunLease1764000000101 } from './migrations/1764000000101-job-run-lease';
import { JobConsequences1764000000102 } from './migrations/1764000000102-job-consequences';
import { DropsNotify1764100000200 } from './migrations/1764100000200-drops-notify';
import { Retention1764200000100 } from './migrations/1764200000100-retention';
import { ScaleIndexes1764200000101 } from './migrations/1764200000101-scale-indexes';
import { SpendCounters1764200000102 } from './migrations/1764200000102-spend-counters';
import { DropTrust1764200000300 } from './migrations/1764200000300-drop-trust';
import { Templates1764200000400 } from './migrations/1764200000400-templates';
import { JobOutputs1764200000600 } from './migrations/1764200000600-job-outputs';
import { JobEndedNotify1764200000900 } from './migrations/1764200000900-job-ended-notify';
import { Pipelines1764200001000 } from './migrations/1764200001000-pipelines';
import { TemplateStepOrder1764200001002 } from './migrations/1764200001002-template-step-order';
import { DropTemplates1764200001100 } from './migrations/1764200001100-drop-templates';
import { DropEvents1764300000500 } from './migrations/1764300000500-drop-events';
import { JobRunHistory1764300000600 } from './migrations/1764300000600-job-run-history';

/**
 * Every migration; the app, the CLI and the tests share this list. No entities: repositories speak
 * SQL (docs/adr/0005-raw-sql-repositories.md), so the data source needs no entity metadata, and the
 * database layer names no domain. The entities are row types, checked against the migrated schema
 * by test/services/schema-drift.service-spec.ts.
 */
export const MIGRATIONS = [
  Init1763700000000,
  Submissions1763700000001,
  WebhookDeliveries1763700000002,
  Jobs1763700000003,
  Idempotency1763700000004,
  JobDeployment1763800000000,
  ServiceSecrets1763800000010,
  SubmissionProcessingError1763800000011,
  AuthNotify1763900000000,
  WebhookSecretRotation1763950000000,
  JobWaitingForSlot1764000000100,
  JobRunLease1764000000101,
  JobConsequences1764000000102,
  DropsNotify1764100000200,
  Retention1764200000100,
  ScaleIndexes1764200000101,
  SpendCounters1764200000102,
  DropTrust1764200000300,
  Templates1764200000400,
  JobOutputs1764200000600,
  JobEndedNotify1764200000900,
  Pipelines1764200001000,
  TemplateStepOrder1764200001002,
  DropTemplates1764200001100,
  DropEvents1764300000500,
  JobRunHistory1764300000600,
];

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    extra: { max: 20 },
  };
}
