import { describe, expect, it } from 'vitest';
import { matchesOperation, operationTerms, searchableOperations } from './openapi-search.ts';

const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things/{thingId}': {
      parameters: [{ name: 'thingId', in: 'path', required: true }],
      get: { summary: 'Read a thing', parameters: [{ $ref: '#/components/parameters/Expand' }] },
      delete: { operationId: 'removeThing' },
    },
    '/x': { $ref: '#/components/pathItems/X' },
  },
  components: { parameters: { Expand: { name: 'expand', in: 'query' } }, pathItems: { X: { post: { summary: 'Post x' } } } },
});

describe('operations as search reads them', () => {
  it('lists each operation with its summary (else its operationId) and parameter names, references followed', () => {
    expect(searchableOperations(spec)).toEqual([
      { method: 'GET', path: '/things/{thingId}', summary: 'Read a thing', parameters: ['thingId', 'expand'] },
      { method: 'DELETE', path: '/things/{thingId}', summary: 'removeThing', parameters: ['thingId'] },
      { method: 'POST', path: '/x', summary: 'Post x', parameters: [] },
    ]);
  });

  it('reads YAML; finds nothing in what is no spec', () => {
    expect(searchableOperations('swagger: "2.0"\npaths:\n  /a:\n    get:\n      summary: A\n')).toEqual([{ method: 'GET', path: '/a', summary: 'A', parameters: [] }]);
    expect(searchableOperations('{"not": "a spec"')).toEqual([]);
    expect(searchableOperations('- a list')).toEqual([]);
  });

  it('matches when every word of the query is in the method, path, summary or a parameter name', () => {
    const [read] = searchableOperations(spec);
    expect(operationTerms('"Read" thing -old OR x')).toEqual(['read', 'thing', 'x']);
    expect(matchesOperation(read!, operationTerms('read thing'))).toBe(true);
    expect(matchesOperation(read!, operationTerms('/things/{thingId}'))).toBe(true);
    expect(matchesOperation(read!, operationTerms('EXPAND get'))).toBe(true);
    expect(matchesOperation(read!, operationTerms('read delete'))).toBe(false);
    expect(matchesOperation(read!, operationTerms('- " "'))).toBe(false);
  });
});
