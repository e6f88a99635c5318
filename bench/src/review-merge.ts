import { unaryCall } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import type { MergeChangeRequestIntoSpaceRequest, MergeChangeRequestIntoSpaceResponse } from '@quire/proto/space-content';
import { percentiles, startReviewStack, writeResult } from './review-lib.ts';
import { readRevision } from './lib/revisions.ts';

// MergeChangeRequest of a change request touching 10 pages of a 1,000-page space, over gRPC on
// the real review service (-> content's MergeChangeRequestIntoSpace -> PostgreSQL), one merge at
// a time. Each run opens a change request and edits 10 pages (not timed), then merges it (timed),
// in turn: through review; through content's MergeChangeRequestIntoSpace directly (the floor of
// review's merge); through content's MergeRevisions then SetSpaceRevision directly (the floor of
// the merge before it, the baseline). BENCH_PAGES, BENCH_RUNS.

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
// 150 merges of each kind, in turns: a p99 of fewer would be the slowest merge alone.
const RUNS = Number(process.env.BENCH_RUNS ?? 450);
const WARMUP = 3;
const asReview = { identity: testIdentity('review'), audience: 'content' as const };
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
  const seeded = await content.callContent(
    content.spaceContent.createRevision,
    { spaceId: space.id, parentRevisionId: '', pages: sections, files: [], setActive: true, type: '' },
    owner.id,
  );
  const pageIds = (await readRevision(content, space.id, seeded.id, owner.id)).pages.flatMap((s) => s.pages.map((p) => p.id));
  // The seeding revision left its sections to content's indexer: merges are timed on the indexed
  // space, not beside that one-off catch-up.
  await content.store.search.indexed();

  const mergeMs: number[] = [];
  const editMs: number[] = [];
  const intoSpaceMs: number[] = [];
  const twoCallsMs: number[] = [];
  const contentMergeMs: number[] = [];
  const contentSetMs: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const cr = await review.call(review.client.createChangeRequest, { spaceId: space.id, subject: `Run ${run}`, agentTaskId: '' }, owner.id);
    // Ten pages spread over the tree, different ones each run.
    const targets = Array.from({ length: EDITED }, (_, k) => pageIds[(run * EDITED + k * 97) % pageIds.length]!);
    const t0 = performance.now();
    const edited = await review.call(
      review.client.updateChangeRequestContent,
      { spaceId: space.id, changeRequest: cr.id, changes: targets.map((page) => ({ updatePage: { page, markdown: `# Edited in run ${run}\n\n${paragraph}`, move: false } })) },
      owner.id,
    );
    const t1 = performance.now();
    const timed = run >= WARMUP;
    if (run % 3 === 0) {
      const res = await review.call(review.client.mergeChangeRequest, { spaceId: space.id, changeRequest: cr.id }, owner.id);
      if (res.result !== 'merge') throw new Error('merge failed');
      if (timed) mergeMs.push(performance.now() - t1);
    } else {
      // Content's calls directly, on the space as read (not timed): no change request is recorded.
      const { revisionId: current } = await content.call(content.client.getSpace, { spaceId: space.id }, owner.id);
      const m0 = performance.now();
      if (run % 3 === 1) {
        // As review calls it (only review may), for the user the gateway authenticated.
        const merged = await unaryCall<MergeChangeRequestIntoSpaceRequest, MergeChangeRequestIntoSpaceResponse>(
          content.spaceContent,
          content.spaceContent.mergeChangeRequestIntoSpace,
          { spaceId: space.id, baseRevisionId: edited.revisionInitial, headRevisionId: edited.revision, expectedRevisionId: current, changeRequestId: cr.id, subject: '' },
          { userId: owner.id, requestId: 'bench', chain: ['gateway'] },
          asReview,
        );
        if (!merged.revision) throw new Error('merge failed');
        if (timed) intoSpaceMs.push(performance.now() - m0);
      } else {
        const merged = await content.callContent(
          content.spaceContent.mergeRevisions,
          { spaceId: space.id, baseRevisionId: edited.revisionInitial, oursRevisionId: current, theirsRevisionId: edited.revision, type: 'merge' },
          owner.id,
        );
        const m1 = performance.now();
        await content.callContent(content.spaceContent.setSpaceRevision, { spaceId: space.id, revisionId: merged.revision!.id, expectedRevisionId: current }, owner.id);
        if (timed) {
          contentMergeMs.push(m1 - m0);
          contentSetMs.push(performance.now() - m1);
          twoCallsMs.push(performance.now() - m0);
        }
      }
    }
    if (timed) editMs.push(t1 - t0);
  }
  const merge = percentiles(mergeMs);
  const intoSpace = percentiles(intoSpaceMs);
  const twoCalls = percentiles(twoCallsMs);
  writeResult('review-merge', {
    bench: 'review-merge',
    date: new Date().toISOString(),
    path: 'gRPC ReviewService.MergeChangeRequest (review -> content MergeChangeRequestIntoSpace -> PostgreSQL), in-process servers',
    pages: PAGES,
    pagesEditedPerChangeRequest: EDITED,
    runs: RUNS,
    // A third of the runs each.
    mergeMs: merge,
    contentMergeChangeRequestIntoSpaceMs: intoSpace,
    // The baseline: the merge before MergeChangeRequestIntoSpace, content's two calls.
    contentMergeRevisionsThenSetSpaceRevisionMs: twoCalls,
    contentMergeRevisionsMs: percentiles(contentMergeMs),
    contentSetSpaceRevisionMs: percentiles(contentSetMs),
    updateContent10PagesMs: percentiles(editMs),
  });
  console.log(`merge of a change request touching ${EDITED} of ${PAGES} pages: p50 ${merge.p50} ms, p99 ${merge.p99} ms (target < 100 ms)`);
  console.log(
    `content: MergeChangeRequestIntoSpace p50 ${intoSpace.p50} ms, p99 ${intoSpace.p99} ms; MergeRevisions + SetSpaceRevision p50 ${twoCalls.p50} ms, p99 ${twoCalls.p99} ms`,
  );
} finally {
  await stack.stop();
}
