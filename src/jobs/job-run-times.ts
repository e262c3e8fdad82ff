import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { firstRow } from '../database/sql';
import type { PlannedStep } from '../tools/pipeline-plan';

/** How many of a tool's most recent completed runs an estimate looks at: a bounded index read however long the history. */
export const RUN_HISTORY_WINDOW = 500;
/** Fewer similar runs than this and the estimate is null: one or two runs say little. */
export const MIN_RUN_SAMPLES = 3;
/** A past run counts when its input was within this factor of the quoted input's size (both ways). */
export const SIZE_FACTOR = 2;

/**
 * A quote's run-time estimate from this deployment's own history (the contract's `JobQuote`): per
 * tool, the median of finished_at - started_at over its latest completed runs (jobs_run_history_idx),
 * kept to inputs of a similar size when the size is known. Any account's runs count: a tool's
 * speed on this machine does not depend on who asked.
 */
@Injectable()
export class JobRunTimes {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The median seconds of `tool` for an input of `size` bytes (null: any size), or null with too little history. */
  async medianSeconds(tool: string, size: number | null): Promise<number | null> {
    const row = await firstRow<{ median: number | null; samples: number }>(
      this.db.manager,
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS median, count(*)::int AS samples FROM (
         SELECT EXTRACT(EPOCH FROM finished_at - started_at)::float8 AS seconds, (input->>'size')::float8 AS size FROM jobs
          WHERE tool = $1 AND state = 'completed' AND started_at IS NOT NULL AND steps IS NULL
          ORDER BY finished_at DESC LIMIT ${RUN_HISTORY_WINDOW}
       ) recent WHERE $2::float8 IS NULL OR size BETWEEN $2::float8 / ${SIZE_FACTOR} AND $2::float8 * ${SIZE_FACTOR}`,
      [tool, size],
    );
    return row && row.samples >= MIN_RUN_SAMPLES && row.median !== null ? Number(row.median) : null;
  }

  /**
   * A job's estimate: its tool's median, or a pipeline's longest chain of step medians (steps
   * reading the job's input start together; a reader starts when its input step ends). Only the
   * steps reading the job's input know their input's size. Null when any tool lacks history.
   */
  async estimate(tool: string, size: number | null, pipeline?: readonly PlannedStep[]): Promise<number | null> {
    if (!pipeline) return this.medianSeconds(tool, size);
    const own = new Map<string, number | null>();
    for (const step of pipeline) own.set(step.name, await this.medianSeconds(step.tool.slug, step.input === null ? size : null));
    if ([...own.values()].some((s) => s === null)) return null;
    return longestChain(pipeline, own as Map<string, number>);
  }
}

/** The end time of the last step, each step starting when the one it reads ends; `plan` lists a step after the one it reads. */
export function longestChain(plan: readonly Pick<PlannedStep, 'name' | 'input'>[], seconds: ReadonlyMap<string, number>): number {
  const endsAt = new Map<string, number>();
  for (const step of plan) endsAt.set(step.name, (step.input === null ? 0 : endsAt.get(step.input)!) + seconds.get(step.name)!);
  return Math.max(0, ...endsAt.values());
}
