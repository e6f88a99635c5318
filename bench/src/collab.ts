import { randomUUID } from 'node:crypto';
import type { onStoreDocumentPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { member, startCollab, type Collab } from '@quire/collab/testing';
import { credentialHash } from '@quire/service-kit/nats';
import { readRevision } from './lib/revisions.ts';
import { percentiles, startReviewStack, writeResult } from './review-lib.ts';

// Pages of a change request edited together (`tsx --expose-gc`): EDITORS real providers (over
// `ws`, in this process, with one API token) on one page of the real collaboration server, over
// the real orgs, content and review services and NATS; loopback. Timed:
// - keystroke to the other screens: one editor types a character, until each of the others has
//   it (BENCH_RUNS keystrokes, the editors in turn), on one replica, then with the editors split
//   over two replicas relaying over NATS; and all editors typing at once, until each screen has
//   the others' characters (BENCH_ROUNDS rounds);
// - memory per open page: the heap grown by PAGES - 3 pages loaded on the server (no editors), per page;
// - the cost of a save: the server's onStoreDocument of the edited page (its JSONDocument to
//   review's UpdateChangeRequestContent, its Y state to StorePageEditingState), BENCH_SAVES times;
// - the cost of admitting a member under the editors bound over every replica (its compare-and-set
//   of the page's counts in NATS KV), BENCH_CLAIMS times, beside a plain read of that KV value.

const EDITORS = Number(process.env.BENCH_EDITORS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const SAVES = Number(process.env.BENCH_SAVES ?? 50);
const PAGES = Number(process.env.BENCH_PAGES ?? 50);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 200);
const WARMUP = 20;

const progress = (what: string) => console.error(`${new Date().toISOString()} ${what}`);
/** Garbage collected twice, a tick apart (`--expose-gc`), before the heap is read. */
async function settle() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  await new Promise((r) => setTimeout(r, 100));
  gc();
}
const stack = await startReviewStack();
const { orgs, content, review, owner, space } = stack;
const replicas: Collab[] = [];
try {
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16);
  // PAGES pages of about 2 KB of markdown (a heading and two paragraphs).
  const pages = Array.from({ length: PAGES }, (_, i) => ({ id: '', type: 'document', markdown: `# Page ${i}\n\n${paragraph}\n\n${paragraph}`, href: '', pages: [] }));
  const seeded = await content.callContent(content.spaceContent.createRevision, { spaceId: space.id, parentRevisionId: '', pages, files: [], setActive: true, type: '' }, owner.id);
  const pageIds = (await readRevision(content, space.id, seeded.id, owner.id)).pages.map((p) => p.id);
  const cr = await review.call(review.client.createChangeRequest, { spaceId: space.id, subject: 'Together', agentTaskId: '' }, owner.id);
  const nameOf = (pageId: string) => `${space.id}/${cr.id}/${pageId}`;
  const services = { orgs, content, review, eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX };
  replicas.push(await startCollab(services, { LOG_LEVEL: 'warn' }), await startCollab(services, { LOG_LEVEL: 'warn' }));
  const [one, two] = replicas as [Collab, Collab];

  /** The text the editors type into: the page's second block, its first paragraph. */
  const text = (doc: Y.Doc) => (doc.getXmlFragment('default').get(1) as Y.XmlElement).get(0) as Y.XmlText;
  /** The editors of page `name` at `urls`: the first alone (it loads the page), then the others at once. */
  const open = async ([first, ...others]: string[], name: string) => {
    const editors = [member(first!, name, owner.token)];
    await editors[0]!.synced;
    editors.push(...others.map((url) => member(url, name, owner.token)));
    await Promise.all(editors.map((e) => e.synced));
    return editors;
  };
  /** Resolves with the time since `start` when `doc`'s text reaches `length`. */
  const reaches = (doc: Y.Doc, length: number, start: number) =>
    new Promise<number>((resolve) => {
      const check = () => {
        if (text(doc).length < length) return;
        doc.off('update', check);
        resolve(performance.now() - start);
      };
      doc.on('update', check);
      check();
    });

  async function keystrokes(editors: ReturnType<typeof member>[]) {
    const times: number[] = [];
    for (let k = 0; k < WARMUP + RUNS; k++) {
      const sender = editors[k % editors.length]!;
      const length = text(sender.document).length + 1;
      const start = performance.now();
      const arrived = editors.filter((e) => e !== sender).map((e) => reaches(e.document, length, start));
      text(sender.document).insert(length - 1, 'x');
      const t = await Promise.all(arrived);
      if (k >= WARMUP) times.push(...t);
    }
    return percentiles(times);
  }

  async function allAtOnce(editors: ReturnType<typeof member>[]) {
    const times: number[] = [];
    for (let r = 0; r < WARMUP + ROUNDS; r++) {
      const length = text(editors[0]!.document).length + editors.length;
      const start = performance.now();
      for (const e of editors) text(e.document).insert(text(e.document).length, 'y');
      const t = await Promise.all(editors.map((e) => reaches(e.document, length, start)));
      if (r >= WARMUP) times.push(...t);
    }
    return percentiles(times);
  }

  progress('replicas started');
  const caller = { userId: owner.id, requestId: randomUUID() };
  const contextOf = (name: string) => {
    const [spaceId, changeRequestId, pageId] = name.split('/') as [string, string, string];
    const credential = { kind: 'token' as const, secret: owner.token };
    return {
      page: { spaceId, changeRequestId, pageId },
      caller,
      member: { userId: owner.id, access: 'write' as const, organizationId: '', readToken: false },
      credential,
      credentialHash: credentialHash(owner.token),
    };
  };
  // Memory: PAGES - 3 pages loaded on the first replica without editors (direct connections), after
  // one loaded first (what the first load sets up once is not a page's).
  const loadDirect = (id: string) => one.server.hocuspocus.openDirectConnection(nameOf(id), contextOf(nameOf(id)));
  const direct = [await loadDirect(pageIds[2]!)];
  await settle();
  const heapBefore = process.memoryUsage().heapUsed;
  const loaded = pageIds.slice(3);
  for (const id of loaded) direct.push(await loadDirect(id));
  await settle();
  const perPageKiB = Math.round((process.memoryUsage().heapUsed - heapBefore) / loaded.length / 102.4) / 10;

  const shared = nameOf(pageIds[0]!);
  const oneReplica = await open(Array<string>(EDITORS).fill(one.url), shared);
  progress('editors synced');
  const typing = { oneReplica: await keystrokes(oneReplica), oneReplicaAllAtOnce: await allAtOnce(oneReplica) };
  progress('one replica timed');
  for (const e of oneReplica) e.close();
  const split = await open(
    Array.from({ length: EDITORS }, (_, i) => (i % 2 ? two.url : one.url)),
    nameOf(pageIds[1]!),
  );
  const twoReplicas = { twoReplicas: await keystrokes(split), twoReplicasAllAtOnce: await allAtOnce(split) };
  for (const e of split) e.close();
  progress('two replicas timed');

  // Saves of the page typed into (its Y state holds every keystroke above).
  const edited = await one.server.hocuspocus.openDirectConnection(shared, contextOf(shared));
  const document = one.server.hocuspocus.documents.get(shared)!;
  const saveMs: number[] = [];
  for (let s = 0; s < WARMUP + SAVES; s++) {
    await edited.transact((doc) => text(doc).insert(0, 'z'));
    const start = performance.now();
    await one.server.hocuspocus.hooks('onStoreDocument', {
      instance: one.server.hocuspocus,
      clientsCount: 0,
      document,
      documentName: shared,
      lastContext: contextOf(shared),
      lastTransactionOrigin: undefined,
    } as unknown as onStoreDocumentPayload);
    if (s >= WARMUP) saveMs.push(performance.now() - start);
  }
  const stateBytes = Y.encodeStateAsUpdate(document).byteLength;
  for (const d of [...direct, edited]) await d.disconnect();

  // Claims: each of a page of its own (a member admitted stays counted as joining for a while), and
  // the other replica's read of that page's counts.
  const claimMs: number[] = [];
  const readMs: number[] = [];
  for (let c = 0; c < WARMUP + CLAIMS; c++) {
    const name = nameOf(`bench-claim-${c}`);
    let start = performance.now();
    if (!(await one.presence.claim(name, randomUUID()))) throw new Error('a claim on an empty page was refused');
    if (c >= WARMUP) claimMs.push(performance.now() - start);
    start = performance.now();
    if ((await two.presence.elsewhere(name)) !== 1) throw new Error('the claim is not counted on the other replica');
    if (c >= WARMUP) readMs.push(performance.now() - start);
  }

  writeResult('collab', {
    date: new Date().toISOString().slice(0, 10),
    editors: EDITORS,
    keystrokes: RUNS,
    rounds: ROUNDS,
    keystrokeToOtherScreensMs: { ...typing, ...twoReplicas },
    memoryPerOpenPageKiB: perPageKiB,
    pagesLoaded: loaded.length,
    save: { ms: percentiles(saveMs), stateBytes, saves: SAVES },
    admission: { claimMs: percentiles(claimMs), kvReadMs: percentiles(readMs), claims: CLAIMS },
  });
} finally {
  for (const r of replicas) await r.stop();
  await stack.stop();
}
