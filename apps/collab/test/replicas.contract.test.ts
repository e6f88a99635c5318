import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import * as Y from 'yjs';
import { createLogger } from '@quire/service-kit';
import { connectNats, type NatsConnection } from '@quire/service-kit/nats';
import { testServiceKeys } from '@quire/service-kit/testing';
import { COLLAB } from '@quire/proto/limits';
import { PRESENCE_BUCKET } from '../src/presence.ts';
import { dotted, KIND, RELAY_SUBJECT, subjectOf } from '../src/relay.ts';
import { test as base } from './fixtures.ts';
import { member, startCollab, until, type Collab } from './harness.ts';

// Two collaboration replicas in one test, a member on each: what one types reaches the other
// through NATS, and only messages signed by collab's key are heard.

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'collab-replicas-test', createLogger('test', 'silent'));
});
afterAll(() => nc?.drain());

const test = base.extend<{ replicas: [Collab, Collab] }>({
  replicas: async ({ g }, use) => {
    // The first saves only long after: what the second learns of its edits comes from it, not from the stored state.
    const replicas = await Promise.all([startCollab(g, { COLLAB_SAVE_AFTER_MS: '60000', COLLAB_SAVE_AT_LEAST_MS: '60000' }), startCollab(g)]);
    await use(replicas);
    await Promise.all(replicas.map((r) => r.stop()));
  },
});

const paragraph = (doc: Y.Doc) => (doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
const serverText = (c: Collab, name: string) => paragraph(c.server.hocuspocus.documents.get(name)!).toString();

/** A relay message as a replica sends it: kind, sender, payload, and an Ed25519 signature over the page's name and all that. */
function relayed(documentName: string, payload: Uint8Array, privateKeyPem: string, kind: number = KIND.update) {
  const header = Buffer.concat([Buffer.of(kind), randomBytes(16)]);
  return Buffer.concat([header, payload, sign(null, Buffer.concat([Buffer.from(documentName), header, payload]), createPrivateKey(privateKeyPem))]);
}

describe('collaboration replicas', () => {
  test('members on two replicas converge, see each other, and one joining later gets the unsaved edits', async ({ team, replicas: [one, two], page }) => {
    const a = member(one.url, page.name, team.owner.token);
    await a.synced;
    // Not saved yet (the first replica waits a minute): the second replica asks the first as it loads.
    paragraph(a.document).insert(0, 'early ');
    const b = member(two.url, page.name, team.editor.token);
    await b.synced;
    await until(() => paragraph(b.document).toString() === 'early Start.', 'the unsaved edit on the second replica');
    for (let i = 0; i < 5; i++) {
      paragraph(a.document).insert(0, `a${i} `);
      paragraph(b.document).insert(paragraph(b.document).length, ` b${i}`);
    }
    const expected = 'a4 a3 a2 a1 a0 early Start. b0 b1 b2 b3 b4';
    await until(() => [a.document, b.document].every((d) => paragraph(d).toString() === expected), 'both members converging');
    expect([serverText(one, page.name), serverText(two, page.name)]).toEqual([expected, expected]);

    a.provider.setAwarenessField('user', { name: 'owner' });
    await until(() => [...b.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'owner'), "the owner's presence on the other replica");
    a.close();
    b.close();
  });

  test('members opening a page on two replicas at once get it once', async ({ team, replicas: [one, two], page }) => {
    const [a, b] = [member(one.url, page.name, team.owner.token), member(two.url, page.name, team.editor.token)];
    await Promise.all([a.synced, b.synced]);
    paragraph(a.document).insert(0, 'A ');
    paragraph(b.document).insert(0, 'B ');
    await until(() => [a, b].every((m) => m.document.getXmlFragment('default').toString().includes('A ') && m.text().includes('B ')), 'both edits on both sides');
    for (const m of [a, b]) expect(m.document.getXmlFragment('default').length).toBe(1);
    expect(a.text()).toBe(b.text());
    a.close();
    b.close();
  });

  test('a message signed by another key, or moved to another page, is not heard', async ({ team, replicas: [one], page, space, changeRequest }) => {
    const a = member(one.url, page.name, team.owner.token);
    await a.synced;
    const keys = testServiceKeys();
    // An update a replica could have sent: the page's paragraph with a word more.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(one.server.hocuspocus.documents.get(page.name)!));
    const insert = (text: string) => {
      const before = Y.encodeStateVector(copy);
      paragraph(copy).insert(0, text);
      return Y.encodeStateAsUpdate(copy, before);
    };
    const subject = subjectOf(RELAY_SUBJECT, page.name);
    nc.publish(subject, relayed(page.name, insert('forged '), keys.privateKeys.gateway!));
    const other = `${space.id}/${changeRequest.id}/elsewhere`;
    nc.publish(subject, relayed(other, insert('moved '), keys.privateKeys.collab!));
    nc.publish(subject, Buffer.from('not a relay message'));
    // The control: the same format with collab's key is applied (it carries the two before it).
    await new Promise((r) => setTimeout(r, 300));
    expect(serverText(one, page.name)).toBe('Start.');
    nc.publish(subject, relayed(page.name, Y.encodeStateAsUpdate(copy), keys.privateKeys.collab!));
    await until(() => paragraph(a.document).toString() === 'moved forged Start.', 'the signed update');
    a.close();
  });

  test("the editors bound counts the page's editors on every replica; those who leave free their places", async ({ team, replicas: [one, two], page }) => {
    const half = COLLAB.editors.max / 2;
    const join = (c: Collab, n: number) => Array.from({ length: n }, () => member(c.url, page.name, team.editor.token));
    const editors = [...join(one, half), ...join(two, half)];
    expect((await Promise.all(editors.map((e) => e.outcome))).every((o) => 'scope' in o && o.scope === 'read-write')).toBe(true);
    await until(async () => (await one.presence.elsewhere(page.name)) === half && (await two.presence.elsewhere(page.name)) === half, "each replica knowing the other's editors");
    for (const c of [one, two]) {
      const extra = member(c.url, page.name, team.owner.token);
      expect(await extra.outcome).toEqual({ refused: `at most ${COLLAB.editors.max} members edit a page at once` });
      extra.close();
    }
    // One leaving the first replica: the second admits one more.
    editors.shift()!.close();
    await until(async () => (await two.presence.elsewhere(page.name)) === half - 1, 'the second replica hearing of the leave');
    const next = member(two.url, page.name, team.owner.token);
    expect(await next.outcome).toEqual({ scope: 'read-write' });
    for (const e of [...editors, next]) e.close();
  });

  test('joins on two replicas at once never pass the bound', async ({ team, replicas: [one, two], page }) => {
    const joins = Array.from({ length: COLLAB.editors.max + 4 }, (_, i) => member((i % 2 ? two : one).url, page.name, team.editor.token));
    const outcomes = await Promise.all(joins.map((j) => j.outcome));
    const admitted = outcomes.filter((o) => 'scope' in o).length;
    const refused = outcomes.filter((o) => 'refused' in o);
    // Each claim reads every replica's count and writes its own in one compare-and-set: exactly the bound, no more and none refused with room left.
    expect(admitted).toBe(COLLAB.editors.max);
    expect(refused.length).toBe(joins.length - admitted);
    expect(new Set(refused.map((o) => ('refused' in o ? o.refused : '')))).toEqual(new Set([`at most ${COLLAB.editors.max} members edit a page at once`]));
    // Each replica's count is what it admitted, and each knows the other's.
    await until(async () => one.presence.here(page.name) + (await one.presence.elsewhere(page.name)) === admitted, 'the counts settling');
    expect(one.presence.here(page.name) + two.presence.here(page.name)).toBe(admitted);
    for (const j of joins) j.close();
  });

  test('a count signed by another key is not heard; one signed by collab is', async ({ team, replicas: [one], page }) => {
    const keys = testServiceKeys();
    const kv = await nc.jetstream().views.kv(PRESENCE_BUCKET);
    const key = dotted(page.name);
    const full = (privateKey: string) =>
      relayed(page.name, Buffer.from(JSON.stringify({ [randomBytes(16).toString('hex')]: { editors: COLLAB.editors.max, at: Date.now() } })), privateKey, KIND.presence);
    await kv.put(key, full(keys.privateKeys.gateway!));
    expect(await one.presence.elsewhere(page.name)).toBe(0);
    const a = member(one.url, page.name, team.owner.token);
    expect(await a.outcome).toEqual({ scope: 'read-write' });
    // The control: collab's key, as another replica with the page full says it.
    await kv.put(key, full(keys.privateKeys.collab!));
    expect(await one.presence.elsewhere(page.name)).toBe(COLLAB.editors.max);
    const b = member(one.url, page.name, team.editor.token);
    expect(await b.outcome).toEqual({ refused: `at most ${COLLAB.editors.max} members edit a page at once` });
    a.close();
    b.close();
  });

  test("an edit past NATS's payload limit reaches the other replica, in a sync and as an update", async ({ team, replicas: [one, two], page }) => {
    const big = (c: string) => c.repeat(1.2 * 1024 * 1024);
    const a = member(one.url, page.name, team.owner.token);
    await a.synced;
    // Unsaved on the first replica (it saves after a minute): the second has it from the first's answer to its sync.
    paragraph(a.document).insert(0, big('a'));
    const b = member(two.url, page.name, team.editor.token);
    await b.synced;
    await until(() => paragraph(b.document).length === 'Start.'.length + big('a').length, 'the first paste on the second replica', 20_000);
    paragraph(b.document).insert(paragraph(b.document).length, big('b'));
    await until(() => paragraph(a.document).toString() === `${big('a')}Start.${big('b')}`, 'the second paste on the first replica', 20_000);
    expect(serverText(one, page.name)).toBe(serverText(two, page.name));
    a.close();
    b.close();
  });
});
