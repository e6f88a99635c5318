import { Ajv, type ErrorObject } from 'ajv';
import { InvalidArgumentError } from '@quire/service-kit';

// The adaptive-content visitor schema (api-reference "Site adaptive schema"): a draft-07 JSON
// Schema of the claims a visitor may carry. It must be a valid JSON Schema, and of the one shape
// sites read: an `unsigned` object of boolean claims and further boolean claims at the top level,
// no other properties. Both checks are made by ajv: the first against draft-07's meta-schema, the
// second against SHAPE below.

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

const claim = {
  type: 'object',
  properties: { type: { const: 'boolean' }, description: { type: 'string' } },
  required: ['type'],
  additionalProperties: false,
};

const SHAPE = {
  type: 'object',
  properties: {
    $schema: { const: DRAFT_07 },
    $id: { type: 'string' },
    type: { const: 'object' },
    properties: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          properties: {
            type: { const: 'object' },
            description: { type: 'string' },
            properties: { type: 'object', additionalProperties: claim },
            additionalProperties: { const: false },
          },
          required: ['type', 'properties', 'additionalProperties'],
          additionalProperties: false,
        },
      },
      additionalProperties: claim,
    },
    additionalProperties: { const: false },
  },
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
};

const ajv = new Ajv({ strict: false });
const shape = ajv.compile(SHAPE);

export type JsonSchema = Record<string, unknown>;

/** The schema of a site that has none set: no claims. */
export const EMPTY_SCHEMA: JsonSchema = {
  $schema: DRAFT_07,
  type: 'object',
  properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
  additionalProperties: false,
};

function describe(e: ErrorObject): string {
  const at = `jsonSchema${e.instancePath}`;
  if (e.keyword === 'additionalProperties') return `${at}: property "${(e.params as { additionalProperty: string }).additionalProperty}" is not allowed`;
  if (e.keyword === 'const') return `${at}: must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  return `${at}: ${e.message ?? 'is invalid'}`;
}

/** The JSON text as a schema sites accept; INVALID_ARGUMENT naming the place at fault otherwise. */
export function parseAdaptiveSchema(text: string): JsonSchema {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InvalidArgumentError('jsonSchema: must be a JSON object');
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new InvalidArgumentError('jsonSchema: must be a JSON object');
  // Checked first: ajv cannot validate against a meta-schema it does not hold.
  const declared = (doc as JsonSchema).$schema;
  if (declared !== undefined && declared !== DRAFT_07) throw new InvalidArgumentError(`jsonSchema/$schema: must be "${DRAFT_07}"`);
  if (!ajv.validateSchema(doc)) throw new InvalidArgumentError(`jsonSchema: not a valid draft-07 JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'jsonSchema' })}`);
  if (!shape(doc)) throw new InvalidArgumentError(describe(shape.errors![0]!));
  return doc as JsonSchema;
}

const access = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

/** One suggested condition per boolean claim: the claim is true. */
export function templateConditions(schema: JsonSchema): { description: string; condition: string }[] {
  type Claims = Record<string, { description?: string; properties?: Claims }>;
  const top = (schema.properties ?? {}) as Claims;
  const entries = [
    ...Object.entries(top.unsigned?.properties ?? {}).map(([name, c]) => ({ name, c, path: `visitor.claims.unsigned${access(name)}` })),
    ...Object.entries(top)
      .filter(([name]) => name !== 'unsigned')
      .map(([name, c]) => ({ name, c, path: `visitor.claims${access(name)}` })),
  ];
  return entries.map(({ name, c, path }) => ({ description: c.description ?? `Visitors whose claim "${name}" is true`, condition: `${path} === true` }));
}
