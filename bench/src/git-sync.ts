import { execFile } from 'node:child_process';
import { measureCpu } from './lib/load.ts';
import { writeResult } from './lib/results.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { PageContent } from '@quire/proto/space-content';
import { migrateTemplate } from '@quire/service-kit/testing';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
// Not a dependency of the bench package yet: its harness by path.
import { readRepo, startGitServer, startGitSync } from '@quire/git-sync/testing';

// Git sync end to end on the real services (orgs, content, git-sync with its JetStream worker,
// PostgreSQL, git over smart HTTP on loopback): import of a 1,000-page GitBook repository and
// export of the 1,000-page space, each timed from the RPC that queues the job to the job's
// recorded completion, beside a plain `git clone` of the same repository in the same run. The
// unchanged export onto the repository the space came from reads and compares every file and
// must make no commit (checked). The import's text is indexed for search after the import's
// revision is committed (its page titles at once): the time until it is, is printed beside.
// BENCH_PAGES (a multiple of 50), BENCH_RUNS.

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const run = promisify(execFile);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** 20 sections of 50 pages (a section README and 49 pages), about 1.5 KB each, linking to each other, and one image per section. */
function docsRepository(pages: number): Record<string, string | Buffer> {
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(12);
  const files: Record<string, string | Buffer> = { 'README.md': `# Introduction\n\n${paragraph}\n` };
  const summary = ['# Table of contents', '', '* [Introduction](README.md)'];
  for (let s = 0; s < pages / 50; s++) {
    files[`section-${s}/README.md`] = `# Section ${s}\n\n${paragraph}\n\n![diagram](../.gitbook/assets/diagram-${s}.png)\n`;
    files[`.gitbook/assets/diagram-${s}.png`] = Buffer.alloc(8192, s);
    summary.push(`* [Section ${s}](section-${s}/README.md)`);
    for (let i = 0; i < 49; i++) {
      const next = `page-${(i + 1) % 49}.md`;
      files[`section-${s}/page-${i}.md`] = `# Page ${s}.${i}\n\n${paragraph}\n\nNext: [page](${next}). Back to the [section](README.md).\n\n## Details\n\n${paragraph}\n`;
      summary.push(`  * [Page ${s}.${i}](section-${s}/page-${i}.md)`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Math.round(n);

const dropTemplates = await Promise.all([
  migrateTemplate('orgs', here('../../apps/orgs')),
  migrateTemplate('content', here('../../apps/content')),
  migrateTemplate('git-sync', here('../../apps/git-sync')),
]);
const orgs = await startOrgs();
const content = await startContent(orgs.address);
const gs = await startGitSync(content.address, { workers: 1 });
const repos = await startGitServer();
// The bench shares its process with the services it measures: it polls the job's row with one
// plain query, not through the store's Prisma (whose client costs about 1 ms of CPU a read, a
// tenth of the import's thread at one read every 10 ms).
const jobs = new pg.Client({ connectionString: gs.databaseUrl });
await jobs.connect();

try {
  const owner = await orgs.user('owner');
  const org = await orgs.organization(owner, [], 'Bench');
  const newSpace = async () =>
    (await content.call(content.client.createSpace, { organizationId: org.id, title: 'Big', emoji: '', editMode: '', visibility: '' }, owner.id)).id as string;
  await repos.create('big', docsRepository(PAGES));
  const url = repos.url('big');
  const options = (u: string) => ({ url: u, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false });

  /** Queues a job and waits for it to be recorded done; the milliseconds in between. */
  const timed = async (spaceId: string, queue: () => Promise<{ jobId: string }>) => {
    const t0 = performance.now();
    const { jobId } = await queue();
    for (;;) {
      const [job] = (await jobs.query<{ state: string; error: string | null }>({ name: 'job', text: 'SELECT state::text, error FROM "GitJob" WHERE id = $1', values: [jobId] })).rows;
      if (job?.state === 'done') return performance.now() - t0;
      if (job?.state === 'failed') throw new Error(`${spaceId}: ${job.error}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const importInto = (spaceId: string) => timed(spaceId, () => gs.call(gs.client.importRepository, { spaceId, repository: options(url), standalone: false }, owner.id));

  const clone: number[] = [];
  const firstImport: number[] = [];
  const searchableAfter: number[] = [];
  const reimport: number[] = [];
  const exportNew: number[] = [];
  const exportUnchanged: number[] = [];
  const exportOntoSource: number[] = [];
  const contentOnly: number[] = [];
  // Where CreateRevision's time goes: this process's CPU (content and its client) and PostgreSQL's.
  const contentOnlyCpuMs: { node: number; postgres: number }[] = [];
  let exportSpace = '';
  for (let r = 0; r < RUNS; r++) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-clone-'));
    const t0 = performance.now();
    await run('git', ['clone', '--quiet', url, dir], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    clone.push(performance.now() - t0);
    await rm(dir, { recursive: true, force: true });

    const spaceId = await newSpace();
    firstImport.push(await importInto(spaceId));
    // Its text is indexed for search after its commit (titles at once): how much later, waited
    // for so that nothing measured next shares the machine with it.
    const t = performance.now();
    await content.store.search.indexed();
    searchableAfter.push(performance.now() - t);
    reimport.push(await importInto(spaceId));
    exportSpace = spaceId;
    const before = (await readRepo(join(repos.root, 'big.git'))).head;
    exportOntoSource.push(await timed(spaceId, () => gs.call(gs.client.exportRepository, { spaceId, repository: options(url), commitMessage: 'Bench export' }, owner.id)));
    const after = (await readRepo(join(repos.root, 'big.git'))).head;
    if (after !== before) throw new Error(`the unchanged export onto its own repository made commit ${after}`);

    await repos.create(`export-${r}`);
    const exportTo = () =>
      timed(spaceId, () => gs.call(gs.client.exportRepository, { spaceId, repository: options(repos.url(`export-${r}`)), commitMessage: 'Bench export' }, owner.id));
    exportNew.push(await exportTo());
    exportUnchanged.push(await exportTo());

    // The content service's share: the same pages written by CreateRevision alone (each page's
    // markdown made unique, so its documents are stored and parsed again, as a first import's are).
    const imported = await content.callContent(content.spaceContent.getRevision, { spaceId, revisionId: '', metadata: true, withMarkdown: true, withDocuments: false }, owner.id);
    type P = (typeof imported.pages)[number];
    const asContent = (pages: P[]): PageContent[] =>
      pages.map((p) => ({
        id: '',
        type: p.type,
        fields: { title: p.title, slug: p.slug },
        markdown: `${p.markdown ?? ''}\n\nRun ${r}.\n`,
        href: p.href,
        pages: asContent(p.pages),
      }));
    const fresh = await newSpace();
    const t1 = performance.now();
    const ownCpu = process.cpuUsage();
    const { postgres } = await measureCpu(() =>
      content.callContent(
        content.spaceContent.createRevision,
        {
          spaceId: fresh,
          parentRevisionId: '',
          pages: asContent(imported.pages),
          files: imported.files.map((f) => ({ id: '', name: f.name, contentType: f.contentType, blob: f.blob })),
          setActive: true,
          type: '',
        },
        owner.id,
      ),
    );
    contentOnly.push(performance.now() - t1);
    const own = process.cpuUsage(ownCpu);
    contentOnlyCpuMs.push({ node: round((own.user + own.system) / 1000), postgres: round(postgres) });
    await content.store.search.indexed();
  }
  const exported = await readRepo(join(repos.root, `export-${RUNS - 1}.git`));
  const result = {
    bench: 'git-sync',
    date: new Date().toISOString(),
    pages: PAGES + 1,
    files: PAGES / 50,
    runs: RUNS,
    gitCloneMs: clone.map(round),
    importFirstMs: firstImport.map(round),
    searchIndexAfterImportMs: searchableAfter.map(round),
    reimportSameCommitMs: reimport.map(round),
    exportToEmptyRepoMs: exportNew.map(round),
    exportUnchangedMs: exportUnchanged.map(round),
    exportUnchangedOntoSourceMs: exportOntoSource.map(round),
    contentCreateRevisionAloneMs: contentOnly.map(round),
    contentCreateRevisionCpuMs: contentOnlyCpuMs,
    exportedFiles: Object.keys(exported.files).length,
    importOverClone: Math.round((median(firstImport) / median(clone)) * 10) / 10,
    reimportOverClone: Math.round((median(reimport) / median(clone)) * 100) / 100,
  };
  console.log(
    `space ${exportSpace}: git clone ${round(median(clone))} ms; import ${round(median(firstImport))} ms (${result.importOverClone}x clone, target <= 3x; content's CreateRevision alone ${round(median(contentOnly))} ms; its text searchable ${round(median(searchableAfter))} ms later); reimport ${round(median(reimport))} ms (${result.reimportOverClone}x clone, target < 1x); export ${round(median(exportNew))} ms, unchanged export ${round(median(exportUnchanged))} ms, unchanged export onto the source (no commit) ${round(median(exportOntoSource))} ms`,
  );
  writeResult('git-sync', result);
} finally {
  await jobs.end();
  await repos.stop();
  await gs.stop();
  await content.stop();
  await orgs.stop();
  await Promise.all(dropTemplates.map((drop) => drop()));
}
