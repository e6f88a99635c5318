import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { FormatRegistry } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

const base: Options = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false };

function ajv(options: Options) {
  const instance = new Ajv({ ...base, ...options });
  addFormats.default(instance);
  return instance;
}

// Checks made with TypeBox's own validator (each content change against its operation's schema)
// know the formats the routes know, by asking the same Ajv.
const formats = ajv({});
for (const format of ['uri', 'email', 'date-time']) {
  const check = formats.compile({ type: 'string', format });
  FormatRegistry.Set(format, (value) => check(value));
}

/**
 * Query strings and path parameters arrive as text and are coerced to their schema types; bodies
 * are JSON and are taken as sent, so `{"title": 12}` is a 400, not the title "12".
 */
export function registerValidation(app: FastifyInstance): void {
  const coercing = ajv({ coerceTypes: 'array' });
  const strict = ajv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
