import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { connectNats, publishEvent } from '@quire/service-kit/nats';
import { createLogger } from '@quire/service-kit';
import { startOrgs, type TestUser } from './harness.ts';

// The audit log's consumer over the real NATS stream and PostgreSQL: idempotent by event id,
// events without an organization copied to the user's organizations, bad messages dropped,
// and the table append-only.

let h: Awaited<ReturnType<typeof startOrgs>>;
let ada: TestUser;
let orgA: string;
let orgB: string;

beforeAll(async () => {
  h = await startOrgs();
  ada = await h.user('ada');
  orgA = (await h.organization(ada)).id;
  orgB = (await h.organization(ada, [], 'Second')).id;
});
afterAll(() => h?.stop());

describe('audit consumer', () => {
  it('writes an event once however often it is delivered, to each organization of the user it is about', async () => {
    const nc = await connectNats(h.config.NATS_URL, 'audit-test', createLogger('t', 'silent'));
    const js = nc.jetstream();
    const event = { id: 'evt-1', occurredAt: new Date().toISOString(), service: 'orgs', entity: 'token', verb: 'created', actor: ada.id, target: { type: 'token', id: 't1' } };
    await publishEvent(js, event, h.config.EVENTS_SUBJECT_PREFIX);
    // A retry of the same event past the stream's duplicate window would carry another message id.
    await js.publish(`${h.config.EVENTS_SUBJECT_PREFIX}.orgs.token.created`, JSON.stringify(event), { msgID: 'another-message-id' });
    await js.publish(`${h.config.EVENTS_SUBJECT_PREFIX}.orgs.bad.message`, 'not json');
    const org = { ...event, id: 'evt-2', organizationId: orgA, entity: 'space', verb: 'permissions_changed', service: 'content' };
    await publishEvent(js, org, h.config.EVENTS_SUBJECT_PREFIX);
    await nc.close();
    const a = await h.audit(orgA, 2);
    const b = await h.audit(orgB, 1);
    expect(a.filter((e) => e.eventId === 'evt-1')).toHaveLength(1);
    expect(a.filter((e) => e.eventId === 'evt-2')).toHaveLength(1);
    expect(b.map((e) => e.eventId)).toEqual(['evt-1']);
    expect(a.find((e) => e.eventId === 'evt-2')).toMatchObject({ action: 'space.permissions_changed', actor: ada.id });
  });

  it('refuses changes and deletions of entries, even by direct SQL', async () => {
    const [row] = await h.audit(orgA, 1);
    const client = new pg.Client({ connectionString: h.config.DATABASE_URL });
    await client.connect();
    try {
      await expect(client.query('UPDATE "AuditEntry" SET action = $1 WHERE id = $2', ['forged', row!.id])).rejects.toThrow(/append-only/);
      await expect(client.query('DELETE FROM "AuditEntry" WHERE id = $1', [row!.id])).rejects.toThrow(/append-only/);
      const { rows } = await client.query('SELECT action FROM "AuditEntry" WHERE id = $1', [row!.id]);
      expect(rows).toEqual([{ action: row!.action }]);
    } finally {
      await client.end();
    }
  });
});
