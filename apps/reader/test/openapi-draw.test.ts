import { descriptionHtml, newDrawn, operationHtml, findOperation, parseSpec } from '@quire/render/openapi';
import { fromMarkdown, toHtml } from '@quire/document';
import { describe, expect, it } from 'vitest';

// What keeps a page of many operations fast and small: plain descriptions written without the
// markdown parser (and the same HTML as with it), a named schema drawn once per page and linked to
// after, the request's example only in its code samples.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const spec = parseSpec(
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Shared', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/a': { post: { requestBody: json(ref('Order')), responses: { '200': { description: 'Made', ...json(ref('Order')) } } } },
      '/b': { get: { responses: { '200': { description: 'Listed', ...json({ type: 'array', items: ref('Order') }) } } } },
    },
    components: {
      schemas: {
        Order: { type: 'object', properties: { id: { type: 'string', description: 'The order id.' }, buyer: ref('Person'), note: { type: 'string', nullable: true } } },
        Person: { type: 'object', properties: { name: { type: 'string', example: 'Ada' } } },
      },
    },
  }),
);

describe('descriptions', () => {
  it('a plain line is written as markdown would write it; anything else goes through markdown', () => {
    for (const text of [
      'Field 3 of resource 2: what it holds and when it changes.',
      'The thing\'s (first) name, or "none"; see below?',
      'Spaces  inside, trailing ',
      'A *bold* claim',
      '1. a list',
      'Tom & Jerry <b>x</b>',
      'See https://example.com for more',
      'Two\n\nparagraphs',
    ])
      expect(descriptionHtml(text)).toBe(toHtml(fromMarkdown(text)));
    expect(descriptionHtml('<script>alert(1)</script> x')).not.toContain('<script');
  });
});

describe('a page of operations sharing schemas', () => {
  const drawn = newDrawn('oa-s1-');
  const post = operationHtml(spec.doc, findOperation(spec.doc, '/a', 'post')!, undefined, drawn);
  const get = operationHtml(spec.doc, findOperation(spec.doc, '/b', 'get')!, undefined, drawn);

  it('draws a named schema at its first use, then links to it', () => {
    // The request body draws Order (and Person, collapsed); its response links back to it.
    expect(post.match(/<code class="oa-name">buyer<\/code>/g)).toHaveLength(1);
    expect(post).toContain('<div class="oa-properties" id="oa-s1-1">');
    expect(post).toContain('<details class="oa-children" id="oa-s1-2"><summary>Show properties</summary>');
    expect(post).toContain('<a href="#oa-s1-1">Order properties</a> shown above');
    // The next operation's array of Orders links to the same place.
    expect(get).toContain('<a href="#oa-s1-1">Order properties</a> shown above');
    expect(get).not.toContain('oa-name">buyer');
  });

  it('draws everything again for a page of its own, and writes the request example only in code samples', () => {
    const alone = operationHtml(spec.doc, findOperation(spec.doc, '/b', 'get')!);
    expect(alone).toContain('<code class="oa-name">buyer</code>');
    expect(alone).toContain('<details class="oa-example">');
    expect(post.match(/<details class="oa-example">/g)).toHaveLength(1);
    expect(post).toContain('&quot;name&quot;: &quot;Ada&quot;');
  });

  it('reads OpenAPI 3.0 as it is: nullable shown as such', () => {
    expect(spec.doc.openapi).toBe('3.0.3');
    expect(post).toContain('<span class="oa-type">string | null</span>');
  });
});
