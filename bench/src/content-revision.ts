import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { percentiles, writeResult } from './lib/results.ts';
import pg from 'pg';
import type { PageContent } from '@quire/proto/space-content';
import { migrateTemplate } from '@quire/service-kit/testing';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
import { readRevision } from './lib/revisions.ts';

// CreateRevision of a 1,000-page space (first in the process, then warm), and ApplyChanges editing
// one page of it, called over gRPC on the real content service and PostgreSQL (fresh databases
// from migrated templates), one call at a time: the cost of one edit, and the bytes it writes (its
// revision row, the tree chunks not stored yet and one document), with the body as markdown and as
// a JSONDocument. BENCH_PAGES, BENCH_RUNS.

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
// 200 edits of each kind: a p99 of 50 would be the slowest edit alone.
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 5;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
await Promise.all([migrateTemplate('orgs', here('../../apps/orgs')), migrateTemplate('content', here('../../apps/content'))]);
const orgs = await startOrgs();
const content = await startContent(orgs.address);
const db = new pg.Client({ connectionString: content.databaseUrl });
await db.connect();

try {
  const owner = await orgs.user('owner');
  const org = await orgs.organization(owner, [], 'Bench');
  const space = await content.call(content.client.createSpace, { organizationId: org.id, title: 'Big', emoji: '', editMode: '', visibility: '' }, owner.id);
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16);
  // 20 sections of 50 pages (a realistic nesting), each page about 1 KB of markdown.
  const sections = Array.from({ length: PAGES / 50 }, (_, s) => ({
    id: '',
    type: 'document',
    markdown: `# Section ${s}\n\nSection ${s}: ${paragraph}`,
    href: '',
    pages: Array.from({ length: 49 }, (_, i) => ({
      id: '',
      type: 'document',
      markdown: `# Page ${s}.${i}\n\nPage ${s}.${i}: ${paragraph}\n\n## Details\n\n${paragraph}`,
      href: '',
      pages: [],
    })),
  }));
  const t0 = performance.now();
  const seeded = await content.callContent(
    content.spaceContent.createRevision,
    { spaceId: space.id, parentRevisionId: '', pages: sections, files: [], setActive: true, type: '' },
    owner.id,
  );
  const seedMs = performance.now() - t0;
  // The same again into another space once the process is warm (as a running service is), every
  // document new: what a first git import of 1,000 pages costs the content service.
  const other = await content.call(content.client.createSpace, { organizationId: org.id, title: 'Big 2', emoji: '', editMode: '', visibility: '' }, owner.id);
  const renamed = (pages: PageContent[]): PageContent[] => pages.map((p) => ({ ...p, markdown: `${p.markdown}\n\nAgain.\n`, pages: renamed(p.pages) }));
  const t1 = performance.now();
  await content.callContent(
    content.spaceContent.createRevision,
    { spaceId: other.id, parentRevisionId: '', pages: renamed(sections), files: [], setActive: true, type: '' },
    owner.id,
  );
  const warmMs = performance.now() - t1;
  const target = (await readRevision(content, space.id, seeded.id, owner.id)).pages[3]!.pages[7]!.id;
  // The revisions above left their sections to content's indexer (a revision of over 50 new
  // documents is indexed after its commit): the edits are timed on the indexed space, as a
  // writer edits it, not beside that one-off catch-up.
  const indexStart = performance.now();
  await content.store.search.indexed();
  const indexCatchUpMs = performance.now() - indexStart;

  // The same edit with its body as markdown and as GitBook's JSONDocument (converted to markdown on
  // write), taken in turns so that both meet the same moments of the process and the machine.
  const leaf = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });
  const bodies = {
    markdown: (i: number) => ({ markdown: `# Edited ${i}\n\n${paragraph}` }),
    document: (i: number) => ({
      documentJson: JSON.stringify({
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'heading-1', data: {}, nodes: [leaf(`Edited ${i}`)] },
          { object: 'block', type: 'paragraph', data: {}, nodes: [leaf(paragraph.trim())] },
        ],
      }),
    }),
  };
  const times = { markdown: [] as number[], document: [] as number[] };
  // CPU of this process (client, content and orgs; not PostgreSQL) per edit: steadier than wall
  // time on a shared machine.
  const cpuMicros = { markdown: 0, document: 0 };
  let last: { revision?: { id: string } } | undefined;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const kind of ['markdown', 'document'] as const) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      last = await content.callContent(
        content.spaceContent.applyChanges,
        { spaceId: space.id, revisionId: seeded.id, changes: [{ updatePage: { page: target, ...bodies[kind](i), move: false } }] },
        owner.id,
      );
      if (i < WARMUP) continue;
      times[kind].push(performance.now() - start);
      const used = process.cpuUsage(cpu);
      cpuMicros[kind] += used.user + used.system;
    }
  }
  const cpuPerEditMs = (kind: keyof typeof cpuMicros) => Math.round((cpuMicros[kind] / 1000 / RUNS) * 10) / 10;
  // What the last edit wrote beside its document: its row and the chunks its parent did not hold
  // (as JSON and as stored), against its whole tree's JSON (every chunk it holds).
  const { rows } = await db.query(
    `WITH mine AS (SELECT unnest(r."pageChunks" || r."fileChunks") AS id FROM "Revision" r WHERE r.id = $1),
          new AS (SELECT id FROM mine EXCEPT SELECT unnest(p."pageChunks" || p."fileChunks") FROM "Revision" p WHERE p.id = $2)
     SELECT (SELECT pg_column_size(r.*) FROM "Revision" r WHERE r.id = $1) AS row,
            (SELECT count(*) FROM new) AS chunks,
            (SELECT sum(octet_length(c.content::text)) FROM "TreeChunk" c JOIN new USING (id)) AS "chunkJson",
            (SELECT sum(pg_column_size(c.content)) FROM "TreeChunk" c JOIN new USING (id)) AS "chunkStored",
            (SELECT sum(octet_length(c.content::text)) FROM "TreeChunk" c JOIN mine USING (id)) AS "treeJson"`,
    [last!.revision!.id, seeded.id],
  );
  const doc = await db.query('SELECT octet_length(markdown) AS size FROM "Document" ORDER BY "createdAt" DESC LIMIT 1');
  const result = {
    bench: 'content-revision',
    date: new Date().toISOString(),
    pages: PAGES,
    runs: RUNS,
    seedCreateRevisionMs: Math.round(seedMs),
    createRevisionWarmMs: Math.round(warmMs),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    indexCatchUpMs: Math.round(indexCatchUpMs),
    applyChangesOnePageMs: percentiles(times.markdown),
    applyChangesOnePageCpuMs: cpuPerEditMs('markdown'),
    applyChangesOnePageDocumentMs: percentiles(times.document),
    applyChangesOnePageDocumentCpuMs: cpuPerEditMs('document'),
    bytesWrittenPerEdit: {
      revisionRow: Number(rows[0].row),
      chunks: Number(rows[0].chunks),
      chunkJson: Number(rows[0].chunkJson),
      chunkStored: Number(rows[0].chunkStored),
      document: Number(doc.rows[0].size),
      // Not written: the tree the revision holds, as JSON.
      treeJson: Number(rows[0].treeJson),
    },
  };
  console.log(`CreateRevision (${PAGES} pages): first ${result.seedCreateRevisionMs} ms, warm ${result.createRevisionWarmMs} ms`);
  console.log(
    `ApplyChanges (1 page of ${PAGES}): p50 ${result.applyChangesOnePageMs.p50} ms, p99 ${result.applyChangesOnePageMs.p99} ms (target < 30 ms), ${result.applyChangesOnePageCpuMs} ms CPU per edit`,
  );
  console.log(
    `ApplyChanges (1 page of ${PAGES}, body as a JSONDocument): p50 ${result.applyChangesOnePageDocumentMs.p50} ms, p99 ${result.applyChangesOnePageDocumentMs.p99} ms, ${result.applyChangesOnePageDocumentCpuMs} ms CPU per edit`,
  );
  writeResult('content-revision', result);
} finally {
  await db.end();
  await content.stop();
  await orgs.stop();
}
