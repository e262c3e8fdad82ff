import type { ValueTransformer } from 'typeorm';

/** pg returns bigint as string; our counters stay far below 2^53. */
export const bigintToNumber: ValueTransformer = {
  to: (value?: number | null) => value,
  from: (value?: string | null) => (value === null || value === undefined ? value : Number(value)),
};
