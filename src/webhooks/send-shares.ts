import { Injectable } from '@nestjs/common';

/** Deliveries one worker process sends at once (its BullMQ concurrency). */
export const WEBHOOK_SEND_SLOTS = 20;

/**
 * Shares this process's send slots among the accounts sending through them (docs/decisions.md §9).
 * With `n` accounts sending here, a share is `slots / (n + 1)` (at least 1). An account that sends
 * nothing here yet may take any free slot; one that already sends may take another only while it
 * holds less than a share and the accounts sending leave a share free. So accounts whose receivers
 * hang can never hold every slot: an account with a new delivery always finds one.
 * In memory: the slots it protects are this process's; the cap across processes is AccountSlots.
 */
@Injectable()
export class SendShares {
  private readonly held = new Map<string, number>();
  private busy = 0;

  /** One slot for the account, and the function that gives it back (once); undefined when it may not have one now. */
  take(accountId: string): (() => void) | undefined {
    const mine = this.held.get(accountId) ?? 0;
    if (this.busy >= WEBHOOK_SEND_SLOTS) return undefined;
    if (mine > 0) {
      const share = Math.max(1, Math.floor(WEBHOOK_SEND_SLOTS / (this.held.size + 1)));
      if (mine >= share || this.busy >= WEBHOOK_SEND_SLOTS - share) return undefined;
    }
    this.held.set(accountId, mine + 1);
    this.busy++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.busy--;
      const left = (this.held.get(accountId) ?? 1) - 1;
      if (left > 0) this.held.set(accountId, left);
      else this.held.delete(accountId);
    };
  }
}
