import type { DocumentBlockOpenAPI, DocumentBlockOpenAPIOperation, JSONDocument } from './types.ts';

// What the platform reads of an OpenAPI document beside the reader's full drawing: the blocks of a
// page that show operations, and a spec's operations summed up (for search and for choosing one in
// the editor). A spec is the parsed JSON or YAML of OpenAPI 3 or Swagger 2.0; only local `$ref`s
// are followed, a few links at most, so a hostile spec costs no more than its size.

export type OpenApiBlock = DocumentBlockOpenAPI | DocumentBlockOpenAPIOperation;

/** The OpenAPI blocks of a document in document order (their index names them to the console). */
export function openApiBlocks(document: JSONDocument): OpenApiBlock[] {
  const out: OpenApiBlock[] = [];
  const walk = (node: { type?: string; nodes?: unknown[]; fragments?: unknown[] }) => {
    if (node.type === 'swagger' || node.type === 'openapi-operation') out.push(node as OpenApiBlock);
    (node.nodes as (typeof node)[] | undefined)?.forEach(walk);
    (node.fragments as (typeof node)[] | undefined)?.forEach(walk);
  };
  document.nodes.forEach(walk);
  return out;
}

export interface SpecOperation {
  /** Lower case, as the spec's keys. */
  method: string;
  path: string;
  summary: string;
  operationId: string;
  /** Its first line. */
  description: string;
  /** Path, query, header and cookie parameters (Swagger 2.0's `in: body` is the body). */
  parameters: { name: string; in: string; required: boolean }[];
  /** The request body's media types. */
  body: string[];
  /** The statuses answered. */
  responses: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** What a local `$ref` chain (`#/components/parameters/limit`) leads to; an empty object where it leads nowhere. */
function follow(doc: Obj, value: unknown): Obj {
  let at = value;
  for (let hops = 0; hops < 8 && isObj(at) && typeof at.$ref === 'string' && at.$ref.startsWith('#/'); hops++) {
    let next: unknown = doc;
    for (const raw of at.$ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      next = isObj(next) && Object.hasOwn(next, key) ? next[key] : undefined;
    }
    at = next;
  }
  return isObj(at) ? at : {};
}

/** The operations of a parsed spec, in its order; none when it is not one. */
export function specOperations(spec: unknown): SpecOperation[] {
  if (!isObj(spec) || !isObj(spec.paths)) return [];
  const out: SpecOperation[] = [];
  for (const [path, raw] of Object.entries(spec.paths)) {
    const item = follow(spec, raw);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const params = [...list(item.parameters), ...list(op.parameters)].map((p) => follow(spec, p));
      // Swagger 2.0 sends its body as an `in: body` parameter, of the media types it consumes (JSON when it names none).
      const requestBody = follow(spec, op.requestBody);
      const consumes = list(op.consumes ?? spec.consumes).map(String);
      const body = isObj(requestBody.content) ? Object.keys(requestBody.content) : params.some((p) => p.in === 'body') ? (consumes.length ? consumes : ['application/json']) : [];
      out.push({
        method,
        path,
        summary: str(op.summary),
        operationId: str(op.operationId),
        description: str(op.description).split('\n')[0]!,
        parameters: params.filter((p) => typeof p.name === 'string' && p.in !== 'body').map((p) => ({ name: String(p.name), in: String(p.in), required: p.required === true })),
        body,
        responses: Object.keys(isObj(op.responses) ? op.responses : {}),
      });
    }
  }
  return out;
}
