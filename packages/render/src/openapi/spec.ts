import { unescapeJsonPointer } from '@scalar/openapi-parser';
import { upgradeFromTwoToThree } from '@scalar/openapi-upgrader/2.0-to-3.0';
import { parse as parseYaml } from 'yaml';

// A spec as the reader shows it: read from JSON or YAML, Swagger 2.0 upgraded to OpenAPI 3.0 by
// @scalar/openapi-upgrader (3.0 and 3.1 read as they are: the renderer knows both forms, and
// upgrading a large 3.0 spec to 3.1 cost most of its first read), its local `$ref`s followed as they are rendered. They
// are followed lazily rather than by `dereference`: a reference keeps its name (a recursive schema
// shows once, then as "Node"), and a 5 MB spec costs one upgrade, not a copy of every use. A
// reference to another file or URL is never fetched: it shows as such.

export type Obj = Record<string, unknown>;

export interface Spec {
  doc: Obj;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export class SpecError extends Error {}

/** The spec read from its text, or a SpecError saying why it cannot be shown. */
export function parseSpec(text: string): Spec {
  let value: unknown;
  try {
    // JSON first: a large JSON spec reads many times faster than through the YAML parser.
    value = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch (err) {
    throw new SpecError(`not valid JSON or YAML (${(err as Error).message.split('\n')[0]})`);
  }
  return specOf(value);
}

/** The spec of a document already read (the API's spec content), Swagger 2.0 upgraded; a SpecError saying why it cannot be shown. */
export function specOf(value: unknown): Spec {
  if (!isObj(value) || !(typeof value.openapi === 'string' || value.swagger === '2.0')) throw new SpecError('not an OpenAPI 3 or Swagger 2.0 document');
  const doc = (value.swagger === '2.0' ? upgradeFromTwoToThree(value as never) : value) as unknown;
  if (!isObj(doc)) throw new SpecError('not an OpenAPI 3 or Swagger 2.0 document');
  // OpenAPI 3.1 may describe only webhooks: no path, no operation to draw.
  if (!isObj(doc.paths) && isObj(doc.webhooks)) doc.paths = {};
  if (!isObj(doc.paths)) throw new SpecError('the document has no paths');
  return { doc };
}

/** The value a local JSON pointer (`#/components/schemas/Pet`) names; undefined when none does. */
function pointed(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = unescapeJsonPointer(decodeURIComponent(raw));
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isObj(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

export interface Resolved {
  value: Obj;
  /** The last reference followed, when there was one. */
  ref?: string;
  /** A reference that leads nowhere here (another file, a URL, a missing pointer). */
  unresolved?: string;
}

/** An object of the spec with its `$ref` chain followed (a chain longer than 32 links stops). */
export function resolve(doc: Obj, value: unknown): Resolved {
  let ref: string | undefined;
  let at = value;
  for (let hops = 0; isObj(at) && typeof at.$ref === 'string'; hops++) {
    const next = hops < 32 ? pointed(doc, at.$ref) : undefined;
    if (!isObj(next)) return { value: {}, ref, unresolved: at.$ref };
    ref = at.$ref;
    at = next;
  }
  return { value: isObj(at) ? at : {}, ref };
}

/** The name a reference gives a schema: its last segment (`Pet` for `#/components/schemas/Pet`). */
export const refName = (ref: string): string => unescapeJsonPointer(ref.split('/').pop() ?? ref);

export interface Operation {
  path: string;
  method: string;
  operation: Obj;
  /** The path item's parameters and the operation's, the operation's winning by name and place. */
  parameters: Obj[];
  servers: string[];
}

/** The operation at a path and method, with what it inherits from its path and the document. */
export function findOperation(doc: Obj, path: string, method: string): Operation | undefined {
  const paths = doc.paths as Obj;
  const item = Object.hasOwn(paths, path) ? resolve(doc, paths[path]).value : undefined;
  const m = method.toLowerCase();
  const operation = item && (METHODS as readonly string[]).includes(m) && isObj(item[m]) ? (item[m] as Obj) : undefined;
  if (!item || !operation) return undefined;
  const byKey = new Map<string, Obj>();
  for (const p of [...list(item.parameters), ...list(operation.parameters)]) {
    const param = resolve(doc, p).value;
    if (typeof param.name === 'string') byKey.set(`${String(param.in)}:${param.name}`, param);
  }
  const servers = [operation.servers, item.servers, doc.servers].map(list).find((s) => s.length) ?? [];
  return { path, method: m, operation, parameters: [...byKey.values()], servers: servers.map(serverUrl).filter((u): u is string => !!u) };
}

/** A server's URL with its variables at their defaults. */
function serverUrl(server: unknown): string | undefined {
  if (!isObj(server) || typeof server.url !== 'string') return undefined;
  const variables = isObj(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const v = variables[name];
    return isObj(v) && v.default !== undefined ? String(v.default) : whole;
  });
}
