import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Every answer of the gateway checked against GitBook's own OpenAPI document (3.0.3: its schemas
// are JSON Schema draft-07 with `nullable`), so that a deviation from the wire GitBook's clients
// expect fails the test that caused it.

const spec = correct(toJsonSchema(JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json'), 'utf8')))) as Spec;

/** OpenAPI 3.0's `nullable` in JSON Schema's words: `null` among the types, or beside the schema. */
function toJsonSchema(node: unknown, allOfMember = false): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, allOfMember));
  if (!node || typeof node !== 'object') return node;
  const converted = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, toJsonSchema(v, k === 'allOf')])) as Record<string, unknown>;
  // A key required but declared nowhere in its object (Space `type`, Site `defaultSpace`, a
  // site-space's `urls.location`, …) is a slip of the document: GitBook's own answers lack them
  // (a Space from api.gitbook.com has no `type`). Members of an allOf keep theirs: a sibling may declare it.
  const { nullable, ...rest } = converted;
  if (!allOfMember && Array.isArray(rest.required) && rest.properties && typeof rest.properties === 'object') {
    rest.required = (rest.required as string[]).filter((k) => k in (rest.properties as object));
  }
  if (nullable !== true) return nullable === undefined ? rest : { ...rest, nullable };
  if (typeof rest.type === 'string')
    return { ...rest, type: [rest.type, 'null'], ...(Array.isArray(rest.enum) && !rest.enum.includes(null) ? { enum: [...rest.enum, null] } : {}) };
  return { anyOf: [rest, { type: 'null' }] };
}

/**
 * Corrects the schemas of the document no answer of GitBook's can meet. PlainObject (visitor
 * claims, …) lacks `type: object`, so a string value matches both it and `string` in its oneOf.
 * A page's Document is
 * markdown, a JSON document, or "Empty", an object with no property at all; but it is composed
 * (allOf) into RevisionPageDocument, whose own properties then fail "Empty". Empty means neither
 * of the others here. A page edit's attributes are one of the document, group and link sets, but
 * an edit of the title alone belongs to all of them: any of them is meant.
 */
function correct(doc: unknown): unknown {
  const schemas = (doc as { components: { schemas: Record<string, { oneOf: Record<string, unknown>[]; type?: string }> } }).components.schemas;
  schemas.PlainObject!.type = 'object';
  const empty = schemas.Document!.oneOf.find((s) => s.title === 'Empty')!;
  delete empty.additionalProperties;
  empty.not = { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] };
  const edited = (schemas.RevisionSemanticChangePageEdited as unknown as { properties: { attributes: { oneOf?: unknown; anyOf?: unknown } } }).properties.attributes;
  edited.anyOf = edited.oneOf;
  delete edited.oneOf;
  return doc;
}

interface Spec {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, SpecResponse> }>>;
}
interface SpecResponse {
  $ref?: string;
  content?: Record<string, unknown>;
}

// strict off: the document carries OpenAPI keywords (`discriminator`, `example`, `deprecated`) that
// are no JSON Schema; its own formats (`emoji`, `icon`, `int32`) constrain nothing Ajv checks.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const format of ['emoji', 'icon', 'int32']) ajv.addFormat(format, true);
ajv.addSchema(spec, 'gitbook');

/** Where the reference, the authority, answers otherwise than GitBook's document, by operation id. */
const REFERENCE_DIFFERS: Record<string, string> = {
  // The reference answers TranslationSettings (`object: 'translation-settings'`), not GitBook's Translation.
  listTranslations: 'translations are TranslationSettings',
  createTranslation: 'translations are TranslationSettings',
  getTranslation: 'translations are TranslationSettings',
  updateTranslation: 'translations are TranslationSettings',
  // A new SAML provider is pending: the reference answers its unset `ssoURL` as '', not a URL.
  createOrganizationSAMLProvider: 'a new SAML provider answers its unset ssoURL as an empty string',
};

/**
 * Answers to a share-key visitor who may not see a site's spaces: their site-spaces come without
 * `space`, which GitBook's SiteSpace requires. Kept on purpose (a share key opens the published
 * pages, not the space's settings and permissions); only these operations, only with `shareKey`.
 */
const SHARE_KEY_VIEWS = new Set(['getPublishedContentSite', 'listSiteSpaces']);

/** GitBook's document keyed by method and path template, path parameters' names left out. */
const operations = new Map<string, { id: string; path: string; method: string; responses: Record<string, SpecResponse> }>();
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (op.responses && op.operationId)
      operations.set(`${method.toUpperCase()} ${path.replace(/\{[^{}]+\}/g, '{}')}`, { id: op.operationId, path, method, responses: op.responses });
  }
}

export interface Violation {
  operation: string;
  request: string;
  status: number;
  errors: string[];
}

/** Operations answered and checked in this process, for the count of what the suite covers. */
export const validated = new Set<string>();

/** Checks one answer; undefined when it conforms or GitBook's document has no such operation. */
export function checkAnswer(method: string, route: string, request: string, status: number, contentType: string | undefined, body: string): Violation | undefined {
  // The gateway's routes are `/v1/...` with `:name` parameters (a page path: a trailing `*`); GitBook's paths drop `/v1`.
  const op = operations.get(`${method} ${route.replace(/^\/v1/, '').replace(/:[^/]+|\*$/g, '{}')}`);
  if (!op || op.id in REFERENCE_DIFFERS) return undefined;
  if (SHARE_KEY_VIEWS.has(op.id) && /[?&]shareKey=/.test(request)) return undefined;
  const fail = (errors: string[]): Violation => ({ operation: op.id, request: `${method} ${request}`, status, errors });
  const declared = op.responses[String(status)] ?? op.responses.default;
  if (!declared) {
    // Errors GitBook does not list per operation still answer its Error body.
    if (status >= 400) return validate('gitbook#/components/schemas/Error', body, fail);
    return fail([`status ${status} is none of ${Object.keys(op.responses).join(', ')}`]);
  }
  const pointer = declared.$ref
    ? `gitbook${declared.$ref}`
    : `gitbook#/paths/${pointerEscape(op.path)}/${op.method}/responses/${String(status) in op.responses ? status : 'default'}`;
  const { content } = declared.$ref ? resolve(declared.$ref) : declared;
  if (!content) {
    if (body !== '') return fail(['answers a body where GitBook answers none']);
    if (status < 300) validated.add(op.id);
    return undefined;
  }
  if (!('application/json' in content)) return undefined;
  if (!contentType?.startsWith('application/json')) return fail([`answers ${contentType ?? 'no content type'} where GitBook answers JSON`]);
  const violation = validate(`${pointer}/content/application~1json/schema`, body, fail);
  if (!violation && status < 300) validated.add(op.id);
  return violation;
}

function validate(pointer: string, body: string, fail: (errors: string[]) => Violation): Violation | undefined {
  const check = ajv.getSchema(pointer);
  if (!check) throw new Error(`no schema at ${pointer}`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return fail(['the body is no JSON']);
  }
  return check(value) ? undefined : fail((check.errors ?? []).map(explain));
}

/** The response a `#/components/responses/...` reference names. */
function resolve(ref: string): SpecResponse {
  return ref
    .slice(2)
    .split('/')
    .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, spec as unknown as Record<string, unknown>) as SpecResponse;
}

const pointerEscape = (path: string) => path.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D');

const explain = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`;

/** What keeps `value` from being one of GitBook's `components.schemas[name]` (none when it is), for answers of Quire's own operations. */
export function schemaErrors(name: string, value: unknown): string[] {
  const check = ajv.getSchema(`gitbook#/components/schemas/${name}`);
  if (!check) throw new Error(`GitBook's document has no schema ${name}`);
  return check(value) ? [] : (check.errors ?? []).map(explain);
}

/** A Fastify onSend hook recording every answer that does not conform into `violations`. */
export function specHook(violations: Violation[]) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload === 'string' || payload === null || payload === undefined) {
      try {
        const v = checkAnswer(req.method, req.routeOptions.url ?? '', req.url, reply.statusCode, reply.getHeader('content-type') as string | undefined, payload ?? '');
        if (v) violations.push(v);
      } catch (err) {
        // Never the answer's fault: reported as a failure, not turned into a 500.
        violations.push({ operation: '?', request: `${req.method} ${req.url}`, status: reply.statusCode, errors: [String(err)] });
      }
    }
    return payload;
  };
}

/** GitBook operations (but those where the reference differs) among an OpenAPI document's, by id. */
export function gitbookOperations(doc: { paths?: object }): string[] {
  const ids = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item).map((method) => operations.get(`${method.toUpperCase()} ${path.replace(/^\/v1/, '').replace(/\{[^{}]+\}/g, '{}')}`)?.id),
  );
  return [...new Set(ids.filter((id): id is string => id !== undefined && !(id in REFERENCE_DIFFERS)))];
}

/** Operations the gateway serves in this process (from its own route table). */
export const served = new Set<string>();

/**
 * With QUIRE_SPEC_COVERAGE set to a file, appends to it the operations this process served and
 * the ones it answered with a success checked against GitBook's document, so that the run's
 * teardown can name every served operation no test answered successfully.
 */
export function recordCoverage() {
  const file = process.env.QUIRE_SPEC_COVERAGE;
  if (!file) return;
  const lines = [...[...served].map((id) => `served ${id}`), ...[...validated].map((id) => `validated ${id}`)];
  if (lines.length) appendFileSync(file, lines.map((l) => `${l}\n`).join(''));
}

/** Served operations of a coverage file that no answer validated. */
export function uncovered(text: string): string[] {
  const seen = { served: new Set<string>(), validated: new Set<string>() };
  for (const line of text.split('\n')) {
    const [kind, id] = line.split(' ');
    if ((kind === 'served' || kind === 'validated') && id) seen[kind].add(id);
  }
  return [...seen.served].filter((id) => !seen.validated.has(id)).sort();
}
