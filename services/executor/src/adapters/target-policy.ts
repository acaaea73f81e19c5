import { BlockList, isIP } from 'node:net';

// Which resolved addresses a call may connect to (docs/ssrf.md). Tenants choose their target URLs,
// so without this guard a task could make dsched call the cloud metadata service, the database,
// or anything else on the private network. Refused: loopback, private, link-local (with the
// metadata addresses), carrier-grade NAT, unspecified, multicast and reserved ranges, and the
// same addresses wrapped in IPv6 (IPv4-mapped, IPv4-compatible, NAT64, 6to4). An operator
// allow-list (EXECUTOR_ALLOWED_TARGETS) lets chosen CIDRs or host names through.

const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

const FORBIDDEN_RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['100::', 64, 'ipv6', 'discard'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const forbidden = FORBIDDEN_RANGES.map(([net, prefix, type, reason]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, reason };
});

/** The 16 bytes of an IPv6 address (which may end in a dotted quad). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    tail.push(...quad[1]!.split('.').map(Number));
    text = `${text.slice(0, -quad[1]!.length)}0:0`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = [...left, ...new Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = groups.flatMap((g) => {
    const n = Number.parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zero(0, 12) && !zero(12, 16) && !(zero(12, 15) && b[15] === 1)) return v4(12); // ::a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 2002::/16
  return null;
}

/** Why an address must not be called, or null when it is a public address. */
export function forbiddenReason(withZone: string): string | null {
  const address = withZone.split('%')[0]!;
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (METADATA.has(address.toLowerCase())) return 'a cloud metadata address';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null) {
      const reason = forbiddenReason(inner);
      return reason === null ? null : `${reason} (as ${inner})`;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return forbidden.find((f) => f.type === type && f.list.check(address, type))?.reason ?? null;
}

export interface AllowList {
  /** Host names allowed whatever they resolve to (lower case). */
  hosts: Set<string>;
  /** `*.example.internal` entries, kept as `.example.internal`. */
  suffixes: string[];
  cidrs: BlockList;
  entries: string[];
}

const HOST_RE = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Parses EXECUTOR_ALLOWED_TARGETS entries: CIDRs (`127.0.0.0/8`, `fd00::/8`), single addresses,
 * host names and `*.suffix` wildcards. Throws naming the first entry that is none of these.
 */
export function parseAllowList(entries: string[]): AllowList {
  const allow: AllowList = { hosts: new Set(), suffixes: [], cidrs: new BlockList(), entries };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const [net, prefixText, extra] = entry.split('/');
    const family = isIP(net ?? '');
    if (family !== 0 && extra === undefined) {
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText === '')
        throw new Error(`"${raw}" has a bad prefix length`);
      allow.cidrs.addSubnet(net!, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (HOST_RE.test(entry)) {
      if (entry.startsWith('*.')) allow.suffixes.push(entry.slice(1));
      else allow.hosts.add(entry);
    } else {
      throw new Error(`"${raw}" is not a CIDR, an IP address or a host name`);
    }
  }
  return allow;
}

/** Why a call to `hostname` must not connect to `address`, or null when it may. */
export function refusalReason(hostname: string, address: string, allow: AllowList): string | null {
  const reason = forbiddenReason(address);
  if (reason === null) return null;
  const host = hostname.toLowerCase();
  if (allow.hosts.has(host) || allow.suffixes.some((s) => host.endsWith(s))) return null;
  const family = isIP(address);
  if (family !== 0 && allow.cidrs.check(address, family === 4 ? 'ipv4' : 'ipv6')) return null;
  // An IPv4 address wrapped in IPv6 is allowed when the IPv4 one is.
  const inner = family === 6 ? embeddedIpv4(address) : null;
  if (inner !== null && allow.cidrs.check(inner, 'ipv4')) return null;
  return reason;
}
