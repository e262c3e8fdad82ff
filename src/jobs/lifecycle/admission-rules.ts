import { limitsOf } from '../../config/plans';

/**
 * Whether a job may be admitted (docs/decisions.md §7), as a pure function of what the admission
 * transaction read under the account lock. It answers a refusal (a code and a message, no HTTP:
 * the presenter maps codes to statuses) or the charge to write.
 */
export interface AdmissionFacts {
  account: { balance: number; plan: string };
  /** The submitting key's spend caps; null for a drop's auto-conversion. */
  key: { dailyCap: number | null; monthlyCap: number | null } | null;
  tool: { cost: number };
  counts: {
    /** The account's queued or running jobs, not counting those waiting for a slot. */
    inFlight: number;
    /** Of those, on the tool's queue: the new job's fair-share rank. */
    inFlightOnQueue: number;
    /** Debits of the key in the UTC day and month (0 when the key has no caps). */
    spentToday: number;
    spentThisMonth: number;
  };
  /** Drop auto-conversion: over the in-flight limit the job is admitted and waits for a slot. */
  waitForSlot?: boolean;
}

/** `tool_unavailable` is decided before these rules (JobAdmission: a program the tool runs is missing), with nothing read or locked. */
export type RefusalCode = 'insufficient_credits' | 'spend_cap_reached' | 'concurrency_exceeded' | 'tool_unavailable';

export interface Refusal {
  refused: true;
  code: RefusalCode;
  message: string;
  /** Seconds a client should wait before trying again, where that is known. */
  retryAfterSeconds?: number;
}

export interface Charge {
  refused: false;
  cost: number;
  /** Admitted over the in-flight limit: paid, but queued only once a slot frees. */
  waitForSlot: boolean;
  /** How many of the account's jobs on the queue are ahead of this one (its BullMQ priority - 1). */
  fairShareRank: number;
}

export function decideAdmission(f: AdmissionFacts): Refusal | Charge {
  const cost = f.tool.cost;
  if (f.account.balance < cost) {
    return refuse('insufficient_credits', `This job costs ${cost} credit${cost === 1 ? '' : 's'}; the balance is ${f.account.balance}.`);
  }
  const capRefusal = spendCapRefusal(f);
  if (capRefusal) return capRefusal;
  const limit = limitsOf(f.account.plan).inFlightJobs;
  const overLimit = f.counts.inFlight >= limit;
  if (overLimit && !f.waitForSlot) {
    // A slot frees when a job ends, which cannot be predicted: 1 s is the shortest honest wait.
    return {
      ...refuse('concurrency_exceeded', `Too many jobs in flight: the ${f.account.plan} plan allows ${limit} queued or running jobs at once.`),
      retryAfterSeconds: 1,
    };
  }
  return { refused: false, cost, waitForSlot: overLimit, fairShareRank: f.counts.inFlightOnQueue };
}

/** Caps count debits only (decision §2): a refund gives the credits back but does not reopen a cap. */
function spendCapRefusal(f: AdmissionFacts): Refusal | undefined {
  if (!f.key) return undefined;
  const cost = f.tool.cost;
  for (const [cap, used, period] of [
    [f.key.dailyCap, f.counts.spentToday, 'daily'],
    [f.key.monthlyCap, f.counts.spentThisMonth, 'monthly'],
  ] as const) {
    if (cap !== null && used + cost > cap) {
      return refuse('spend_cap_reached', `This key's ${period} spend cap of ${cap} credits would be exceeded: ${used} spent, this job costs ${cost}.`);
    }
  }
  return undefined;
}

/** Whether the key has a cap, so the admission reads its spending only when it matters. */
export function hasSpendCap(key: AdmissionFacts['key']): boolean {
  return Boolean(key && (key.dailyCap !== null || key.monthlyCap !== null));
}

function refuse(code: RefusalCode, message: string): Refusal {
  return { refused: true, code, message };
}
