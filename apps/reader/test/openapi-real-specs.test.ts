import { newDrawn, operationMarkdown, operationHtml, findOperation, isObj, METHODS, parseSpec, resolve, type Obj } from '@quire/render/openapi';
import { describe, expect, it } from 'vitest';
import { textOf } from './html-text.ts';
import { githubSpec, readmeExample, readmeExamples } from './real-specs.ts';

// Published specs, read from their npm packages: every operation of ReadMe's examples (Swagger 2.0,
// OpenAPI 3.0 and 3.1) and a share of GitHub's REST API drawn as a page draws them, each showing its
// method and path, its parameters, a body when it takes one, its responses and its code samples.

const target = { action: '/o/s/~gitbook/openapi/proxy', siteSpace: 'ss', page: 'p', block: 0 };

const operationsOf = (doc: Obj) =>
  Object.entries(doc.paths as Obj).flatMap(([path, item]) => METHODS.filter((m) => isObj(resolve(doc, item).value[m])).map((method) => ({ path, method })));

/** What every drawn operation shows, whatever its spec. */
function expectDrawn(doc: Obj, path: string, method: string, html: string) {
  const op = findOperation(doc, path, method)!;
  const text = textOf(html);
  expect(text).toContain(`${method.toUpperCase()} ${path}`);
  for (const p of op.parameters) expect(text).toContain(String(p.name));
  if (isObj(resolve(doc, op.operation.requestBody).value.content)) expect(html).toContain('<h4 class="oa-heading">Body');
  for (const status of Object.keys(isObj(op.operation.responses) ? op.operation.responses : {})) expect(html).toContain(`>${status}</span>`);
  expect(html).toContain('<summary>cURL</summary>');
  expect(html).toContain(`curl -X ${method.toUpperCase()}`);
  const md = operationMarkdown(doc, op);
  expect(md).toContain(`### ${method.toUpperCase()} ${path}`);
}

describe("ReadMe's OpenAPI examples", () => {
  it.each(readmeExamples())('%s: every operation is drawn, as HTML and markdown', (name) => {
    const { doc } = parseSpec(readmeExample(name));
    const ops = operationsOf(doc);
    // Only a document of webhooks has no operations.
    expect(ops.length > 0 || isObj(doc.webhooks)).toBe(true);
    const drawn = newDrawn();
    for (const { path, method } of ops) expectDrawn(doc, path, method, operationHtml(doc, findOperation(doc, path, method)!, target, drawn));
  });

  it('Swagger 2.0 petstore: the body parameter becomes a body with its fields; the server comes from host and basePath', () => {
    const { doc } = parseSpec(readmeExample('2.0/petstore.json'));
    const op = findOperation(doc, '/pet', 'post')!;
    expect(op.servers[0]).toMatch(/^https?:\/\/petstore\.swagger\.io\/v2$/);
    const text = textOf(operationHtml(doc, op, target));
    expect(text).toContain('Body Required Pet object that needs to be added to the store application/json Pet id integer');
    expect(text).toContain('photoUrls string[] Required');
    expect(text).toContain('petstore_auth');
  });

  it('3.1 YAML and JSON of the same spec draw the same operation', () => {
    const fromJson = parseSpec(readmeExample('3.1/petstore.json')).doc;
    const fromYaml = parseSpec(readmeExample('3.1/petstore.yaml')).doc;
    const op = (doc: Obj) => operationHtml(doc, findOperation(doc, '/pet/{petId}', 'get')!);
    expect(op(fromYaml)).toBe(op(fromJson));
  });
});

describe("GitHub's REST API (13 MB, deep references)", () => {
  const { doc } = parseSpec(githubSpec());
  const ops = operationsOf(doc);

  it('reads all its operations, and draws one in ten as one page would', () => {
    expect(ops.length).toBeGreaterThan(1000);
    const drawn = newDrawn();
    for (const { path, method } of ops.filter((_, i) => i % 10 === 0)) expectDrawn(doc, path, method, operationHtml(doc, findOperation(doc, path, method)!, target, drawn));
  });

  it('creating an issue: path and body parameters, the 201 answer with its referenced schemas, code samples', () => {
    const op = findOperation(doc, '/repos/{owner}/{repo}/issues', 'post')!;
    const html = operationHtml(doc, op, target);
    const text = textOf(html);
    expect(text).toContain('Path parameters owner string Required');
    expect(text).toContain('repo string Required');
    expect(text).toMatch(/title one of Required/);
    expect(text).toContain('labels');
    // The issue (#/components/schemas/issue) and its user (simple-user), reached by references.
    expect(text).toContain('201');
    expect(html).toContain('<code class="oa-name">assignee</code>');
    expect(text).toContain('login string Required');
    expect(text).toContain("curl -X POST 'https://api.github.com/repos/");
    expect(text).toContain('requests.request(');
    // Bounded: a page of one operation of a schema this deep stays small.
    expect(html.length).toBeLessThan(400_000);
  });
});
