import { join } from 'node:path';
import pg from 'pg';
import { GitSyncServiceClient } from '@quire/proto/gitsync';
import type { PageContent } from '@quire/proto/space-content';
import { createClient } from '@quire/service-kit';
import { callAs } from '@quire/service-kit/testing';
// Not a dependency of the bench package yet: its harness by path.
import { readRepo, startGitServer } from '@quire/git-sync/testing';
import { freshDatabases, PORTS, ready, seedOwner, startContentApps, startGitSyncApp } from './lib/deployed.ts';
import { measureCpu, peakMemoryMiB, processCpuMs, resetPeakMemory } from './lib/load.ts';
import { timedClone } from './lib/git.ts';
import { writeResult } from './lib/results.ts';

// Git sync end to end on the real services as deployed, each its own process from its built
// bundle (orgs, content, git-sync with one JetStream worker; PostgreSQL; git over smart HTTP on
// loopback, served from this process): import of a 1,000-page GitBook repository and
// export of the 1,000-page space, each timed from the RPC that queues the job to the job's
// recorded completion, beside a plain `git clone` of the same repository in the same run. The
// unchanged export onto the repository the space came from reads and compares every file and
// must make no commit (checked). The import's documents are analyzed (model, sections, links) and
// indexed for search after the import's revision is committed (its page titles at once): the time
// until they are, is printed beside.
// BENCH_PAGES (a multiple of 50), BENCH_RUNS, BENCH_ASSET_FILES (see below).

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const ASSET_FILES = Number(process.env.BENCH_ASSET_FILES ?? 40);
// Five runs: the first, which warms each process's JIT, is the slowest, and moves a median of five less than one of three.
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

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

const databases = await freshDatabases(['orgs', 'content', 'git-sync']);
const { owner, org } = await seedOwner(databases.urls.orgs, 'bench-git');
const content = await startContentApps(databases.urls);
// info: each job's log line (phases, wall and CPU ms) is printed.
const gitSyncApp = startGitSyncApp(databases.urls['git-sync'], { GIT_SYNC_WORKERS: '1', QUIRE_ALLOW_PRIVATE_NETWORK: 'true', LOG_LEVEL: 'info' });
const gitSyncClient = createClient(GitSyncServiceClient, `127.0.0.1:${PORTS.gitSync}`);
const callGitSync = callAs(gitSyncClient, 'git-sync');
const repos = await startGitServer();
// The job's row and the search index are read with plain queries on the services' databases.
const jobs = new pg.Client({ connectionString: databases.urls['git-sync'] });
await jobs.connect();
const contentRows = new pg.Client({ connectionString: databases.urls.content });
await contentRows.connect();

/** Resolves once content's indexer has analyzed every document and indexed every section and page it was left (or throws after a minute). */
async function indexed(): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    const { rows } = await contentRows.query<{ left: boolean }>({
      name: 'left',
      text: `SELECT EXISTS (SELECT 1 FROM "Document" WHERE NOT analyzed) OR EXISTS (SELECT 1 FROM "DocumentSection" WHERE language IS NULL)
               OR EXISTS (SELECT 1 FROM "SpacePage" WHERE search IS NULL OR content IS NULL) AS left`,
    });
    if (!rows[0]!.left) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('content did not index the import within a minute');
}

try {
  const newSpace = () => content.createSpace(org.id, owner.id, 'Big');
  await newSpace();
  await ready(() => callGitSync(gitSyncClient.getGitInfo, { spaceId: 'none' }, owner.id).catch((err: { code?: number }) => (err.code === 5 ? undefined : Promise.reject(err))));
  await repos.create('big', docsRepository(PAGES));
  const url = repos.url('big');
  const options = (u: string) => ({ url: u, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false });

  // How much later than its recorded completion each job was seen done by the 10 ms poll.
  const pollLag: number[] = [];
  /**
   * Queues a job and waits for it to be recorded done: the milliseconds from the call to the
   * completion git-sync records (`completedAt`, its clock and this one the machine's), which a
   * poll would see up to one interval and a query later.
   */
  const timed = async (spaceId: string, queue: () => Promise<{ jobId: string }>) => {
    const called = Date.now();
    const { jobId } = await queue();
    for (;;) {
      const [job] = (
        await jobs.query<{ state: string; error: string | null; completed: number | null }>({
          name: 'job',
          text: 'SELECT state::text, error, extract(epoch FROM "completedAt") * 1000 AS completed FROM "GitJob" WHERE id = $1',
          values: [jobId],
        })
      ).rows;
      if (job?.state === 'done') {
        pollLag.push(Date.now() - Number(job.completed));
        return Number(job.completed) - called;
      }
      if (job?.state === 'failed') throw new Error(`${spaceId}: ${job.error}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const importInto = (spaceId: string) => timed(spaceId, () => callGitSync(gitSyncClient.importRepository, { spaceId, repository: options(url), standalone: false }, owner.id));

  const clone: number[] = [];
  const firstImport: number[] = [];
  const searchableAfter: number[] = [];
  const reimport: number[] = [];
  const exportNew: number[] = [];
  const exportUnchanged: number[] = [];
  const exportOntoSource: number[] = [];
  const contentOnly: number[] = [];
  // Where CreateRevision's time goes: content's CPU and PostgreSQL's.
  const contentOnlyCpuMs: { node: number; postgres: number }[] = [];
  let exportSpace = '';
  for (let r = 0; r < RUNS; r++) {
    clone.push(await timedClone(url));

    const spaceId = await newSpace();
    firstImport.push(await importInto(spaceId));
    // Its text is indexed for search after its commit (titles at once): how much later, waited
    // for so that nothing measured next shares the machine with it.
    const t = performance.now();
    await indexed();
    searchableAfter.push(performance.now() - t);
    reimport.push(await importInto(spaceId));
    exportSpace = spaceId;
    const before = (await readRepo(join(repos.root, 'big.git'))).head;
    exportOntoSource.push(await timed(spaceId, () => callGitSync(gitSyncClient.exportRepository, { spaceId, repository: options(url), commitMessage: 'Bench export' }, owner.id)));
    const after = (await readRepo(join(repos.root, 'big.git'))).head;
    if (after !== before) throw new Error(`the unchanged export onto its own repository made commit ${after}`);

    await repos.create(`export-${r}`);
    const exportTo = () =>
      timed(spaceId, () => callGitSync(gitSyncClient.exportRepository, { spaceId, repository: options(repos.url(`export-${r}`)), commitMessage: 'Bench export' }, owner.id));
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
    const contentCpu = processCpuMs(content.app.pid!).all;
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
    contentOnlyCpuMs.push({ node: round(processCpuMs(content.app.pid!).all - contentCpu), postgres: round(postgres) });
    await indexed();
  }
  const exported = await readRepo(join(repos.root, `export-${RUNS - 1}.git`));

  // Files as large as the pages are small: git-sync's peak memory (resident, from /proc) while it
  // imports and exports a repository of BENCH_ASSET_FILES files of 4 MiB in .gitbook/assets.
  const assetRepo: Record<string, string | Buffer> = { 'README.md': '# Assets\n' };
  for (let i = 0; i < ASSET_FILES; i++) assetRepo[`.gitbook/assets/file-${i}.bin`] = Buffer.alloc(4 * 1024 * 1024, i);
  await repos.create('assets', assetRepo);
  const assetSpace = await newSpace();
  const peak = async (job: () => Promise<number>) => {
    resetPeakMemory(gitSyncApp.pid!);
    const gitSyncBeforeMiB = peakMemoryMiB(gitSyncApp.pid!);
    const ms = await job();
    return { ms: round(ms), gitSyncBeforeMiB, gitSyncPeakMiB: peakMemoryMiB(gitSyncApp.pid!) };
  };
  const assetsImport = await peak(() =>
    timed(assetSpace, () => callGitSync(gitSyncClient.importRepository, { spaceId: assetSpace, repository: options(repos.url('assets')), standalone: false }, owner.id)),
  );
  await repos.create('assets-export');
  const assetsExport = await peak(() =>
    timed(assetSpace, () =>
      callGitSync(gitSyncClient.exportRepository, { spaceId: assetSpace, repository: options(repos.url('assets-export')), commitMessage: 'Bench export' }, owner.id),
    ),
  );
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
    jobSeenDoneAfterMs: { median: round(median(pollLag)), max: round(Math.max(...pollLag)) },
    largeFiles: { files: ASSET_FILES, mib: ASSET_FILES * 4, import: assetsImport, export: assetsExport },
  };
  console.log(
    `space ${exportSpace}: git clone ${round(median(clone))} ms; import ${round(median(firstImport))} ms (${result.importOverClone}x clone, target <= 3x; content's CreateRevision alone ${round(median(contentOnly))} ms; its text searchable ${round(median(searchableAfter))} ms later); reimport ${round(median(reimport))} ms (${result.reimportOverClone}x clone, target < 1x); export ${round(median(exportNew))} ms, unchanged export ${round(median(exportUnchanged))} ms, unchanged export onto the source (no commit) ${round(median(exportOntoSource))} ms`,
  );
  console.log(
    `${ASSET_FILES} files of 4 MiB: import ${assetsImport.ms} ms, git-sync resident ${assetsImport.gitSyncBeforeMiB} MiB before, ${assetsImport.gitSyncPeakMiB} MiB at its peak; export ${assetsExport.ms} ms, ${assetsExport.gitSyncBeforeMiB} -> ${assetsExport.gitSyncPeakMiB} MiB`,
  );
  writeResult('git-sync', result);
} finally {
  await jobs.end();
  await contentRows.end();
  await repos.stop();
  gitSyncClient.close();
  await content.stop();
  await databases.drop();
}
