import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JSONDocument } from '@quire/document';
import type { TestUser } from '@quire/orgs/testing';
import { chromiumFor, describeInChromium, expectAccessible, shots, startApp, writerAndReviewer } from './app-server.ts';

// The organization's OpenAPI specs in Debian's Chromium over the real gateway and services: the
// owner uploads ReadMe's OpenAPI 3.0 petstore (from its npm package) as a file, sees its version,
// inserts one of its operations in a page of a change request through "Insert API operation"
// (previewed before), and deletes the spec.

const petstore = createRequire(import.meta.url).resolve('@readme/oas-examples/3.0/json/petstore.json');

describeInChromium('OpenAPI specs in Chromium', () => {
  const browser = chromiumFor('openapi');
  let app: Awaited<ReturnType<typeof startApp>>, owner: TestUser, orgId: string;

  beforeAll(async () => ({ app, writer: owner, orgId } = await writerAndReviewer(browser)));
  afterAll(async () => {
    await browser.close();
    await app?.g.stop();
  });

  it('uploads a spec, lists its version, inserts an operation of it in a page, and deletes it', async () => {
    const w = await browser.signedIn(app.origin, owner, `/o/${orgId}/openapi`);
    await w.getByRole('heading', { name: 'OpenAPI specs', exact: true }).waitFor();
    await w.getByLabel('Slug').fill('petstore');
    await w.getByLabel('Spec file (JSON or YAML)').setInputFiles(petstore);
    await w.getByRole('button', { name: 'Upload' }).click();
    const row = w.getByRole('row', { name: /petstore/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('uploaded file');
    await row.getByRole('button', { name: 'Versions' }).click();
    await expect.poll(() => w.getByRole('list', { name: 'Versions of petstore' }).getByRole('listitem').count()).toBe(1);
    await expectAccessible(w, 'openapi');
    await w.screenshot({ path: `${shots}openapi-specs.png` });

    // A page of a change request: the operation chosen, previewed as the reader draws it, inserted and saved.
    await w.goto(`${app.origin}/o/${orgId}`);
    await w.getByLabel('New space title').fill('API');
    await w.getByRole('button', { name: 'New space' }).click();
    await w.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: 'API' }).click();
    const spaceId = new URL(w.url()).pathname.split('/')[4]!;
    await w.getByRole('link', { name: 'Edit' }).click();
    await w.getByLabel('Subject of the new change request').fill('Pets reference');
    await w.getByRole('button', { name: 'New change request' }).click();
    await w.getByRole('button', { name: 'New page' }).click();
    await w.getByLabel('Page title').fill('Pets');
    await w.getByRole('textbox', { name: /Content of/ }).click();
    await w.getByRole('button', { name: 'Insert API operation' }).click();
    const dialog = w.getByRole('dialog', { name: 'Insert API operation' });
    await dialog.getByLabel('Spec', { exact: true }).selectOption('petstore');
    await dialog.getByLabel('Filter operations').fill('petId');
    await dialog.getByLabel('Operation', { exact: true }).selectOption('get /pet/{petId}');
    const preview = dialog.getByRole('region', { name: 'Operation preview' });
    await preview.getByText('Find pet by ID', { exact: true }).waitFor();
    // As the published page draws it: parameters with their types, responses with their schemas, code samples.
    const drawn = (await preview.textContent())!;
    expect(drawn).toMatch(/Path parameters\s*petId\s*integer · int64\s*Required/);
    expect(drawn).toMatch(/Responses\s*200\s*successful operation/);
    expect(drawn).toContain("curl -X GET 'http://petstore.swagger.io/v2/pet/0'");
    expect(await preview.locator('.oa-op .oa-method-get').count()).toBe(1);
    await expectAccessible(w, 'insert-api-operation');
    await w.screenshot({ path: `${shots}insert-api-operation.png` });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    expect(await dialog.count()).toBe(0);

    const number = new URL(w.url()).pathname.split('/')[7]!;
    const content = `${app.origin}/v1/spaces/${spaceId}/change-requests/${number}/content`;
    const saved = () =>
      w.evaluate(async (base) => {
        const { pages } = (await (await fetch(`${base}/pages`)).json()) as { pages: { id: string; title: string }[] };
        const page = pages.find((p) => p.title === 'Pets');
        return page ? ((await (await fetch(`${base}/page/${page.id}?format=document`)).json()) as { document: JSONDocument }).document.nodes : [];
      }, content);
    await expect
      .poll(saved, { timeout: 20_000 })
      .toContainEqual(expect.objectContaining({ type: 'openapi-operation', data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet/{petId}', method: 'get' } }));

    await w.goto(`${app.origin}/o/${orgId}/openapi`);
    await w.getByRole('button', { name: 'Delete petstore' }).click();
    await w.getByText('No OpenAPI specs yet').waitFor();
    expect((await app.g.call(owner, 'GET', `/v1/orgs/${orgId}/openapi/petstore`)).statusCode).toBe(404);
  });
});
