import type { IncomingMessage } from 'node:http';

/** Who sent a request, for its request log line. */
export interface RequestIdentity {
  accountId: string;
  keyId: string;
}

const identities = new WeakMap<IncomingMessage, RequestIdentity>();

/** Called once a request's API key is known: its request log line then names the account and key. */
export function identifyRequest(req: IncomingMessage, who: RequestIdentity): void {
  identities.set(req, who);
}

/** The fields of `req`'s request log line that name its caller; none for a public or refused request. */
export function requestIdentity(req: IncomingMessage): Partial<RequestIdentity> {
  return identities.get(req) ?? {};
}
