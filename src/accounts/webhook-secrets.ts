import { randomString } from '../common/ids';
import type { Account } from './account.entity';

/** How long the secret a rotation replaced keeps signing deliveries beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(randomString(32)).toString('base64')}`;
}

/** The secrets a delivery is signed with now: the current one, then the replaced one within its grace period. */
export function signingSecrets(account: Pick<Account, 'webhookSecret' | 'previousWebhookSecret' | 'webhookSecretRotatedAt'>, now: Date): string[] {
  const rotatedAt = account.webhookSecretRotatedAt?.getTime();
  const inGrace = account.previousWebhookSecret && rotatedAt !== undefined && now.getTime() - rotatedAt < PREVIOUS_SECRET_GRACE_MS;
  return inGrace ? [account.webhookSecret, account.previousWebhookSecret!] : [account.webhookSecret];
}
