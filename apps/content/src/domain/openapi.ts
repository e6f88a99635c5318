import { createHash } from 'node:crypto';
import { validate } from '@scalar/openapi-parser';
import { OPENAPI_SPEC } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { parseDocument } from 'yaml';
import type { CheckedDocument } from '../store/openapi.ts';

/** The same document as JSON may take more room than its YAML; both travel between services under 16 MiB. */
const MAX_SPEC_JSON_BYTES = 12 * 1024 * 1024;
export const SPEC_FETCH_TIMEOUT_MS = 20_000;

/** GitBook's spec slug: lower-case words joined by dashes. */
export const SPEC_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const VISIBILITIES = ['private', 'public'] as const;

export function checkSlug(slug: string): string {
  if (!slug || slug.length > 100 || !SPEC_SLUG.test(slug))
    throw new InvalidArgumentError('slug: must be 1 to 100 lower-case letters, digits and single dashes (like "petstore-v2")');
  return slug;
}

export function checkVisibility(visibility: string): string {
  if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw new InvalidArgumentError(`visibility: must be one of ${VISIBILITIES.join(', ')}`);
  return visibility;
}

// A reference to another file or URL is left as it is: never fetched, so not a fault of the spec.
const EXTERNAL = new Set(['EXTERNAL_REFERENCE_NOT_FOUND']);

const where = (path: string | string[] | undefined) => (Array.isArray(path) ? `/${path.join('/')}` : path || '/');

/**
 * The document checked as OpenAPI 3.x or Swagger 2.0 (JSON or YAML), or a 400 naming the first
 * problem and where: its line and column for a syntax error, its JSON pointer for the rest.
 */
export async function checkSpecDocument(text: string, field: string): Promise<CheckedDocument> {
  if (text.length > OPENAPI_SPEC.document.max) throw new InvalidArgumentError(`${field}: the spec is longer than ${OPENAPI_SPEC.document.max} characters`);
  if (!text.trim()) throw new InvalidArgumentError(`${field}: the spec is empty`);
  const parsed = parseDocument(text, { uniqueKeys: true });
  const syntax = parsed.errors[0];
  if (syntax) {
    const at = syntax.linePos?.[0];
    throw new InvalidArgumentError(
      `${field}: not valid JSON or YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const value: unknown = parsed.toJS({ maxAliasCount: 1000 });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidArgumentError(`${field}: the spec must be an object (an OpenAPI or Swagger document)`);
  const result = await validate(value as Record<string, unknown>);
  const problem = result.errors?.find((e) => !EXTERNAL.has(String(e.code)));
  if (!result.version || problem)
    throw new InvalidArgumentError(`${field}: not a valid OpenAPI document at ${where(problem?.path)}: ${problem?.message ?? 'no openapi or swagger version'}`);
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) > MAX_SPEC_JSON_BYTES) throw new InvalidArgumentError(`${field}: the spec is larger than ${MAX_SPEC_JSON_BYTES} bytes as JSON`);
  const version = 'swagger' in value ? `swagger ${String((value as { swagger: unknown }).swagger)}` : `openapi ${String((value as { openapi: unknown }).openapi)}`;
  return { text, json, version, digest: createHash('sha256').update(text).digest('hex') };
}
