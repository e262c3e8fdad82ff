import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { AppConfig } from '../config/config';

/**
 * Concurrent public uploads per client IP (PUBLIC_UPLOADS_PER_IP): a stranger cannot hold every
 * socket and disk stream of the process with many slow uploads at once. Counted per process,
 * in memory: a slot must never outlive its request, which a shared counter could after a crash.
 */
@Injectable()
export class UploadSlots {
  private readonly inProgress = new Map<string, number>();

  constructor(private readonly config: AppConfig) {}

  /** Takes a slot for `ip` or throws 429 `too_many_uploads`; the returned function frees it (once). */
  acquire(ip: string): () => void {
    const held = this.inProgress.get(ip) ?? 0;
    const cap = this.config.PUBLIC_UPLOADS_PER_IP;
    if (held >= cap) {
      throw new ApiError(
        HttpStatus.TOO_MANY_REQUESTS,
        'too_many_uploads',
        `At most ${cap} uploads from one address may be in progress at once; retry when one has finished.`,
        undefined,
        // The RateLimit-* fields describe this limit too: `cap` uploads at once, none left now.
        { 'Retry-After': 1, 'RateLimit-Limit': cap, 'RateLimit-Remaining': 0, 'RateLimit-Reset': 1 },
      );
    }
    this.inProgress.set(ip, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inProgress.get(ip) ?? 1) - 1;
      if (left > 0) this.inProgress.set(ip, left);
      else this.inProgress.delete(ip);
    };
  }
}
