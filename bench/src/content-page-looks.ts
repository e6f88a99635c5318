import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { PageContent } from '@quire/proto/space-content';
import { migrateTemplate } from '@quire/service-kit/testing';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
import { percentiles, writeResult } from './lib/results.ts';
import { readRevision } from './lib/revisions.ts';
import { createLookStore } from '../../apps/content/src/store/looks.ts';
import type { Db } from '../../apps/content/src/store/index.ts';

// What answering pages' cover and layout (read from their documents' front matter) costs GetRevision
// of a large space whose every page has a front matter: the statement that reads the documents'
// heads the first time (a fresh cache), and GetRevision's answer once they are kept, against the
// same space's pages without front matter (nothing to read: only the look-ups). BENCH_PAGES, BENCH_RUNS.

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const COLD_RUNS = 10;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
await Promise.all([migrateTemplate('orgs', here('../../apps/orgs')), migrateTemplate('content', here('../../apps/content'))]);
const orgs = await startOrgs();
const content = await startContent(orgs.address);
const pool = new pg.Pool({ connectionString: content.databaseUrl, max: 2 });

try {
  const owner = await orgs.user('owner');
  const org = await orgs.organization(owner, [], 'Bench');
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16);
  const matter = (i: number) => `---\ncover: https://example.com/${i}.png\ncoverY: ${i % 100}\nlayout:\n  width: wide\n  outline:\n    visible: false\n---\n`;
  // 20 sections of PAGES / 20 pages, each page about 2 KB of markdown.
  const tree = (front: boolean): PageContent[] =>
    Array.from({ length: 20 }, (_, s) => ({
      id: '',
      type: 'document',
      fields: { title: `Section ${s}` },
      markdown: `${front ? matter(s) : ''}Section ${s}: ${paragraph}`,
      href: '',
      pages: Array.from({ length: PAGES / 20 - 1 }, (_, i) => ({
        id: '',
        type: 'document',
        fields: { title: `Page ${s}.${i}` },
        markdown: `${front ? matter(i) : ''}Page ${s}.${i} ${front}: ${paragraph}\n\n## Details\n\n${paragraph}`,
        href: '',
        pages: [],
      })),
    }));
  const seed = async (front: boolean) => {
    const space = await content.call(content.client.createSpace, { organizationId: org.id, title: 'Big', emoji: '', editMode: '', visibility: '' }, owner.id);
    const r = await content.callContent(
      content.spaceContent.createRevision,
      { spaceId: space.id, parentRevisionId: '', pages: tree(front), files: [], setActive: true, type: '' },
      owner.id,
    );
    return { spaceId: space.id as string, revisionId: r.id as string };
  };
  const spaces = { frontMatter: await seed(true), plain: await seed(false) };
  await content.store.search.indexed();

  // The statement alone, on a fresh cache each time: what a process's first read of the space pays.
  const documentIds = async (s: { spaceId: string; revisionId: string }) => {
    const r = await readRevision(content, s.spaceId, s.revisionId, owner.id);
    const ids: string[] = [];
    const walk = (ps: { documentId: string; pages: unknown[] }[]) => ps.forEach((p) => (ids.push(p.documentId), walk(p.pages as typeof ps)));
    walk(r.pages);
    return ids;
  };
  const cold = { frontMatter: [] as number[], plain: [] as number[] };
  for (const kind of ['frontMatter', 'plain'] as const) {
    const ids = await documentIds(spaces[kind]);
    for (let i = 0; i < COLD_RUNS; i++) {
      const store = createLookStore({ pool } as unknown as Db);
      const start = performance.now();
      await store.looks(ids);
      cold[kind].push(performance.now() - start);
    }
  }

  // GetRevision over gRPC once the looks are kept, the two spaces in turns.
  const warm = { frontMatter: [] as number[], plain: [] as number[] };
  for (let i = 0; i < 5 + RUNS; i++) {
    for (const kind of ['frontMatter', 'plain'] as const) {
      const start = performance.now();
      await readRevision(content, spaces[kind].spaceId, spaces[kind].revisionId, owner.id);
      if (i >= 5) warm[kind].push(performance.now() - start);
    }
  }
  const result = {
    bench: 'content-page-looks',
    date: new Date().toISOString(),
    pages: PAGES,
    runs: RUNS,
    lookStatementColdMs: { frontMatter: percentiles(cold.frontMatter), plain: percentiles(cold.plain) },
    getRevisionWarmMs: { frontMatter: percentiles(warm.frontMatter), plain: percentiles(warm.plain) },
  };
  console.log(`looks of ${PAGES} documents, fresh cache: p50 ${result.lookStatementColdMs.frontMatter.p50} ms (front matter), ${result.lookStatementColdMs.plain.p50} ms (none)`);
  console.log(`GetRevision (${PAGES} pages), looks kept: p50 ${result.getRevisionWarmMs.frontMatter.p50} ms (front matter), ${result.getRevisionWarmMs.plain.p50} ms (none)`);
  writeResult(`content-page-looks-${PAGES}`, result);
} finally {
  await pool.end();
  await content.stop();
  await orgs.stop();
}
