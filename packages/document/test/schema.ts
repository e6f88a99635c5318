import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import type { JSONDocument } from '../src/index.ts';

// GitBook's own JSONDocument schema (OpenAPI 3.1, JSON Schema 2020-12), its `$ref`s resolved
// against the spec's components.
const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as { components: { schemas: Record<string, unknown> } };
const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { icon: true } });
ajv.addSchema({ $id: 'https://gitbook.local/openapi.json', components: spec.components });
const validate = ajv.compile({ $ref: 'https://gitbook.local/openapi.json#/components/schemas/JSONDocument' });

/** The schema errors of a document ([] when it conforms). */
export function schemaErrors(document: JSONDocument): string[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
