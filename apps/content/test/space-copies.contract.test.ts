import { status } from '@grpc/grpc-js';
import pg from 'pg';
import type {
  CreateSpaceRequest,
  GetSpaceRequest,
  RecordSpaceCopiesResponse,
  RecordSpaceCountersRequest,
  RecordSpaceGitLinksRequest,
  Space,
  SpaceCounters,
  SpaceGitLink,
} from '@quire/proto/content';
import { unaryCall, type ServiceName } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { connectNats, publishEvent, STATE_EVENTS, type DomainEvent, type NatsConnection } from '@quire/service-kit/nats';
import { connectDb, testIdentity } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startContent, type ContentHarness } from './harness.ts';

// The copies of what a Space shows from review (counters) and git-sync (its Git link): fed by
// their state events on a real JetStream stream (the durable consumer) and by their calls.

let orgs: OrgsHarness;
let h: ContentHarness;
let nc: NatsConnection;
let db: pg.Client;
let owner: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address, { eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX, eventsStream: orgs.config.EVENTS_STREAM });
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'copies-test', { info: () => {} });
  db = await connectDb(h.databaseUrl);
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [])).id;
});
afterAll(async () => {
  await db?.end();
  await nc?.drain();
  await h?.stop();
  await orgs?.stop();
});

const newSpace = () => h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId: orgId, title: 'Handbook', emoji: '', editMode: '', visibility: '' }, owner.id);
const getSpace = (spaceId: string) => h.call<GetSpaceRequest, Space>(h.client.getSpace, { spaceId }, owner.id);

/** Calls as `service` itself (no user), the way review and git-sync record their copies. */
const asService = (service: ServiceName) => ({ identity: testIdentity(service), audience: 'content' as const });
const recordCounters = (counters: SpaceCounters[], service: ServiceName = 'review', userId?: string) =>
  unaryCall<RecordSpaceCountersRequest, RecordSpaceCopiesResponse>(h.client, h.client.recordSpaceCounters, { counters }, { userId, requestId: 'test' }, asService(service));
const recordLinks = (links: SpaceGitLink[], service: ServiceName = 'git-sync') =>
  unaryCall<RecordSpaceGitLinksRequest, RecordSpaceCopiesResponse>(h.client, h.client.recordSpaceGitLinks, { links }, { requestId: 'test' }, asService(service));

const counts = (spaceId: string, version: number, n: number): SpaceCounters => ({
  spaceId,
  version,
  comments: n,
  changeRequests: n + 1,
  changeRequestsOpen: n,
  changeRequestsDraft: 1,
});
const link = (spaceId: string, version: number, repoName: string): SpaceGitLink => ({
  spaceId,
  version,
  repoName,
  installationProvider: 'github',
  integration: 'git-sync',
  url: `https://github.com/acme/${repoName}`,
  updatedAt: new Date(Date.UTC(2026, 10, 24, 12, version)),
});

/** Publishes a state event as its owner does (a new event id each time). */
async function publish(kind: keyof typeof STATE_EVENTS, details: Record<string, unknown>) {
  const event: DomainEvent = {
    id: newId(),
    occurredAt: new Date().toISOString(),
    ...STATE_EVENTS[kind],
    organizationId: orgId,
    target: { type: 'space', id: String(details.spaceId) },
    details,
  };
  await publishEvent(nc.jetstream(), event, orgs.config.EVENTS_SUBJECT_PREFIX);
}
const countersEvent = (c: SpaceCounters) => publish('spaceCounters', { ...c });
const linkEvent = (l: SpaceGitLink) => publish('spaceGitLink', { ...l, updatedAt: l.updatedAt!.toISOString() });

/**
 * Waits until the consumer took every event published before: an event about a space of its own
 * (a sentinel, in the same stream after them) shows. The consumer handles one message after another.
 */
async function drained() {
  const sentinel = await newSpace();
  await countersEvent(counts(sentinel.id, 1, 1));
  await vi.waitFor(async () => expect((await getSpace(sentinel.id)).counters?.version).toBe(1), { timeout: 10_000, interval: 50 });
}

describe('copies fed by state events (durable JetStream consumer)', () => {
  it('a new space starts with known, empty copies', async () => {
    const space = await newSpace();
    expect(space.counters).toEqual({ spaceId: space.id, version: 0, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    expect(space.gitLink).toBeUndefined();
    expect((await getSpace(space.id)).counters).toEqual(space.counters);
  });

  it('applies an event once: the same version again, in another event or the owner call, changes nothing', async () => {
    const { id } = await newSpace();
    await countersEvent(counts(id, 1, 3));
    await vi.waitFor(async () => expect((await getSpace(id)).counters).toEqual(counts(id, 1, 3)), { timeout: 10_000, interval: 50 });
    // Redelivered (a new event id, so the stream does not drop it) with other numbers: ignored.
    await countersEvent(counts(id, 1, 7));
    await drained();
    expect((await getSpace(id)).counters).toEqual(counts(id, 1, 3));
    expect(await recordCounters([counts(id, 1, 9)])).toEqual({ applied: 0 });
    expect((await getSpace(id)).counters).toEqual(counts(id, 1, 3));
  });

  it('ignores an older version arriving after a newer one, per space', async () => {
    const [a, b] = [await newSpace(), await newSpace()];
    await countersEvent(counts(a.id, 3, 5));
    await countersEvent(counts(a.id, 2, 4));
    // Another space's versions are its own: its version 1 applies after space a's 3.
    await countersEvent(counts(b.id, 1, 2));
    await linkEvent(link(a.id, 4, 'newer'));
    await linkEvent(link(a.id, 2, 'older'));
    await drained();
    expect((await getSpace(a.id)).counters).toEqual(counts(a.id, 3, 5));
    expect((await getSpace(b.id)).counters).toEqual(counts(b.id, 1, 2));
    expect((await getSpace(a.id)).gitLink).toEqual(link(a.id, 4, 'newer'));
    expect(await recordLinks([link(a.id, 3, 'late')])).toEqual({ applied: 0 });
    expect(await recordLinks([link(a.id, 6, 'called')])).toEqual({ applied: 1 });
    expect((await getSpace(a.id)).gitLink).toEqual(link(a.id, 6, 'called'));
  });

  it('drops malformed state events and goes on with the next', async () => {
    const { id } = await newSpace();
    await publish('spaceCounters', { spaceId: id, version: 'two', comments: 1 });
    await publish('spaceCounters', { spaceId: id, version: 1, comments: -1, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    await publish('spaceGitLink', { spaceId: id, version: 1, repoName: 'x', installationProvider: '', integration: 'git-sync', url: 'u', updatedAt: 'not a date' });
    await countersEvent(counts(id, 2, 1));
    await vi.waitFor(async () => expect((await getSpace(id)).counters).toEqual(counts(id, 2, 1)), { timeout: 10_000, interval: 50 });
    expect((await getSpace(id)).gitLink).toBeUndefined();
  });

  it('skips events about spaces it does not have', async () => {
    await countersEvent(counts('no-such-space', 1, 1));
    await drained();
    const { rows } = await db.query('SELECT count(*)::int AS n FROM "SpaceCopy" WHERE "spaceId" = $1', ['no-such-space']);
    expect(rows[0].n).toBe(0);
  });

  it('lists show the copies too, read in one query for the page', async () => {
    const [a, b] = [await newSpace(), await newSpace()];
    expect(await recordCounters([counts(a.id, 1, 2), counts(b.id, 4, 6)])).toEqual({ applied: 2 });
    const res = await h.call<{ organizationId: string }, { items: Space[] }>(h.client.listSpacesInOrganization, { organizationId: orgId }, owner.id);
    expect(res.items.find((s) => s.id === a.id)!.counters).toEqual(counts(a.id, 1, 2));
    expect(res.items.find((s) => s.id === b.id)!.counters).toEqual(counts(b.id, 4, 6));
  });
});

describe('the owners record their own copies, as themselves', () => {
  it('refuses any other caller, a user, or the other owner', async () => {
    const { id } = await newSpace();
    await rejects(recordCounters([counts(id, 1, 1)], 'gateway'), status.PERMISSION_DENIED, /Only the review service/);
    await rejects(recordCounters([counts(id, 1, 1)], 'review', owner.id), status.PERMISSION_DENIED);
    await rejects(recordCounters([counts(id, 1, 1)], 'git-sync'), status.PERMISSION_DENIED, /Only the review service/);
    await rejects(recordLinks([link(id, 1, 'x')], 'review'), status.PERMISSION_DENIED, /Only the git-sync service/);
    // A user through the gateway cannot either.
    await rejects(h.call(h.client.recordSpaceCounters, { counters: [counts(id, 1, 1)] }, owner.id), status.PERMISSION_DENIED);
    expect((await getSpace(id)).counters?.version).toBe(0);
  });

  it('refuses malformed copies, naming the first, and more than a page', async () => {
    const { id } = await newSpace();
    await rejects(recordCounters([counts(id, 1, 1), { ...counts(id, 0, 1) }]), status.INVALID_ARGUMENT, /counters\[1\]/);
    await rejects(recordCounters([{ ...counts(id, 1, 1), spaceId: '' }]), status.INVALID_ARGUMENT, /counters\[0\]/);
    await rejects(recordLinks([{ ...link(id, 1, 'x'), updatedAt: undefined }]), status.INVALID_ARGUMENT, /links\[0\]/);
    await rejects(recordLinks([{ ...link(id, 1, 'x'), url: 'u'.repeat(2049) }]), status.INVALID_ARGUMENT, /links\[0\]/);
    await rejects(recordCounters(Array.from({ length: 1001 }, (_, i) => counts(`s${i}`, 1, 1))), status.INVALID_ARGUMENT, /at most 1000/);
    expect((await getSpace(id)).counters?.version).toBe(0);
  });

  it('keeps the newest of one space named twice in a call', async () => {
    const { id } = await newSpace();
    expect(await recordCounters([counts(id, 2, 2), counts(id, 5, 5), counts(id, 3, 3)])).toEqual({ applied: 1 });
    expect((await getSpace(id)).counters).toEqual(counts(id, 5, 5));
  });
});

describe('a missing copy', () => {
  it('shows zeros and no link when no owner is there to ask (content alone)', async () => {
    const { id } = await newSpace();
    await db.query('DELETE FROM "SpaceCopy" WHERE "spaceId" = $1', [id]);
    const space = await getSpace(id);
    expect(space.counters).toEqual({ spaceId: id, version: 0, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    expect(space.gitLink).toBeUndefined();
    // An event after it makes the copy again.
    await countersEvent(counts(id, 1, 1));
    await vi.waitFor(async () => expect((await getSpace(id)).counters).toEqual(counts(id, 1, 1)), { timeout: 10_000, interval: 50 });
  });
});
