import ipaddr from 'ipaddr.js';

/**
 * Parses a CIDR or a single address (taken as /32 or /128); throws on anything else.
 * IPv4 must be four-part decimal: "1.2.3" is legal for inet_aton but surely a typo here.
 */
export function parseCidr(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const [address] = entry.split('/');
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) {
    throw new Error(`${entry} is not an IP address or CIDR`);
  }
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const addr = ipaddr.parse(entry);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

export function isValidCidr(entry: string): boolean {
  try {
    parseCidr(entry);
    return true;
  } catch {
    return false;
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4, what dual-stack sockets report) is compared as IPv4. */
function normalize(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(ip);
}

/** True when the allowlist is empty or one of its CIDRs contains the address. */
export function ipAllowed(ip: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalize(ip);
  } catch {
    return false;
  }
  return allowlist.some((entry) => {
    const [range, bits] = parseCidr(entry);
    const normalizedRange =
      range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()
        ? ([(range as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] as const)
        : ([range, bits] as const);
    return addr.kind() === normalizedRange[0].kind() && addr.match(normalizedRange as any);
  });
}
