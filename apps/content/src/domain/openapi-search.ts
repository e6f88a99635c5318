import { specOperations } from '@quire/document/openapi';
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

/** The operations of a spec's text (JSON or YAML, OpenAPI 3 or Swagger 2.0); none when it is not one. */
export function searchableOperations(text: string): SearchableOperation[] {
  let doc: unknown;
  try {
    doc = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch {
    return [];
  }
  return specOperations(doc).map((op) => ({
    method: op.method.toUpperCase(),
    path: op.path,
    summary: op.summary || op.operationId,
    parameters: [...new Set(op.parameters.map((p) => p.name))],
  }));
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
