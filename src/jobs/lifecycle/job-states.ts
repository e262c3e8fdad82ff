/**
 * A job's life in one table (pure: no Nest, no SQL driver). Every write of `jobs.state` is one of
 * these transitions, and the repository takes each UPDATE's allowed from-states from here, so a
 * transition missing from the table cannot happen: the UPDATE matches no row.
 *
 *   queued ──start──▶ running ──complete──▶ completed
 *     │  ▲              │  │
 *     │  └──requeue─────┘  └──fail──▶ failed ◀──fail── queued
 *     └──cancel──▶ canceled ◀──stop── running   (pipelines and their steps only)
 *
 * `start` also takes a `running` job over when the run holding it stopped renewing its lease (its
 * worker died): running → running.
 */
export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Every job is born queued (the admission's INSERT). */
export const INITIAL_STATE = 'queued' satisfies JobState;
/** Queued or running: counts against the account's in-flight limit and the fair share. */
export const IN_FLIGHT_STATES = ['queued', 'running'] as const satisfies readonly JobState[];
/** A job in one of these states never changes state again. */
export const FINAL_STATES = ['completed', 'failed', 'canceled'] as const satisfies readonly JobState[];

export interface Transition {
  readonly from: readonly JobState[];
  readonly to: JobState;
}

export const TRANSITIONS = {
  /** A run claims the job (or takes over a run whose lease lapsed). */
  start: { from: ['queued', 'running'], to: 'running' },
  /** A transient failure: back in line for BullMQ's retry. */
  requeue: { from: ['running'], to: 'queued' },
  complete: { from: ['running'], to: 'completed' },
  /** A permanent failure, the last retry, or the sweeper's verdict on a job the queue lost. */
  fail: { from: ['queued', 'running'], to: 'failed' },
  /** Only a job nobody has started can be canceled. */
  cancel: { from: ['queued'], to: 'canceled' },
  /**
   * A pipeline canceled while it runs, and its running steps (their run stops its tool at its next
   * heartbeat; `complete` no longer matches). Never a single-tool job: CancelJob asks `cancel` for those.
   */
  stop: { from: ['running'], to: 'canceled' },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

export function canMove(from: JobState, to: JobState): boolean {
  return Object.values(TRANSITIONS).some((t: Transition) => t.to === to && t.from.includes(from));
}

export function isFinal(state: JobState): boolean {
  return (FINAL_STATES as readonly JobState[]).includes(state);
}

/** Throws on a move the table does not allow: a bug, never a user error. */
export function assertTransition(from: JobState, to: JobState): void {
  if (!canMove(from, to)) throw new Error(`Forbidden job state transition ${from} → ${to}`);
}

/** `'queued', 'running'` — a transition's from-states as a SQL list (the names are this module's constants, never input). */
export function sqlStates(states: readonly JobState[]): string {
  return states.map((s) => `'${s}'`).join(', ');
}

/** The SQL list of the states a transition may start from. */
export function fromStatesSql(name: TransitionName): string {
  return sqlStates(TRANSITIONS[name].from);
}
