import pg from 'pg';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startGateway, type OwnGateway } from './harness.ts';

// A Space is one call: content keeps review's counters and git-sync's link. Here with the real
// services: what the owners record shows at once, a lost copy is asked of its owner again, and a
// space (or a list of them) answers with review and git-sync gone.

let g: OwnGateway;
let contentDb: pg.Client;
let owner: TestUser;
let reader: TestUser;
let orgId: string;

beforeAll(async () => {
  // Its own services: a test kills review and git-sync.
  g = await startGateway({}, { own: true });
  contentDb = new pg.Client({ connectionString: g.content.databaseUrl });
  await contentDb.connect();
  [owner, reader] = await Promise.all([g.orgs.user('owner'), g.orgs.user('reader')]);
  orgId = (await g.orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
});
afterAll(async () => {
  await contentDb?.end();
  await g?.stop();
});

async function ok(res: Promise<{ statusCode: number; json(): unknown; body: string }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBeLessThan(300);
  return (r.body ? r.json() : {}) as Record<string, unknown> & { id: string };
}

/** A space with a change request, a comment on it and a Git link (its job refused: the URL is not reachable here). */
async function busySpace() {
  const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }));
  const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Draft' }));
  await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { body: { markdown: 'Looks good' } }));
  await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/git/import`, { url: 'https://github.com/acme/handbook.git', ref: 'refs/heads/main' }));
  return space.id;
}

const expected = { changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 1 };

describe('GET /v1/spaces/{id} from content alone', () => {
  it("shows the owners' changes at once, and asks an owner again for a copy that is lost", async () => {
    const spaceId = await busySpace();
    const shown = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}`));
    expect(shown).toMatchObject({ ...expected, gitSync: { repoName: 'acme/handbook', integration: 'git-sync', url: 'https://github.com/acme/handbook.git' } });
    // The state events went through the stream before the import's audit entry (published after them): none is audited.
    const audited = await vi.waitFor(
      async () => {
        const rows = await g.orgs.audit(orgId, 1);
        expect(rows.some((r) => r.action === 'git.import_started' && r.targetId === spaceId)).toBe(true);
        return rows;
      },
      { timeout: 10_000 },
    );
    expect(audited.filter((r) => r.targetId === spaceId).map((r) => r.action)).toEqual(['git.import_started']);

    // The copy is gone (a space from before the copies, say): the next read asks review and git-sync.
    await contentDb.query('DELETE FROM "SpaceCopy" WHERE "spaceId" = $1', [spaceId]);
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}`))).toEqual(shown);
    const { rows } = await contentDb.query('SELECT "countersVersion"::int AS v, "changeRequests", "gitLink" FROM "SpaceCopy" WHERE "spaceId" = $1', [spaceId]);
    // Review raised the version twice (the change request, the comment); the copy keeps it.
    expect(rows).toEqual([{ v: 2, changeRequests: 1, gitLink: expect.objectContaining({ repoName: 'acme/handbook' }) }]);

    // The same for a list: the missing copies of the page are asked for in one call to each owner.
    await contentDb.query('DELETE FROM "SpaceCopy" WHERE "spaceId" = $1', [spaceId]);
    const listed = (await ok(g.call(reader, 'GET', `/v1/orgs/${orgId}/spaces`))) as unknown as { items: { id: string }[] };
    expect(listed.items.find((s) => s.id === spaceId)).toEqual(shown);
  });

  it('follows change requests through a merge and back to draft', async () => {
    const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Guide' }));
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'One' }));
    const other = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Two' }));
    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ changeRequests: 2, changeRequestsOpen: 2 });
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    await ok(g.call(owner, 'PATCH', `/v1/spaces/${space.id}/change-requests/${other.id}`, { status: 'draft' }));
    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  });

  it('answers with review and git-sync gone: one call to content', async () => {
    const spaceId = await busySpace();
    g.review.kill();
    g.gitSync.kill();
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}`))).toMatchObject({ ...expected, gitSync: { repoName: 'acme/handbook' } });
    const listed = (await ok(g.call(reader, 'GET', `/v1/orgs/${orgId}/spaces`))) as unknown as { items: { id: string }[] };
    expect(listed.items.find((s) => s.id === spaceId)).toMatchObject(expected);
  });
});
