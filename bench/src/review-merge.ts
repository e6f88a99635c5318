import { percentiles, startReviewStack, writeResult } from './review-lib.ts';

// MergeChangeRequest of a change request touching 10 pages of a 1,000-page space, over gRPC on
// the real review service (-> content's MergeRevisions and SetSpaceRevision -> PostgreSQL), one
// merge at a time. Each run opens a change request and edits 10 pages (not timed), then merges
// it (timed); every other run merges through content's RPCs directly instead, for the share of
// each. BENCH_PAGES, BENCH_RUNS.

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = 3;
const EDITED = 10;

const stack = await startReviewStack();
const { content, review, owner, space } = stack;
try {
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16);
  // 20 sections of 50 pages, each page about 1 KB of markdown (as the content-revision benchmark).
  const sections = Array.from({ length: PAGES / 50 }, (_, s) => ({
    id: '',
    type: 'document',
    markdown: `# Section ${s}\n\n${paragraph}`,
    href: '',
    pages: Array.from({ length: 49 }, (_, i) => ({ id: '', type: 'document', markdown: `# Page ${s}.${i}\n\n${paragraph}\n\n## Details\n\n${paragraph}`, href: '', pages: [] })),
  }));
  const seeded = await content.callContent(content.spaceContent.createRevision, { spaceId: space.id, parentRevisionId: '', pages: sections, files: [], setActive: true, type: '' }, owner.id);
  const pageIds = seeded.pages.flatMap((s) => s.pages.map((p) => p.id));

  const mergeMs: number[] = [];
  const editMs: number[] = [];
  const contentMergeMs: number[] = [];
  const contentSetMs: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const cr = await review.call(review.client.createChangeRequest, { spaceId: space.id, subject: `Run ${run}`, agentTaskId: '' }, owner.id);
    // Ten pages spread over the tree, different ones each run.
    const targets = Array.from({ length: EDITED }, (_, k) => pageIds[(run * EDITED + k * 97) % pageIds.length]!);
    const t0 = performance.now();
    await review.call(
      review.client.updateChangeRequestContent,
      { spaceId: space.id, changeRequest: cr.id, changes: targets.map((page) => ({ updatePage: { page, markdown: `# Edited in run ${run}\n\n${paragraph}`, move: false } })) },
      owner.id,
    );
    const t1 = performance.now();
    if (run % 2 === 0) {
      const res = await review.call(review.client.mergeChangeRequest, { spaceId: space.id, changeRequest: cr.id }, owner.id);
      if (res.result !== 'merge') throw new Error('merge failed');
      if (run >= WARMUP) mergeMs.push(performance.now() - t1);
    } else {
      // Every other change request is merged by calling content's two RPCs directly, as the
      // review service does: the floor of a merge, whatever review adds around it.
      const [edited, current] = await Promise.all([
        review.call(review.client.getChangeRequest, { spaceId: space.id, changeRequest: cr.id }, owner.id),
        content.call(content.client.getSpace, { spaceId: space.id }, owner.id),
      ]);
      const m0 = performance.now();
      const merged = await content.callContent(
        content.spaceContent.mergeRevisions,
        { spaceId: space.id, baseRevisionId: edited.revisionInitial, oursRevisionId: current.revisionId, theirsRevisionId: edited.revision, type: 'merge' },
        owner.id,
      );
      const m1 = performance.now();
      await content.callContent(content.spaceContent.setSpaceRevision, { spaceId: space.id, revisionId: merged.revision!.id, expectedRevisionId: current.revisionId }, owner.id);
      if (run >= WARMUP) {
        contentMergeMs.push(m1 - m0);
        contentSetMs.push(performance.now() - m1);
      }
    }
    if (run >= WARMUP) editMs.push(t1 - t0);
  }
  const merge = percentiles(mergeMs);
  writeResult('review-merge', {
    bench: 'review-merge',
    date: new Date().toISOString(),
    path: 'gRPC ReviewService.MergeChangeRequest (review -> content MergeRevisions + SetSpaceRevision -> PostgreSQL), in-process servers',
    pages: PAGES,
    pagesEditedPerChangeRequest: EDITED,
    runs: RUNS,
    mergeMs: merge,
    // The other half of the runs: content's RPCs called directly.
    contentMergeRevisionsMs: percentiles(contentMergeMs),
    contentSetSpaceRevisionMs: percentiles(contentSetMs),
    updateContent10PagesMs: percentiles(editMs),
  });
  console.log(`merge of a change request touching ${EDITED} of ${PAGES} pages: p50 ${merge.p50} ms, p99 ${merge.p99} ms (target < 200 ms)`);
} finally {
  await stack.stop();
}
