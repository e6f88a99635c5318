// The operations of a spec (as the API gives its JSON: OpenAPI 3 or Swagger 2.0), summed up for
// choosing one: its method, path, summary, parameters, body media types and response statuses.

export interface OperationSummary {
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean }[];
  body: string[];
  responses: string[];
}

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A local `$ref` chain followed (a few links at most). */
function follow(doc: Obj, value: unknown): Obj {
  let at = value;
  for (let hops = 0; hops < 8 && isObj(at) && typeof at.$ref === 'string' && at.$ref.startsWith('#/'); hops++) {
    let next: unknown = doc;
    for (const raw of at.$ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      next = isObj(next) ? next[key] : undefined;
    }
    at = next;
  }
  return isObj(at) ? at : {};
}

export function operationsOf(spec: unknown): OperationSummary[] {
  if (!isObj(spec) || !isObj(spec.paths)) return [];
  const out: OperationSummary[] = [];
  for (const [path, raw] of Object.entries(spec.paths)) {
    const item = follow(spec, raw);
    for (const method of METHODS) {
      if (!isObj(item[method])) continue;
      const op = item[method] as Obj;
      const params = [...list(item.parameters), ...list(op.parameters)].map((p) => follow(spec, p));
      // Swagger 2.0 sends its body as an `in: body` parameter, of the media types it consumes (JSON when it names none).
      const requestBody = follow(spec, op.requestBody);
      const consumes = list(op.consumes ?? spec.consumes).map(String);
      const body = isObj(requestBody.content) ? Object.keys(requestBody.content) : params.some((p) => p.in === 'body') ? (consumes.length ? consumes : ['application/json']) : [];
      out.push({
        method,
        path,
        summary: str(op.summary),
        description: str(op.description).split('\n')[0]!,
        parameters: params.filter((p) => typeof p.name === 'string' && p.in !== 'body').map((p) => ({ name: String(p.name), in: String(p.in), required: p.required === true })),
        body,
        responses: Object.keys(isObj(op.responses) ? op.responses : {}),
      });
    }
  }
  return out;
}
