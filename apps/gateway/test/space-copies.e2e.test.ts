import pg from 'pg';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { describe, expect, vi } from 'vitest';
import { startGateway, type Gateway, type OwnGateway } from './harness.ts';
import { ownGateway, tenant, test as base, type Tenant } from './fixtures.ts';

// A Space is one call: content keeps review's counters and git-sync's link. Here with the real
// services: what the owners record shows at once, a lost copy is asked of its owner again, and a
// space (or a list of them) answers with review and git-sync gone.

type Acme = Tenant<'reader'>;
const acmeOn = (g: Gateway) => tenant(g, { reader: Role.ROLE_READ });

// Each test in an organization of its own: an owner and a reader.
const it = base.extend<{ copiesGateway: OwnGateway; acme: Acme; contentDb: pg.Client; doomed: Acme & { g: OwnGateway } }>({
  // Its own services: a test deletes content's copies in its database.
  copiesGateway: ownGateway({}, { own: true }),
  acme: async ({ copiesGateway }, use) => use(await acmeOn(copiesGateway)),
  contentDb: async ({ copiesGateway }, use) => {
    const db = new pg.Client({ connectionString: copiesGateway.content.databaseUrl });
    await db.connect();
    await use(db);
    await db.end();
  },
  // Services of the test's own, and the organization on them: it kills review and git-sync.
  doomed: async ({}, use) => {
    const g = await startGateway({}, { own: true });
    await use({ g, ...(await acmeOn(g)) });
    await g.stop();
  },
});

async function ok(res: Promise<{ statusCode: number; json(): unknown; body: string }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBeLessThan(300);
  return (r.body ? r.json() : {}) as Record<string, unknown> & { id: string };
}

/** A space of `orgId` with a change request, a comment on it and a Git link (its job refused: the URL is not reachable here). */
async function busySpace(g: Gateway, owner: TestUser, orgId: string) {
  const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }));
  const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Draft' }));
  await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { body: { markdown: 'Looks good' } }));
  await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/git/import`, { url: 'https://github.com/acme/handbook.git', ref: 'refs/heads/main' }));
  return space.id;
}

const expected = { changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 1 };

describe('GET /v1/spaces/{id} from content alone', () => {
  it("shows the owners' changes at once, and asks an owner again for a copy that is lost", async ({ copiesGateway: g, acme: { owner, reader, orgId }, contentDb }) => {
    const spaceId = await busySpace(g, owner, orgId);
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

  it('follows change requests through a merge and back to draft', async ({ copiesGateway: g, acme: { owner, orgId } }) => {
    const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Guide' }));
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'One' }));
    const other = await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Two' }));
    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ changeRequests: 2, changeRequestsOpen: 2 });
    await ok(g.call(owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    await ok(g.call(owner, 'PATCH', `/v1/spaces/${space.id}/change-requests/${other.id}`, { status: 'draft' }));
    expect(await ok(g.call(owner, 'GET', `/v1/spaces/${space.id}`))).toMatchObject({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  });

  it('answers with review and git-sync gone: one call to content', async ({ doomed: { g, owner, reader, orgId } }) => {
    const spaceId = await busySpace(g, owner, orgId);
    g.review.kill();
    g.gitSync.kill();
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}`))).toMatchObject({ ...expected, gitSync: { repoName: 'acme/handbook' } });
    const listed = (await ok(g.call(reader, 'GET', `/v1/orgs/${orgId}/spaces`))) as unknown as { items: { id: string }[] };
    expect(listed.items.find((s) => s.id === spaceId)).toMatchObject(expected);
  });
});
