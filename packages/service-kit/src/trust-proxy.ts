import { Type } from '@sinclair/typebox';
import ipaddr from 'ipaddr.js';
import { ConfigError } from './config.js';

/**
 * TRUST_PROXY, one setting for the gateway and the reader: the proxies whose X-Forwarded-For,
 * X-Forwarded-Proto and X-Forwarded-Host are believed. Unset or `false`: nobody's, so a client is
 * its connection's address, protocol and Host whatever headers it sends. `true`: any peer's (only
 * where nothing but the proxy can reach the app). Otherwise addresses or CIDRs, comma-separated
 * (`loopback`, `linklocal` and `uniquelocal` name those ranges): the client is then the first
 * address of X-Forwarded-For, read from the right, that is not one of them.
 */
export const trustProxySetting = Type.Optional(Type.String({ pattern: '^[0-9A-Za-z.:/, ]{1,1000}$' }));

const RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
// Dotted quads only: ipaddr.js also takes `1` or `0x7f.1` for IPv4, which would read a hop count as an address.
const isEntry = (e: string) =>
  RANGES.has(e) || ipaddr.IPv4.isValidFourPartDecimal(e) || ipaddr.IPv4.isValidCIDRFourPartDecimal(e) || ipaddr.IPv6.isValid(e) || ipaddr.IPv6.isValidCIDR(e);

/** TRUST_PROXY as Fastify's `trustProxy`; an entry that is no address, CIDR or range name stops the app at start. */
export function parseTrustProxy(value: string | undefined): boolean | string[] {
  const text = value?.trim();
  if (text === undefined || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !isEntry(e));
  if (bad.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: not an address, a CIDR or loopback/linklocal/uniquelocal: ${bad.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  return entries;
}
