import type { TestUser } from '@quire/orgs/testing';
import { ok } from '@quire/gateway/testing';
import { Role } from '@quire/proto/common';
import { afterAll, beforeAll } from 'vitest';
import { startReader } from './harness.ts';

/**
 * The published-site files' start: a reader logging at info (its lines in `logged`: credentials in
 * query strings must be in none of them), an owner with an organization, and another organization
 * the owner administers. `published()` registers the file's hooks; the fields are set once they ran.
 */
export function published() {
  const s = { logged: [] as string[] } as { h: Awaited<ReturnType<typeof startReader>>; owner: TestUser; orgId: string; otherOrg: string; logged: string[] };
  beforeAll(async () => {
    s.h = await startReader({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void s.logged.push(line) } });
    s.owner = await s.h.g.orgs.user('owner');
    s.orgId = (await s.h.g.orgs.organization(s.owner, [])).id;
    const outsider = await s.h.g.orgs.user('outsider');
    s.otherOrg = (await s.h.g.orgs.organization(outsider, [[s.owner, Role.ROLE_ADMIN]], 'Other')).id;
  }, 120_000);
  afterAll(() => s.h?.stop());

  /** A GET to the reader. */
  const get = (url: string, headers: Record<string, string> = {}) => s.h.reader.app.inject({ method: 'GET', url, headers });
  /** A call of the organization's API as its owner, answering `status`. */
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown, status = 200) => ok(s.h.g.call(s.owner, method, `/v1/orgs/${s.orgId}${url}`, body), status);
  /** A site of these spaces with the settings of `body`, published. */
  async function publishedSite(spaces: string[], body: Record<string, unknown> = {}) {
    const site = await api('POST', '/sites', { title: 'Acme Docs', spaces, ...body }, 201);
    if (Object.keys(body).length) await api('PATCH', `/sites/${site.id}`, body);
    await api('POST', `/sites/${site.id}/publish`);
    return site as { id: string };
  }
  return { s, get, api, publishedSite };
}
