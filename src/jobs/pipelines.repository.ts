import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type Db, firstRow, rows } from '../database/sql';
import type { Job, JobInput } from './job.entity';
import { COLUMNS, FAIR_SHARE_RANK, FINISHED_COLUMNS, type FinishedJob, HAS_CONSEQUENCES, INITIAL, type RankedJob, transition } from './jobs.repository';

const COMPLETE = transition('complete');
const FAIL = transition('fail');
const CANCEL = transition('cancel');
const STOP = transition('stop');

/**
 * The rows of jobs with steps (docs/adr/0006-pipelines.md): a pipeline job and its step jobs. The
 * steps are ordinary jobs (claimed, run, retried and settled like any), so only what ties them
 * together is here: reading them, unblocking a step once its input is ready, failing its readers,
 * and the pipeline's own state writes, each from the lifecycle table.
 */
@Injectable()
export class PipelinesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The steps of these pipelines (any order). */
  findSteps(pipelineIds: string[], db: Db = this.db): Promise<Job[]> {
    if (pipelineIds.length === 0) return Promise.resolve([]);
    return rows<Job>(db, `SELECT ${COLUMNS} FROM jobs WHERE pipeline_id = ANY($1::text[])`, [pipelineIds]);
  }

  /** The pipeline row, locked: every change of a pipeline's steps' course runs under it, one at a time. */
  lock(tx: Db, id: string): Promise<Job | undefined> {
    return firstRow<Job>(tx, `SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND steps IS NOT NULL FOR UPDATE`, [id]);
  }

  /** The steps reading `stepName`'s output may run now: their input is that output. Returned with their fair-share rank, to enqueue. */
  unblockReaders(tx: Db, pipelineId: string, stepName: string, input: JobInput): Promise<RankedJob[]> {
    return rows<RankedJob>(
      tx,
      `UPDATE jobs SET step_blocked = false, input = $3 WHERE pipeline_id = $1 AND step_input = $2 AND step_blocked AND state = ${INITIAL}
       RETURNING ${COLUMNS}, ${FAIR_SHARE_RANK}`,
      [pipelineId, stepName, JSON.stringify(input)],
    );
  }

  /** A pipeline admitted while its account waited for a slot got one: the steps reading the job's input may run. */
  unblockFirstSteps(tx: Db, pipelineId: string): Promise<RankedJob[]> {
    return rows<RankedJob>(
      tx,
      `UPDATE jobs SET step_blocked = false WHERE pipeline_id = $1 AND step_input IS NULL AND step_blocked AND state = ${INITIAL}
       RETURNING ${COLUMNS}, ${FAIR_SHARE_RANK}`,
      [pipelineId],
    );
  }

  /** Steps that will never run (what they read failed): → failed. Returns those that moved. */
  failSteps(tx: Db, ids: string[], code: string, message: string, at: Date): Promise<Job[]> {
    return rows<Job>(
      tx,
      `UPDATE jobs SET state = ${FAIL.to}, error_code = $2, error_message = $3, finished_at = $4, step_blocked = false
       WHERE id = ANY($1::text[]) AND state IN (${FAIL.from}) RETURNING ${COLUMNS}`,
      [ids, code, message, at],
    );
  }

  /** A canceled pipeline's unfinished steps: queued ones → canceled, running ones stopped (their run kills its tool at its next heartbeat). */
  cancelSteps(tx: Db, pipelineId: string, at: Date): Promise<Job[]> {
    return rows<Job>(
      tx,
      `UPDATE jobs SET state = CASE WHEN state IN (${CANCEL.from}) THEN ${CANCEL.to} ELSE ${STOP.to} END,
         error_code = 'canceled', error_message = 'The job was canceled before this step finished.', finished_at = $2, step_blocked = false
       WHERE pipeline_id = $1 AND (state IN (${CANCEL.from}) OR state IN (${STOP.from})) RETURNING ${COLUMNS}`,
      [pipelineId, at],
    );
  }

  /** The pipeline itself: queued → canceled, or running → canceled (stop). */
  cancel(tx: Db, id: string, at: Date): Promise<Job | undefined> {
    return firstRow<Job>(
      tx,
      `UPDATE jobs SET state = CASE WHEN state IN (${CANCEL.from}) THEN ${CANCEL.to} ELSE ${STOP.to} END, finished_at = $2
       WHERE id = $1 AND steps IS NOT NULL AND (state IN (${CANCEL.from}) OR state IN (${STOP.from})) RETURNING ${COLUMNS}`,
      [id, at],
    );
  }

  /** Every step completed: running → completed. Its files stay on the steps' rows (retention treats them as any job's). */
  complete(tx: Db, id: string, at: Date): Promise<FinishedJob | undefined> {
    return firstRow<FinishedJob>(
      tx,
      `UPDATE jobs SET state = ${COMPLETE.to}, progress = 100, result = '{}', finished_at = $2, consequences_pending = ${HAS_CONSEQUENCES}
       WHERE id = $1 AND steps IS NOT NULL AND state IN (${COMPLETE.from}) RETURNING ${FINISHED_COLUMNS}`,
      [id, at],
    );
  }

  /** A step failed and none is left running: → failed with that step's error; `refunded` once every step's credits came back. */
  fail(tx: Db, id: string, code: string, message: string, at: Date): Promise<FinishedJob | undefined> {
    return firstRow<FinishedJob>(
      tx,
      `UPDATE jobs SET state = ${FAIL.to}, error_code = $2, error_message = $3, finished_at = $4, consequences_pending = ${HAS_CONSEQUENCES},
         refunded = NOT EXISTS (SELECT 1 FROM jobs s WHERE s.pipeline_id = jobs.id AND NOT s.refunded)
       WHERE id = $1 AND steps IS NOT NULL AND state IN (${FAIL.from}) RETURNING ${FINISHED_COLUMNS}`,
      [id, code, message, at],
    );
  }

  /** `refunded` of a pipeline: true once every step's credits came back. */
  async updateRefunded(tx: Db, id: string): Promise<boolean> {
    const row = await firstRow<{ refunded: boolean }>(
      tx,
      'UPDATE jobs SET refunded = NOT EXISTS (SELECT 1 FROM jobs s WHERE s.pipeline_id = jobs.id AND NOT s.refunded) WHERE id = $1 RETURNING refunded',
      [id],
    );
    return row?.refunded ?? false;
  }
}
