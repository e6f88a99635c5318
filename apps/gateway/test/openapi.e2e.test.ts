import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, onTestFinished } from 'vitest';
import { test } from './fixtures.ts';
import { expectError, ok } from './harness.ts';

// GitBook's organization OpenAPI specs (/v1/orgs/{organizationId}/openapi); setup.ts checks every
// answer against GitBook's OpenAPI document.

const petstore = (title = 'Petstore') => `openapi: 3.1.0
info:
  title: ${title}
  version: 1.0.0
paths:
  /pets/{petId}:
    get:
      summary: Get a pet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
components:
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string }
        parent: { $ref: '#/components/schemas/Pet' }
`;

const swagger = JSON.stringify({ swagger: '2.0', info: { title: 'Old API', version: '1' }, paths: { '/ping': { get: { responses: { 200: { description: 'pong' } } } } } });

describe('/v1/orgs/{organizationId}/openapi', () => {
  test('creates a spec from YAML, reads it, its versions and its content as JSON', async ({ g, team }) => {
    const base = `/v1/orgs/${team.orgId}/openapi`;
    const spec = await ok(g.call(team.owner, 'POST', base, { slug: 'petstore', source: { text: petstore() } }), 201);
    expect(spec).toMatchObject({ object: 'openapi-spec', slug: 'petstore', processingState: 'complete', visibility: 'private', permissions: { view: true, edit: true } });
    expect(spec.urls.location).toMatch(new RegExp(`/v1/orgs/${team.orgId}/openapi/petstore$`));
    expect(await ok(g.call(team.reader, 'GET', `${base}/petstore`))).toMatchObject({ id: spec.id, permissions: { view: true, edit: false } });
    expect((await ok(g.call(team.reader, 'GET', base))).items.map((s: { slug: string }) => s.slug)).toEqual(['petstore']);

    const latest = await ok(g.call(team.reader, 'GET', `${base}/petstore/versions/latest`));
    expect(latest).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion });
    expect(await ok(g.call(team.reader, 'GET', `${base}/petstore/versions/${latest.id}`))).toEqual(latest);
    const content = await ok(g.call(team.reader, 'GET', `${base}/petstore/versions/latest/content`));
    expect(content.url).toBe(`${latest.urls.location}/content`);
    expect(content.filesystem['openapi.json']).toMatchObject({ openapi: '3.1.0', info: { title: 'Petstore' }, paths: { '/pets/{petId}': { get: { summary: 'Get a pet' } } } });
    expect(await ok(g.call(team.reader, 'GET', `${base}/petstore/versions/${latest.id}/content`))).toEqual(content);
  });

  test('PUT makes a new version only when the content changed, and creates a missing spec (201)', async ({ g, team }) => {
    const base = `/v1/orgs/${team.orgId}/openapi`;
    const created = await ok(g.call(team.owner, 'PUT', `${base}/petstore`, { source: { text: petstore() } }), 201);
    const same = await ok(g.call(team.owner, 'PUT', `${base}/petstore`, { source: { text: petstore() } }), 200);
    expect(same.lastVersion).toBe(created.lastVersion);
    const changed = await ok(g.call(team.owner, 'PUT', `${base}/petstore`, { source: { text: petstore('Petstore 2') } }), 200);
    expect(changed.lastVersion).not.toBe(created.lastVersion);
    const versions = await ok(g.call(team.owner, 'GET', `${base}/petstore/versions`));
    expect(versions.items.map((v: { id: string }) => v.id)).toEqual([changed.lastVersion, created.lastVersion]);
    const first = await ok(g.call(team.owner, 'GET', `${base}/petstore/versions/${created.lastVersion}/content`));
    expect(first.filesystem['openapi.json'].info.title).toBe('Petstore');

    // Swagger 2.0 as JSON, and the visibility.
    await ok(g.call(team.owner, 'PUT', `${base}/legacy`, { source: { text: swagger } }), 201);
    expect(await ok(g.call(team.owner, 'PATCH', `${base}/legacy`, { visibility: 'public' }))).toMatchObject({ slug: 'legacy', visibility: 'public' });
  });

  test('an invalid spec is a 400 naming the error and where, and nothing is saved', async ({ g, team }) => {
    const base = `/v1/orgs/${team.orgId}/openapi`;
    expectError(
      await g.call(team.owner, 'POST', base, { slug: 'broken', source: { text: 'openapi: 3.1.0\ninfo: [unclosed\n' } }),
      400,
      /^source\.text: not valid JSON or YAML at line \d+, column \d+/,
    );
    expectError(
      await g.call(team.owner, 'POST', base, { slug: 'broken', source: { text: petstore().replace('responses:', 'responsez:') } }),
      400,
      /^source\.text: not a valid OpenAPI document at \/paths\/~1pets~1\{petId\}\/get: .*responsez/,
    );
    expectError(await g.call(team.owner, 'POST', base, { slug: 'broken', source: { text: '{"title": "not a spec"}' } }), 400, /not a valid OpenAPI document/);
    expectError(await g.call(team.owner, 'POST', base, { slug: 'Not A Slug', source: { text: petstore() } }), 400, /slug/);
    expectError(
      await g.call(team.owner, 'POST', base, { slug: 'x', source: { text: 'a'.repeat(8 * 1024 * 1024 + 1) } }),
      400,
      /^body\.source\.text: must NOT have more than 8388608 characters/,
    );
    expectError(
      await g.call(team.owner, 'POST', base, { slug: 'x', source: { url: 'https://example.com/a.yaml', text: 'a' } }),
      400,
      /^body\.source: must NOT have more than 1 properties/,
    );
    expectError(await g.call(team.owner, 'GET', `${base}/broken`), 404);
    expect((await ok(g.call(team.owner, 'GET', base))).items).toEqual([]);
  });

  test('a taken slug is a 409; deleting answers 205, then 204', async ({ g, team }) => {
    const base = `/v1/orgs/${team.orgId}/openapi`;
    await ok(g.call(team.owner, 'POST', base, { slug: 'petstore', source: { text: petstore() } }), 201);
    expectError(await g.call(team.owner, 'POST', base, { slug: 'petstore', source: { text: swagger } }), 409, /already exists/);
    await ok(g.call(team.owner, 'DELETE', `${base}/petstore`), 205);
    await ok(g.call(team.owner, 'DELETE', `${base}/petstore`), 204);
    expectError(await g.call(team.owner, 'GET', `${base}/petstore/versions/latest`), 404);
  });

  test("another organization's spec is a 404; members below create may only read", async ({ g, team }) => {
    const base = `/v1/orgs/${team.orgId}/openapi`;
    await ok(g.call(team.owner, 'POST', base, { slug: 'petstore', source: { text: petstore() } }), 201);
    expectError(await g.call(team.outsider, 'GET', `${base}/petstore`), 404);
    expectError(await g.call(team.outsider, 'GET', `${base}/petstore/versions/latest/content`), 404);
    expectError(await g.call(team.outsider, 'PUT', `${base}/petstore`, { source: { text: swagger } }), 404);
    expectError(await g.call(team.outsider, 'DELETE', `${base}/petstore`), 404);
    expectError(await g.call(team.editor, 'PUT', `${base}/petstore`, { source: { text: swagger } }), 403, /create role/);
    expectError(await g.call(team.reader, 'DELETE', `${base}/petstore`), 403);
    // The outsider's own organization has no such spec either.
    expectError(await g.call(team.outsider, 'GET', `/v1/orgs/${team.otherOrgId}/openapi/petstore`), 404);
  });

  test('a URL to a private address is refused; an external $ref is kept, never fetched', async ({ g, team }) => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end(petstore());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const base = `/v1/orgs/${team.orgId}/openapi`;
    expectError(await g.call(team.owner, 'POST', base, { slug: 'local', source: { url: `http://127.0.0.1:${port}/openapi.yaml` } }), 400, /source\.url: .*private IP address/);

    const external = petstore().replace("schema: { $ref: '#/components/schemas/Pet' }", `schema: { $ref: 'http://127.0.0.1:${port}/pet.yaml' }`);
    await ok(g.call(team.owner, 'POST', base, { slug: 'external', source: { text: external } }), 201);
    const content = await ok(g.call(team.owner, 'GET', `${base}/external/versions/latest/content`));
    expect(content.filesystem['openapi.json'].paths['/pets/{petId}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: `http://127.0.0.1:${port}/pet.yaml`,
    });
    expect(seen).toEqual([]);
  });
});
