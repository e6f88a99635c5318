import { parse as parseYaml } from 'yaml';

// What search finds of an API reference page: the operations its blocks show, by their path,
// summary and parameter names, read from the spec each block names (a file of the space, one of
// the organization's specs). Only what search matches is kept of a spec: a few strings per
// operation, so a large spec stays small in memory.

export interface SearchableOperation {
  method: string;
  path: string;
  summary: string;
  parameters: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The value a local `$ref` chain leads to (`#/components/parameters/limit`); the value itself otherwise. */
function follow(doc: Obj, value: unknown): unknown {
  let at = value;
  for (let hops = 0; hops < 8 && isObj(at) && typeof at.$ref === 'string' && at.$ref.startsWith('#/'); hops++) {
    let next: unknown = doc;
    for (const raw of at.$ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      next = isObj(next) && Object.hasOwn(next, key) ? next[key] : undefined;
    }
    at = next;
  }
  return at;
}

/** The operations of a spec's text (JSON or YAML, OpenAPI 3 or Swagger 2.0); none when it is not one. */
export function searchableOperations(text: string): SearchableOperation[] {
  let doc: unknown;
  try {
    doc = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch {
    return [];
  }
  if (!isObj(doc) || !isObj(doc.paths)) return [];
  const out: SearchableOperation[] = [];
  for (const [path, raw] of Object.entries(doc.paths)) {
    const item = follow(doc, raw);
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      // Swagger 2.0's `in: body` parameter is the request body, its name no parameter's.
      const names = [...list(item.parameters), ...list(op.parameters)]
        .map((p) => follow(doc, p))
        .map((p) => (isObj(p) && typeof p.name === 'string' && p.in !== 'body' ? p.name : ''));
      const summary = typeof op.summary === 'string' ? op.summary : typeof op.operationId === 'string' ? op.operationId : '';
      out.push({ method: method.toUpperCase(), path, summary, parameters: [...new Set(names.filter(Boolean))] });
    }
  }
  return out;
}

/**
 * The words of a query as an operation is matched: lower-case, without search syntax (quotes,
 * `-word` exclusions, `or`). An operation matches when each is in its method, path, summary or
 * one of its parameter names.
 */
export const operationTerms = (query: string): string[] =>
  (query.toLowerCase().match(/[^\s"]+/g) ?? []).filter((w) => !w.startsWith('-') && w !== 'or' && w !== 'and' && w.replace(/[^\p{L}\p{N}]/gu, '') !== '');

export function matchesOperation(op: SearchableOperation, terms: string[]): boolean {
  if (!terms.length) return false;
  const text = `${op.method} ${op.path} ${op.summary} ${op.parameters.join(' ')}`.toLowerCase();
  return terms.every((t) => text.includes(t));
}
