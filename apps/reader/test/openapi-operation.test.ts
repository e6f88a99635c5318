import { operationHtml, codeSamples, schemaTree, findOperation, parseSpec, SpecError } from '@quire/render/openapi';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { textOf } from './html-text.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const things = parseSpec(fixture('things-3.0.yaml'));
const notes = parseSpec(fixture('notes-3.1.json'));
const pets = parseSpec(fixture('pets-2.0.yaml'));
const target = { action: '/o/s/~gitbook/openapi/proxy', siteSpace: 'ss1', page: 'p1', block: 0 };

describe('an OpenAPI 3.0 operation', () => {
  const op = findOperation(things.doc, '/things', 'POST')!;
  const html = operationHtml(things.doc, op, target);

  it('shows its method, path, server with its variables, summary and authorization', () => {
    expect(html).toContain('<span class="oa-method oa-method-post">POST</span> <code class="oa-path">/things</code>');
    expect(op.servers).toEqual(['https://eu.things.example.com/v1']);
    expect(textOf(html)).toContain('Create a thing');
    expect(textOf(html)).toContain('bearerAuth Authorization: bearer (HTTP bearer, JWT)');
  });

  it('shows the body as a schema tree: required fields, oneOf with its discriminator, the recursive Thing named', () => {
    const tree = schemaTree(things.doc, { $ref: '#/components/schemas/NewThing' });
    expect(tree.children.map((f) => [f.name, f.type, !!f.required])).toEqual([
      ['name', 'string', true],
      ['tags', 'string[]', false],
      ['shape', 'one of', true],
      ['parent', 'Thing', false],
    ]);
    const shape = tree.children[2]!;
    expect(shape.variants).toMatchObject({ kind: 'oneOf', discriminator: 'kind', mapping: { circle: 'Circle', square: 'Square' } });
    expect(shape.variants!.options.map((o) => o.children.map((c) => c.name))).toEqual([
      ['kind', 'radius'],
      ['kind', 'side'],
    ]);
    // Thing (allOf NewThing + id, children) holds Things: shown once, then by name.
    const parent = tree.children[3]!;
    expect(parent.children.map((f) => f.name)).toEqual(['name', 'tags', 'shape', 'parent', 'id', 'children', 'createdAt']);
    const children = parent.children.find((f) => f.name === 'children')!;
    expect(children.type).toBe('Thing[]');
    expect(parent.children.find((f) => f.name === 'parent')).toMatchObject({ recursive: 'Thing' });
    expect(parent.children.find((f) => f.name === 'createdAt')!.type).toBe('string · date-time | null');
    expect(html).toContain('Thing (recursive)');
  });

  it('shows each response with its headers and schema, an example without read-only fields in the request', () => {
    const text = textOf(html);
    expect(text).toContain('201 Created.');
    expect(text).toContain('Location string Where the new thing lives.');
    expect(text).toContain('422 The thing was not valid.');
    const curl = codeSamples(things.doc, op).find((s) => s.label === 'cURL')!.source;
    expect(curl).toContain("curl -X POST 'https://eu.things.example.com/v1/things'");
    expect(curl).toContain("-H 'Authorization: Bearer YOUR_TOKEN'");
    expect(curl).toContain('"name": "lamp"');
    expect(curl).not.toContain('"id"');
  });

  it('honours x-codeSamples, and writes fetch and requests samples', () => {
    const samples = codeSamples(things.doc, op);
    expect(samples.map((s) => s.label)).toEqual(['Go SDK', 'cURL', 'JavaScript', 'Python']);
    expect(samples[2]!.source).toContain('method: "POST"');
    expect(samples[2]!.source).toContain('body: JSON.stringify({');
    expect(samples[3]!.source).toContain('json={');
    expect(samples[3]!.source).toContain('"tags": [');
  });

  it('renders descriptions as sanitized markdown', () => {
    const list = operationHtml(things.doc, findOperation(things.doc, '/things', 'get')!);
    expect(list).toContain('<strong>newest first</strong>');
    expect(list).not.toContain('<script');
  });

  it('shows parameters by place with type, format, default, enum and example', () => {
    const list = operationHtml(things.doc, findOperation(things.doc, '/things', 'get')!);
    const text = textOf(list);
    expect(text).toContain('Query parameters limit integer How many to answer. Default: 20');
    expect(text).toContain('kind string Possible values: widget gadget');
    expect(text).toContain('Header parameters X-Trace string · uuid A trace id to follow the request.');
    const del = operationHtml(things.doc, findOperation(things.doc, '/things/{thingId}', 'delete')!);
    expect(textOf(del)).toContain('Path parameters thingId integer · int64 Required Example: 42');
    expect(del).toContain('oa-op-deprecated');
    expect(textOf(del)).toContain('apiKey X-API-Key in header (API key) A key from your settings.');
  });

  it('puts a Test it form with the operation’s parameters and body, naming the block it comes from', () => {
    expect(html).toContain('data-oa-try action="/o/s/~gitbook/openapi/proxy"');
    expect(html).toContain('data-block="0"');
    expect(html).toContain('<textarea data-body');
    expect(operationHtml(things.doc, op)).not.toContain('data-oa-try');
  });
});

describe('OpenAPI 3.1 and Swagger 2.0', () => {
  it('3.1: null in type lists, anyOf, cookies, a recursive pair, an external reference never fetched', () => {
    const op = findOperation(notes.doc, '/notes/{id}', 'patch')!;
    const html = operationHtml(notes.doc, op);
    const text = textOf(html);
    expect(text).toContain('Cookie parameters session string');
    expect(text).toContain('title string | null Example: Groceries');
    expect(text).toContain('Any of');
    expect(text).toContain('application/x-www-form-urlencoded');
    expect(text).toContain('ext.json (not in this spec)');
    expect(text).toContain('Rich (recursive)');
    expect(codeSamples(notes.doc, op)[0]).toEqual({ label: 'ruby', lang: 'ruby', source: 'Notes.patch(id)' });
  });

  it('2.0: the body parameter as a request body, host and basePath as the server', () => {
    const op = findOperation(pets.doc, '/pets', 'post')!;
    expect(op.servers).toEqual(['https://pets.example.com/v2']);
    const text = textOf(operationHtml(pets.doc, op));
    expect(text).toContain('Body Required application/json Pet name string Required Example: doggie status string Default: available Possible values: available sold');
    expect(text).toContain('api_key in header (API key)');
  });

  it('a missing operation is undefined; what is no spec says so', () => {
    expect(findOperation(pets.doc, '/pets', 'delete')).toBeUndefined();
    expect(findOperation(pets.doc, '/nowhere', 'get')).toBeUndefined();
    expect(() => parseSpec('{"hello": 1}')).toThrow(SpecError);
    expect(() => parseSpec('openapi: [3')).toThrow(/not valid JSON or YAML/);
  });

  it('a schema that is a chain of references to itself never hangs', () => {
    const spec = parseSpec(JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {}, components: { schemas: { A: { $ref: '#/components/schemas/A' } } } }));
    expect(schemaTree(spec.doc, { $ref: '#/components/schemas/A' }).external).toBe('#/components/schemas/A');
  });
});
