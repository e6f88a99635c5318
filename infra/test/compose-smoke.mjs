// The smoke suite compose.sh runs against a deployment it started, through its published ports
// only: the first administrator signs in, a space is filled by a Git import, a site is published
// and read on the reader, a PDF export is downloaded. Plain Node (fetch), so it needs no install.
// Settings: GATEWAY, READER (origins), ADMIN_EMAIL, ADMIN_PASSWORD, TOKEN (the bootstrap API
// token), REPO (the Git URL as git-sync sees it).
import assert from 'node:assert/strict';

const { GATEWAY, READER, ADMIN_EMAIL, ADMIN_PASSWORD, TOKEN, REPO } = process.env;
const step = (what) => process.stdout.write(`smoke: ${what}\n`);

/** A JSON call to the API with the bootstrap token; the answer's body, its status checked. */
async function api(method, path, body, status = [200, 201, 204]) {
  const res = await fetch(`${GATEWAY}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assert.ok([status].flat().includes(res.status), `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Asks `probe` every second until it answers something, for at most `seconds`. */
async function eventually(what, probe, seconds = 120) {
  for (let i = 0; i < seconds; i++) {
    const found = await probe();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${what}: not within ${seconds} s`);
}

// 1. The first administrator signs in with the password quire init printed.
const origin = { origin: GATEWAY, 'content-type': 'application/json' };
const signIn = await fetch(`${GATEWAY}/auth/sign-in`, { method: 'POST', headers: origin, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
assert.equal(signIn.status, 204, `sign-in: ${signIn.status} ${await signIn.text()}`);
const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const session = await fetch(`${GATEWAY}/auth/session`, { headers: { cookie } });
assert.equal(session.status, 200);
assert.equal((await session.json()).user.email, ADMIN_EMAIL);
const wrong = await fetch(`${GATEWAY}/auth/sign-in`, { method: 'POST', headers: origin, body: JSON.stringify({ email: ADMIN_EMAIL, password: 'not the password' }) });
assert.equal(wrong.status, 401);
step(`${ADMIN_EMAIL} signed in with the printed password`);

// 2. A space filled by a Git import from the repository the script serves.
const { items: orgs } = await api('GET', '/v1/orgs');
const orgId = orgs[0].id;
const space = await api('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Smoke' });
await api('POST', `/v1/spaces/${space.id}/git/import`, { url: REPO, ref: 'refs/heads/main' });
const pages = await eventually('the imported pages', async () => {
  const content = await api('GET', `/v1/spaces/${space.id}/content`);
  return content.pages.length >= 2 ? content.pages : undefined;
});
assert.deepEqual(pages.map((p) => p.title).sort(), ['Installation', 'Welcome']);
step(`Git import: ${pages.length} pages`);

// 3. A public site, published and read on the reader.
const site = await api('POST', `/v1/orgs/${orgId}/sites`, { title: 'Smoke docs', spaces: [space.id] });
await api('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { visibility: 'public' });
const published = await api('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`);
const siteUrl = published.urls?.published ?? `${READER}/${orgId}/${site.id}`;
assert.ok(siteUrl.startsWith(READER), `the site's URL ${siteUrl} is on the reader (${READER})`);
const html = await eventually('the published page', async () => {
  const res = await fetch(`${siteUrl}/installation`);
  return res.status === 200 ? res.text() : undefined;
});
assert.match(html, /Install with/);
step(`site read at ${siteUrl}`);

// 4. A PDF export, made by review's Chromium, downloaded through its signed link.
const link = await api('GET', `/v1/spaces/${space.id}/export?format=pdf`);
const pdf = await eventually('the PDF export', async () => {
  const res = await fetch(link.url);
  if (res.status === 202) return undefined;
  assert.equal(res.status, 200, `download: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}, 180);
assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
step(`PDF export: ${pdf.length} bytes`);
