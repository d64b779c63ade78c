// Server-side request forgery: a webhook URL is typed by an admin, and the request goes out
// from inside the network. Every address a name resolves to is checked when the endpoint is
// saved and again at delivery, where the connection goes to the address that was checked
// (the lookup is ours), so a name cannot resolve to a public address for the check and to
// an internal one for the connection.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
// IPv4: "this network", private, CGNAT, loopback, link-local, IETF protocol, documentation,
// benchmarking, multicast, reserved and broadcast.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// IPv6: unspecified and IPv4-compatible (::a.b.c.d, deprecated), loopback,
// IPv4-mapped/translated (checked as IPv4 below), discard,
// unique-local, link-local, site-local, multicast, documentation.
for (const [net, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:10.0.0.1), or null. */
function mappedV4(ip: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return null;
  const a = Number.parseInt(hex[1]!, 16);
  const b = Number.parseInt(hex[2]!, 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/** True for an address a webhook must not reach unless private addresses are allowed. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = mappedV4(ip);
    return v4 ? blocked.check(v4, 'ipv4') : blocked.check(ip, 'ipv6');
  }
  return true; // not an address at all
}

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export class AddressRefusedError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

/** The URL's host without IPv6 brackets. */
export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * Every address `host` resolves to (an IP literal is itself); refused when one of them is
 * private and `allowPrivate` is off. Throws AddressRefusedError, or the DNS error.
 */
export async function resolveAllowed(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const name = bareHost(host);
  const family = isIP(name);
  const addresses: LookupAddress[] = family
    ? [{ address: name, family }]
    : await new Promise((resolve, reject) =>
        dnsLookup(name, { all: true, verbatim: true }, (err, list) => (err ? reject(err) : resolve(list))),
      );
  if (!addresses.length) throw new Error(`${name}: nenhum endereço`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      throw new AddressRefusedError(
        family ? `${name} é um endereço interno` : `${name} aponta para um endereço interno (${bad.address})`,
      );
  }
  return addresses;
}

/**
 * A `lookup` for node:http(s) that connects only to checked addresses: the one check and
 * the connection use the same answer.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveAllowed(hostname, allowPrivate).then(
      (list) => (options.all ? callback(null, list) : callback(null, list[0]!.address, list[0]!.family)),
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
