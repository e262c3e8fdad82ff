import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ListenClient } from '../database/listen-client';
import { NotifyCache } from '../database/notify-cache';
import type { Drop } from './drop.entity';

/** The channel the drops trigger notifies on, with the slug (migration 1764100000200-drops-notify). */
export const DROPS_CHANNEL = 'dropline_drops';

/** Where owner reads found their drop; the two-process invalidation test reads it too. */
export const dropLookups = new Counter({
  name: 'dropline_drop_lookups_total',
  help: 'Drop rows read by slug for the owner API, by source: the in-process cache or the database',
  labelNames: ['source'] as const,
});

/**
 * Drop rows by slug, so the owner's `GET /v1/drops/{slug}` needs no database round trip. Every
 * change of a drop row (settings, counters, deletion) notifies its slug and every API process
 * forgets it; a read served from here first waits for a `SELECT 1` on the listening connection
 * shared with the reads around it (ListenClient.sync), so a change another process answered
 * before the read began is always seen. Only the HTTP app has this provider (DropsModule).
 * Cached rows are shared: callers must not mutate them.
 */
@Injectable()
export class DropCache extends NotifyCache<Readonly<Drop>> {
  constructor(listen: ListenClient) {
    super(listen, { channel: DROPS_CHANNEL, maxEntries: 10_000, maxAgeMs: 10 * 60_000 });
  }
}
