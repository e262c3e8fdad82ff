import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { classifyAddress, isAllowedPrivate, PUBLIC } from './address-policy';

/**
 * The connect-time half of the SSRF guard: an undici Agent whose sockets can only be opened to
 * addresses the policy allows. Node's net/tls connect resolves the hostname through our lookup,
 * which refuses the whole answer if any address in it is forbidden, and then connects to exactly
 * the addresses that lookup returned: no second resolution, so no DNS-rebinding gap. IP literals
 * are never looked up by Node, so the connector checks them itself. The socket still connects by
 * hostname, so undici's Host header and TLS SNI stay the URL's.
 */

/** Raised inside the connector; GuardedHttpClient turns it into FetchError('blocked_address'). */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_SSRF_BLOCKED_ADDRESS';
  readonly name = 'BlockedAddressError';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`SSRF guard: ${host} → ${address} (${range}) is not allowed`);
  }
}

/** Undefined when `address` may be connected to for `host`, else the error to fail with. */
export function checkAddress(host: string, address: string, allowPrivateHosts: readonly string[]): BlockedAddressError | undefined {
  const range = classifyAddress(address);
  if (range === PUBLIC || isAllowedPrivate(host, address, allowPrivateHosts)) return undefined;
  return new BlockedAddressError(host, address, range);
}

/** Wraps a lookup (dns.lookup by default) so that it only ever answers with allowed addresses. */
export function createGuardedLookup(allowPrivateHosts: readonly string[], lookup: LookupFunction = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (err, address, family) => {
      if (err) {
        callback(err, address, family);
        return;
      }
      const answers = Array.isArray(address) ? address : [{ address, family }];
      for (const answer of answers) {
        const blocked =
          typeof answer.address === 'string' ? checkAddress(hostname, answer.address, allowPrivateHosts) : new BlockedAddressError(hostname, String(answer.address), 'invalid');
        if (blocked) {
          callback(blocked, options.all ? [] : '', family);
          return;
        }
      }
      callback(null, address, family);
    });
  };
}

export interface GuardedDispatcherOptions {
  allowPrivateHosts: readonly string[];
  /** DNS resolution; dns.lookup unless a test injects one. */
  lookup?: LookupFunction;
  connectTimeoutMs?: number;
}

export function createGuardedDispatcher(options: GuardedDispatcherOptions): Agent {
  const { allowPrivateHosts } = options;
  const connectChecked = buildConnector({
    lookup: createGuardedLookup(allowPrivateHosts, options.lookup),
    timeout: options.connectTimeoutMs ?? 10_000,
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) {
      const blocked = checkAddress(host, host, allowPrivateHosts);
      if (blocked) {
        callback(blocked, null);
        return;
      }
    }
    connectChecked(connectOptions, callback);
  };
  return new Agent({ connect });
}
