import { describe, expect, it } from 'vitest';
import { OPENAPI_SPEC } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { checkSlug, checkSpecDocument, checkVisibility } from './openapi.ts';

const spec = (paths = "  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n") => `openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths:\n${paths}`;

describe('checkSpecDocument', () => {
  it('keeps the text, its JSON, its version and a digest of the text', async () => {
    const checked = await checkSpecDocument(spec(), 'text');
    expect(checked.version).toBe('openapi 3.0.3');
    expect(JSON.parse(checked.json)).toMatchObject({ info: { title: 'Pets' }, paths: { '/pets': { get: {} } } });
    expect(checked.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await checkSpecDocument('{"swagger":"2.0","info":{"title":"x","version":"1"},"paths":{}}', 'text')).version).toBe('swagger 2.0');
  });

  it.each([
    ['a syntax error, by line and column', "openapi: 3.0.3\ninfo: { title: 'x\n", /^text: not valid JSON or YAML at line 3, column 1: Missing closing 'quote$/],
    ['a duplicate key', 'openapi: 3.0.3\nopenapi: 3.1.0\n', /^text: not valid JSON or YAML at line 2/],
    ['a misplaced field, by JSON pointer', spec('  /pets:\n    get:\n      answers: {}\n'), /^text: not a valid OpenAPI document at \/paths\/~1pets\/get: /],
    ['a document that is no spec', 'title: hello\n', /^text: not a valid OpenAPI document/],
    ['a list', '- 1\n', /^text: the spec must be an object/],
    ['nothing', '  \n', /^text: the spec is empty/],
    ['a text over the bound', 'x'.repeat(OPENAPI_SPEC.document.max + 1), /^text: the spec is longer than 8388608 characters/],
  ])('refuses %s', async (_, text, message) => {
    const err = await checkSpecDocument(text, 'text').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).toMatch(message);
  });

  it('keeps references to other files as written (never fetched) and cycles', async () => {
    const text = spec("  /pets:\n    get:\n      responses:\n        '200': { $ref: 'https://example.com/pet.yaml' }\n");
    expect(JSON.parse((await checkSpecDocument(text, 'text')).json).paths['/pets'].get.responses['200']).toEqual({ $ref: 'https://example.com/pet.yaml' });
    const cyclic = `${spec()}components:\n  schemas:\n    Node: { type: object, properties: { next: { $ref: '#/components/schemas/Node' } } }\n`;
    expect((await checkSpecDocument(cyclic, 'text')).version).toBe('openapi 3.0.3');
  });
});

describe('slugs and visibility', () => {
  it('takes GitBook slugs and its two visibilities only', () => {
    expect(checkSlug('petstore-v2')).toBe('petstore-v2');
    for (const bad of ['', 'Pets', 'a--b', '-a', 'a b']) expect(() => checkSlug(bad)).toThrow(/^slug: /);
    expect(checkVisibility('public')).toBe('public');
    expect(() => checkVisibility('unlisted')).toThrow(/^visibility: must be one of private, public/);
  });
});
