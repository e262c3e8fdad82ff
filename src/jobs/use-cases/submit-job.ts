import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Account } from '../../accounts/account.entity';
import { Clock } from '../../common/clock';
import { Transactions } from '../../database/transactions';
import type { PlannedStep } from '../../tools/pipeline-plan';
import type { ToolDefinition } from '../../tools/tool-registry';
import { IdempotencyService, type IdempotentRequest, type StoredResponse } from '../idempotency.service';
import { type Admission, JobAdmission } from '../job-admission';
import { JobDispatch } from '../job-dispatch';
import { JobInputs } from '../job-inputs';
import { DomainError } from '../../common/domain-error';

export interface SubmitJobCommand {
  account: Pick<Account, 'id' | 'plan'>;
  key: { id: string; dailyCap: number | null; monthlyCap: number | null };
  tool: ToolDefinition;
  input: { url?: string; fileId?: string };
  options: Record<string, unknown>;
  webhookUrl: string | null;
  idempotency?: IdempotentRequest;
  /** A job with steps (its first step's tool is `tool`), in the plan's order; `stepOrder` as given. */
  pipeline?: PlannedStep[];
  stepOrder?: string[];
}

/**
 * What a submission and a quote both judge: the command with its input resolved (an upload looked
 * up, nothing fetched). Every step that reads the job's input must take its kind.
 */
export async function admissionOf(inputs: JobInputs, command: SubmitJobCommand): Promise<Admission> {
  const readers = command.pipeline ? command.pipeline.filter((s) => s.input === null).map((s) => s.tool) : [command.tool];
  return {
    accountId: command.account.id,
    key: command.key,
    tool: command.tool,
    input: await inputs.resolve(command.account, command.input, readers),
    options: command.options,
    webhookUrl: command.webhookUrl,
    idempotency: command.idempotency,
    pipeline: command.pipeline,
    stepOrder: command.stepOrder,
  };
}

/**
 * POST /v1/jobs once the request is valid, top to bottom: with an idempotency key, take the key's
 * lock (a twin waits there) and check the record once — a recorded answer is replayed; then
 * resolve an uploaded input, admit in one transaction, enqueue once. Returns the answer to
 * record and give (an idempotent replay answers with the original status and body).
 */
@Injectable()
export class SubmitJob {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly inputs: JobInputs,
    private readonly transactions: Transactions,
    private readonly admission: JobAdmission,
    private readonly dispatch: JobDispatch,
    private readonly clock: Clock,
  ) {}

  execute(command: SubmitJobCommand): Promise<StoredResponse> {
    const { idempotency } = command;
    if (!idempotency) return this.admitAndEnqueue(command);
    return this.idempotency.exclusively(command.key.id, idempotency, async (connection) => {
      const replay = await this.idempotency.replay(command.key.id, idempotency, this.clock.now(), connection);
      return replay ?? this.admitAndEnqueue(command, connection);
    });
  }

  private async admitAndEnqueue(command: SubmitJobCommand, connection?: EntityManager): Promise<StoredResponse> {
    const admission = { ...(await admissionOf(this.inputs, command)), enqueueAtCommit: true };
    const admit = (tx: EntityManager) => this.admission.admitIn(tx, admission);
    const result = await (connection ? connection.transaction(admit) : this.transactions.run(admit));
    if (result.outcome === 'refused') {
      const { code, message, retryAfterSeconds } = result.refusal;
      throw new DomainError(code, message, { retryAfterSeconds });
    }
    await this.dispatch.enqueueOrWithdraw(result.job, connection);
    const { id } = result.job;
    return { status: 202, body: { id, state: 'queued', statusUrl: `/v1/jobs/${id}` } };
  }
}
