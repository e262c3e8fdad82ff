import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a server-side fetch of a user-given URL may reach (docs/decisions.md §7).
 * Pure functions, no I/O: the range tables are ipaddr.js's; this file only decides which of
 * its range names count as "public".
 */

/** What classifyAddress answers for an address anyone on the internet could also reach. */
export const PUBLIC = 'public';

/**
 * Well-known cloud instance-metadata endpoints, named separately so logs say what was tried.
 * (They also fall in ranges refused anyway: link-local, unique-local, CGNAT, reserved.)
 */
const CLOUD_METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192'].map((ip) => ipaddr.parse(ip).toString()));

/** IPv6 global unicast; ipaddr.js calls everything it has no name for "unicast", including unassigned space. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** Deprecated IPv4-compatible IPv6 (::a.b.c.d), which ipaddr.js does not name. */
const IPV6_IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * The address a host string denotes when it is an IP literal, in canonical form; null when it is
 * a name (or not a valid address at all).
 *
 * IPv4 is read as the WHATWG URL host parser reads it (what `new URL()` does to http/https hosts:
 * `2130706433`, `0x7f000001`, `017700000001`, `127.1`, `127.0.0.1.` are all 127.0.0.1), with
 * ipaddr.js's inet_aton-style parser (what the OS resolver accepts) as a second opinion.
 * IPv6 may come bracketed, as in a URL. IPv4-mapped IPv6 stays IPv6 (it is refused as such).
 */
export function parseHostAddress(host: string): string | null {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === '') return null;
  if (ipaddr.IPv6.isValid(h)) {
    // The URL parser first: ipaddr.js reads the dotted tail of '::127.0.0.1' as '::ffff:127.0.0.1'.
    // It refuses zone ids ('fe80::1%eth0'), which ipaddr.js keeps.
    try {
      const viaUrl = new URL(`http://[${h}]/`).hostname.slice(1, -1);
      if (isIP(viaUrl) === 6) return viaUrl;
    } catch {
      // fall through
    }
    return ipaddr.IPv6.parse(h).toString();
  }
  // Only strings made of number characters can be IPv4; anything else is a name, and feeding it
  // to the URL parser could let '/', '@' or ':' change what is parsed.
  if (!/^[0-9a-fx.]+$/.test(h)) return null;
  try {
    const viaUrl = new URL(`http://${h}/`).hostname;
    if (isIP(viaUrl) === 4) return viaUrl;
  } catch {
    // not a valid URL host; the resolver's reading below may still accept it
  }
  if (ipaddr.IPv4.isValid(h)) return ipaddr.IPv4.parse(h).toString();
  return null;
}

/**
 * The range an address belongs to: 'public' for a reachable-from-anywhere unicast address, else
 * ipaddr.js's range name ('private', 'loopback', 'linkLocal', 'carrierGradeNat', 'multicast',
 * 'broadcast', 'unspecified', 'reserved', 'uniqueLocal', 'ipv4Mapped', 'rfc6052', '6to4',
 * 'teredo', …) or one of ours: 'cloudMetadata', 'ipv4Compatible', 'reserved' (IPv6 outside
 * 2000::/3), 'invalid' (not an IP address).
 */
export function classifyAddress(ip: string): string {
  const canonical = parseHostAddress(ip);
  if (canonical === null) return 'invalid';
  if (CLOUD_METADATA.has(canonical)) return 'cloudMetadata';
  const addr = ipaddr.parse(canonical);
  const range = addr.range();
  if (range !== 'unicast') return range;
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    // Every IPv6 form that embeds or translates to IPv4 (mapped, NAT64, 6to4, Teredo, SIIT) has a
    // range name above and is refused whatever IPv4 it carries; this one has none.
    if (v6.match(IPV6_IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!v6.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  }
  return PUBLIC;
}

/** True for every address a fetch must not connect to (and for anything that is not an address). */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip) !== PUBLIC;
}

function normalizeHostName(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function entryMatchesAddress(entry: string, address: string | null): boolean {
  if (address === null) return false;
  if (entry.includes('/')) {
    try {
      const [range, bits] = ipaddr.parseCIDR(entry);
      const addr = ipaddr.parse(address);
      return addr.kind() === range.kind() && addr.match(range, bits);
    } catch {
      return false;
    }
  }
  // Entries are operator config: only strict IP spellings count as IPs, anything else is a name.
  return isIP(entry) !== 0 && ipaddr.parse(entry).toString() === address;
}

/**
 * The ALLOW_PRIVATE_HOSTS escape hatch: true when an entry names the URL's hostname, or is the
 * resolved IP (or a CIDR containing it). Entries are compared case-insensitively, brackets and a
 * trailing dot ignored; an IPv4 entry does not match the IPv4-mapped IPv6 form of that address.
 */
export function isAllowedPrivate(host: string, ip: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return false;
  const name = normalizeHostName(host);
  const hostAddress = parseHostAddress(name);
  const address = parseHostAddress(ip);
  return allowList.some((raw) => {
    const entry = normalizeHostName(raw);
    if (entry === '') return false;
    if (entry === name) return true;
    return entryMatchesAddress(entry, address) || entryMatchesAddress(entry, hostAddress);
  });
}
