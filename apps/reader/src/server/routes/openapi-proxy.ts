import { securityHeaders, SpecError } from '@quire/render/openapi';
import { COMMON, OPENAPI_CONSOLE } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { checkPublicUrl, sendPublic } from '@quire/service-kit/outbound';
import { findById } from '../../domain/pages.ts';
import { allSiteSpaces } from '../../domain/structure.ts';
import type { OpenApiPages } from '../openapi-page.ts';
import { openApiBlocks } from '@quire/document/openapi';
import type { SiteData } from '../site-data.ts';
import type { Visit } from '../visit.ts';
import type { pages } from './pages.ts';

// "Test it": a visitor's request to an API the site documents, sent by the reader (the API need
// not allow the site's origin). It is sent only for an operation a page of the site shows, only
// to a URL under that operation's servers, only to public addresses (as every outbound request
// of Quire: QUIRE_PRIVATE_HOSTS aside), with the headers the operation names, bounded in size and
// time; no cookie goes either way and a redirect is shown, never followed.

export const PROXY_PATH = '~gitbook/openapi/proxy';
/** The JSON around a request's body: its escapes may double it. */
export const PROXY_BODY_LIMIT = OPENAPI_CONSOLE.requestBytes.max * 2 + 64 * 1024;

/** What the API answers that the visitor sees; never Set-Cookie. */
const SHOWN = /^(content-type|content-length|cache-control|etag|last-modified|location|retry-after|x-request-id|(x-)?ratelimit-[\w-]+)$/;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface ProxyRequest {
  siteSpace: string;
  page: string;
  block: number;
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

function checked(raw: unknown): ProxyRequest {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ProxyRequest>;
  for (const field of ['siteSpace', 'page', 'method', 'url'] as const) if (typeof r[field] !== 'string') throw new Refused(400, `${field}: required, a string`);
  if (!Number.isInteger(r.block)) throw new Refused(400, 'block: required, an integer');
  if (r.url!.length > COMMON.url.max) throw new Refused(400, `url: longer than ${COMMON.url.max} characters`);
  const headers = r.headers ?? [];
  if (!Array.isArray(headers) || headers.length > OPENAPI_CONSOLE.headers.max || !headers.every((h) => Array.isArray(h) && h.length === 2 && h.every((x) => typeof x === 'string')))
    throw new Refused(400, `headers: at most ${OPENAPI_CONSOLE.headers.max} [name, value] pairs of strings`);
  if (r.body !== undefined && typeof r.body !== 'string') throw new Refused(400, 'body: a string');
  if (r.body !== undefined && Buffer.byteLength(r.body) > OPENAPI_CONSOLE.requestBytes.max) throw new Refused(413, `body: larger than ${OPENAPI_CONSOLE.requestBytes.max} bytes`);
  return r as ProxyRequest;
}

/** The target is one of the server URLs' origins and below its path. */
function underServers(target: URL, servers: string[]): boolean {
  return servers.some((s) => {
    let server: URL;
    try {
      server = new URL(s);
    } catch {
      return false;
    }
    const base = server.pathname.endsWith('/') ? server.pathname : `${server.pathname}/`;
    return target.origin === server.origin && `${target.pathname}/`.startsWith(base);
  });
}

export function openApiProxy(data: SiteData, openApi: OpenApiPages, site: ReturnType<typeof pages>) {
  async function send(v: Visit) {
    const r = checked(v.req.body);
    const siteSpace = allSiteSpaces(v.view.structure!).find((s) => s.siteSpace.id === r.siteSpace)?.siteSpace;
    if (!siteSpace) throw new Refused(404, `siteSpace: no "${r.siteSpace}" in this site`);
    const revision = await data.revision(siteSpace.spaceId, v.req.id);
    const page = findById(revision.pages, r.page);
    if (!page || page.type !== 'document') throw new Refused(404, `page: no "${r.page}" in this space`);
    const block = openApiBlocks(await site.preparedPage(siteSpace.spaceId, revision, page, v.req.id))[r.block];
    if (!block) throw new Refused(404, `block: the page has no API operation ${r.block}`);
    const { doc, op } = await openApi.operationOf(block, { files: revision.files, organizationId: v.view.site!.organizationId, requestId: v.req.id });
    if (r.method.toLowerCase() !== op.method) throw new Refused(400, `method: this operation is ${op.method.toUpperCase()}`);
    let target: URL;
    try {
      target = new URL(r.url);
    } catch {
      throw new Refused(400, 'url: not a URL');
    }
    if (target.username || target.password || !underServers(target, op.servers)) throw new Refused(403, `url: not under the operation's servers (${op.servers.join(', ')})`);
    // The headers the operation names (its parameters, its security's), and the body's type.
    const allowed = new Set([
      'accept',
      'content-type',
      ...op.parameters.filter((p) => p.in === 'header').map((p) => String(p.name).toLowerCase()),
      ...securityHeaders(doc, op.operation).map(([n]) => n.toLowerCase()),
    ]);
    const headers: Record<string, string> = { 'user-agent': 'Quire/1.0 (+API reference)' };
    for (const [name, value] of r.headers) {
      if (!allowed.has(name.toLowerCase())) throw new Refused(400, `headers: "${name}" is not a header of this operation`);
      if (/[\r\n]/.test(value)) throw new Refused(400, `headers: "${name}" holds a line break`);
      headers[name.toLowerCase()] = value;
    }
    // Refused here with its reason; the agent refuses it again at connect time (DNS rebinding).
    await checkPublicUrl(target.href, { field: 'url' }).catch((err: Error) => {
      throw new Refused(403, err.message);
    });
    const body = r.body === undefined || op.method === 'get' || op.method === 'head' ? undefined : Buffer.from(r.body);
    const answer = await sendPublic(
      target.href,
      { method: op.method.toUpperCase(), headers, body },
      { maxBytes: OPENAPI_CONSOLE.responseBytes.max, timeoutMs: OPENAPI_CONSOLE.timeoutMs.max },
      { field: 'url' },
    );
    const shown = Object.entries(answer.headers).flatMap(([k, val]) =>
      SHOWN.test(k) && val !== undefined ? [[k, Array.isArray(val) ? val.join(', ') : val] as [string, string]] : [],
    );
    return { status: answer.status, headers: shown, body: answer.body.toString('utf8') };
  }

  return async (v: Visit) => {
    v.reply.header('cache-control', 'no-store');
    try {
      return v.reply.send(await send(v));
    } catch (err) {
      if (err instanceof Refused) return v.reply.code(err.status).send({ error: err.message });
      if (err instanceof SpecError) return v.reply.code(404).send({ error: err.message });
      if (err instanceof InvalidArgumentError) return v.reply.code(502).send({ error: err.message });
      throw err;
    }
  };
}
