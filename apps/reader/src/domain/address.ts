// Where a request lands: a site on the reader's own host (`/<organization>/<site>/...`) or on a
// custom hostname (`/...`), and the rest of the path inside the site. Pure and bounded: paths
// longer than MAX_PATH or with empty, dot or encoded-slash segments match nothing.

export const MAX_PATH = 1024;
const MAX_SEGMENTS = 32;

export type SiteAddress = { kind: 'path'; organization: string; site: string } | { kind: 'hostname'; hostname: string };

export interface Located {
  address: SiteAddress;
  /** The site's base path on this host: `/<organization>/<site>` or ''. */
  base: string;
  /** Decoded segments below the base. */
  rest: string[];
}

/** The host name of a Host header, lower case, without its port. */
export function hostOf(hostHeader: string | undefined): string {
  const host = (hostHeader ?? '').toLowerCase();
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

/** Decoded path segments, or null when the path is not one a site answers. */
export function segments(pathname: string): string[] | null {
  if (pathname.length > MAX_PATH || !pathname.startsWith('/')) return null;
  const raw = pathname.split('/').slice(1);
  if (raw.at(-1) === '') raw.pop();
  if (raw.length > MAX_SEGMENTS) return null;
  const out: string[] = [];
  for (const s of raw) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return null;
    }
    if (d === '' || d === '.' || d === '..' || d.includes('/') || d.includes('\\')) return null;
    out.push(d);
  }
  return out;
}

/**
 * The site and inner path of a request; `readerHosts` are the reader's own host names, where
 * sites live below `mount` (the path of QUIRE_READER_URL, '' or `/read` when it shares the
 * gateway's origin).
 */
export function locate(hostHeader: string | undefined, pathname: string, readerHosts: ReadonlySet<string>, mount = ''): Located | null {
  const segs = segments(pathname);
  if (!segs) return null;
  const host = hostOf(hostHeader);
  if (!readerHosts.has(host)) return { address: { kind: 'hostname', hostname: host }, base: '', rest: segs };
  const mounted = segments(mount || '/') ?? [];
  if (mounted.some((m, i) => segs[i] !== m)) return null;
  const [organization, site, ...rest] = segs.slice(mounted.length);
  if (!organization || !site) return null;
  const prefix = mounted.map((m) => `/${encodeURIComponent(m)}`).join('');
  return { address: { kind: 'path', organization, site }, base: `${prefix}/${encodeURIComponent(organization)}/${encodeURIComponent(site)}`, rest };
}

/** Where a site's MCP server answers below its base: GitBook's path, which assistants are configured with. */
export const MCP_PATH = '~gitbook/mcp';

/** A path below `base` from decoded segments. */
export const pathIn = (base: string, segs: readonly string[]) => `${base}/${segs.map(encodeURIComponent).join('/')}`;
