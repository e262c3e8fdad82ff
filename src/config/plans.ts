export type Plan = 'free' | 'pro' | 'max';

export interface PlanLimits {
  requestsPerSecond: number;
  inFlightJobs: number;
  maxFileSizeMB: number;
  jobWebhooks: boolean;
}

/** docs/decisions.md §3. `bench` is not sold: it exists so benchmarks are not capped by the rate limit. */
export const PLAN_LIMITS: Record<Plan | 'bench', PlanLimits> = {
  free: { requestsPerSecond: 5, inFlightJobs: 2, maxFileSizeMB: 25, jobWebhooks: false },
  pro: { requestsPerSecond: 20, inFlightJobs: 10, maxFileSizeMB: 500, jobWebhooks: true },
  max: { requestsPerSecond: 50, inFlightJobs: 50, maxFileSizeMB: 2048, jobWebhooks: true },
  bench: { requestsPerSecond: 1_000_000, inFlightJobs: 100_000, maxFileSizeMB: 2048, jobWebhooks: true },
};

export const PLANS = ['free', 'pro', 'max', 'bench'] as const;

export function limitsOf(plan: string): PlanLimits {
  return PLAN_LIMITS[plan as Plan] ?? PLAN_LIMITS.free;
}

export const MB = 1024 * 1024;
