import { lookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { useAgent } from 'request-filtering-agent';
import { InvalidArgumentError } from './errors.js';

/**
 * Requests to URLs that users give (content import, Git sync, OIDC providers). Loopback, private,
 * link-local and metadata addresses are refused, at connect time for fetches (so redirects and DNS
 * rebinding are caught too), unless `QUIRE_ALLOW_PRIVATE_NETWORK=true`, or the address is one of
 * `QUIRE_PRIVATE_HOSTS` (a Git server or identity provider inside the network: every other private
 * address stays refused). Errors name the `field` they came from.
 */

export const privateNetworkAllowed = (env = process.env) => env.QUIRE_ALLOW_PRIVATE_NETWORK === 'true';

/**
 * The private addresses and ranges `QUIRE_PRIVATE_HOSTS` lets through (comma-separated, e.g.
 * `10.0.8.12,192.168.40.0/24`). A malformed entry throws: services call it at start so that a typo
 * stops them rather than refusing every request to the host it meant.
 */
export function privateHosts(env = process.env): string[] {
  const entries = (env.QUIRE_PRIVATE_HOSTS ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) throw new Error(`QUIRE_PRIVATE_HOSTS: "${entry}" is not an IP address or a CIDR range`);
  }
  return entries;
}

function listed(address: string, entries: string[]): boolean {
  const a = ipaddr.process(address);
  return entries.some((entry) => {
    const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), a.kind() === 'ipv4' ? 32 : 128];
    // Same family checked first: match() compares IPv4 with IPv4 and IPv6 with IPv6 only.
    return range.kind() === a.kind() && (a as ipaddr.IPv4).match(range as ipaddr.IPv4, bits);
  });
}

export interface OutboundOptions {
  /** The request field the URL came from, for error messages. */
  field?: string;
  /** Every private address (default: `QUIRE_ALLOW_PRIVATE_NETWORK`). */
  allowPrivateNetwork?: boolean;
  /** These private addresses and ranges only (default: `QUIRE_PRIVATE_HOSTS`). */
  privateHosts?: string[];
  /** http and https unless said otherwise. */
  protocols?: string[];
}

function parseUrl(raw: string, field: string, protocols: string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidArgumentError(`${field}: "${raw}" is not a URL`);
  }
  if (!protocols.includes(url.protocol)) throw new InvalidArgumentError(`${field}: ${url.protocol} URLs are not allowed (${protocols.join(', ')})`);
  return url;
}

const isPublic = (address: string) => ipaddr.process(address).range() === 'unicast';

export interface CheckedUrl {
  url: URL;
  /** The addresses the host resolved to, all checked; empty for URLs without a network host (file:). */
  addresses: string[];
  /** One of them is private (let through by the settings): a closed network's host. */
  privateAddress: boolean;
}

/**
 * Resolves the URL's host and refuses it when any address is not public. For tools that connect
 * themselves (git): pin them to `addresses` so a second resolution cannot differ.
 */
export async function checkPublicUrl(raw: string, options: OutboundOptions = {}): Promise<CheckedUrl> {
  const field = options.field ?? 'url';
  const allowPrivate = options.allowPrivateNetwork ?? privateNetworkAllowed();
  const allowed = options.privateHosts ?? privateHosts();
  const url = parseUrl(raw, field, options.protocols ?? ['http:', 'https:']);
  if (!url.hostname) return { url, addresses: [], privateAddress: false };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new InvalidArgumentError(`${field}: host "${host}" does not resolve`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublic(a) && !listed(a, allowed));
    if (refused) throw new InvalidArgumentError(`${field}: "${host}" resolves to ${refused}, a private or reserved address`);
  }
  return { url, addresses, privateAddress: addresses.some((a) => !isPublic(a)) };
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
}

export interface FetchedResource {
  /** After redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * GET through the filtering agent, following redirects (each hop filtered again), bounded in
 * bytes and time. A refused address, a timeout or an oversized body is an InvalidArgumentError.
 */
export async function fetchPublic(raw: string, limits: FetchLimits, options: OutboundOptions = {}): Promise<FetchedResource> {
  const field = options.field ?? 'url';
  const allowPrivate = options.allowPrivateNetwork ?? privateNetworkAllowed();
  const allowed = options.privateHosts ?? privateHosts();
  const protocols = options.protocols ?? ['http:', 'https:'];
  const deadline = Date.now() + limits.timeoutMs;
  let url = parseUrl(raw, field, protocols);
  for (let hops = 0; ; hops++) {
    const res = await send(url, allowPrivate, allowed, deadline, field, { method: 'GET', headers: { 'user-agent': 'Quire/1.0 (+content import)', accept: '*/*' } });
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.resume();
      if (hops >= (limits.maxRedirects ?? 5)) throw new InvalidArgumentError(`${field}: too many redirects from ${raw}`);
      url = parseUrl(new URL(location, url).href, field, protocols);
      continue;
    }
    const body = await readBounded(res, limits.maxBytes, deadline, field, url.href);
    return { url: url.href, status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body };
  }
}

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

function send(url: URL, allowPrivate: boolean, allowed: string[], deadline: number, field: string, out: Outgoing): Promise<IncomingMessage> {
  const agent = useAgent(url.href, { allowPrivateIPAddress: allowPrivate, allowMetaIPAddress: allowPrivate, allowIPAddressList: allowed, keepAlive: false });
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: out.method, timeout: Math.max(1, deadline - Date.now()), headers: out.headers }, resolve);
    req.on('timeout', () => req.destroy(new InvalidArgumentError(`${field}: ${url.href} did not answer in time`)));
    req.on('error', (err) => reject(err instanceof InvalidArgumentError ? err : new InvalidArgumentError(`${field}: cannot fetch ${url.href}: ${err.message}`)));
    req.end(out.body);
  });
}

export interface SentResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * One request (any method, with a body) through the filtering agent, bounded in bytes and time,
 * its redirects not followed: the caller sees a 3xx as it came. Failures as `fetchPublic`'s.
 */
export async function sendPublic(raw: string, request: Outgoing, limits: FetchLimits, options: OutboundOptions = {}): Promise<SentResponse> {
  const field = options.field ?? 'url';
  const deadline = Date.now() + limits.timeoutMs;
  const url = parseUrl(raw, field, options.protocols ?? ['http:', 'https:']);
  const res = await send(url, options.allowPrivateNetwork ?? privateNetworkAllowed(), options.privateHosts ?? privateHosts(), deadline, field, request);
  const body = await readBounded(res, limits.maxBytes, deadline, field, url.href);
  return { status: res.statusCode ?? 0, headers: res.headers, body };
}

function readBounded(res: IncomingMessage, maxBytes: number, deadline: number, field: string, href: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => res.destroy(new InvalidArgumentError(`${field}: ${href} did not answer in time`)), Math.max(1, deadline - Date.now()));
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) res.destroy(new InvalidArgumentError(`${field}: ${href} is larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    res.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    res.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof InvalidArgumentError ? err : new InvalidArgumentError(`${field}: cannot fetch ${href}: ${err.message}`));
    });
  });
}
