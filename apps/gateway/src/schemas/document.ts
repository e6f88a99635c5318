import { createRequire } from 'node:module';
import { Type } from '@sinclair/typebox';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { PAGE } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { items } from './common.ts';

/** GitBook's JSONDocument in a request: its shape here, its blocks checked by `checkJsonDocument`. */
export const JsonDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Object({}, { additionalProperties: true }),
    nodes: Type.Array(Type.Object({}, { additionalProperties: true }), items(PAGE.nodes)),
  },
  { description: "GitBook's JSONDocument" },
);

let validate: ValidateFunction | undefined;

// GitBook's own schema of a JSONDocument (its OpenAPI document's components, JSON Schema 2020-12),
// compiled on first use: the block model is large and most requests carry markdown.
function validator(): ValidateFunction {
  if (!validate) {
    const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as { components: unknown };
    const ajv = new Ajv2020({ strict: false, formats: { icon: true } });
    ajv.addSchema({ $id: 'https://gitbook.local/openapi.json', components: spec.components });
    validate = ajv.compile({ $ref: 'https://gitbook.local/openapi.json#/components/schemas/JSONDocument' });
  }
  return validate;
}

/** Refuses a document GitBook's schema refuses, naming the field at fault under `at`. */
export function checkJsonDocument(document: unknown, at: string): void {
  const check = validator();
  if (check(document)) return;
  const error = check.errors?.[0];
  const path = (error?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  throw new InvalidArgumentError(`${at}${path ? `.${path}` : ''}: ${error?.message ?? "not GitBook's JSONDocument"}`);
}
