// The proto package is not a dependency of the bench package: the enum is reached by path.
import { SortOrder } from '@quire/proto/common';
import { Role } from '@quire/proto/common';
import { percentiles, startReviewStack, writeResult } from './review-lib.ts';

// Listing 1,000 comments of a change request page by page over gRPC (review -> content GetSpace,
// PostgreSQL, orgs BatchGetUsers once per page), at a few page sizes. BENCH_COMMENTS, BENCH_RUNS.

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIMITS = [50, 100, 1000];

const stack = await startReviewStack();
const { review, owner, org, space, orgs } = stack;
try {
  const cr = await review.call(review.client.createChangeRequest, { spaceId: space.id, subject: 'Discussed', agentTaskId: '' }, owner.id);
  // Several authors, so that every page asks orgs for a handful of users.
  const authors = [owner, ...(await Promise.all(Array.from({ length: 4 }, (_, i) => orgs.user(`author${i}`))))];
  for (const a of authors.slice(1)) await orgs.member(org.id, a, Role.ROLE_COMMENT);
  const t0 = performance.now();
  for (let i = 0; i < COMMENTS; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, COMMENTS - i) }, (_, k) =>
        review.call(
          review.client.postComment,
          { spaceId: space.id, changeRequest: cr.id, markdown: `Comment ${i + k}: please look at this paragraph again.`, nodeId: '', pageId: '' },
          authors[(i + k) % authors.length]!.id,
        ),
      ),
    );
  }
  const seedMs = performance.now() - t0;

  const byLimit: Record<string, { pages: number; totalMs: ReturnType<typeof percentiles>; perPageMs: ReturnType<typeof percentiles> }> = {};
  for (const limit of LIMITS) {
    const totals: number[] = [];
    const perPage: number[] = [];
    let pages = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      let cursor = '';
      let seen = 0;
      pages = 0;
      const start = performance.now();
      do {
        const p0 = performance.now();
        const res = await review.call(
          review.client.listComments,
          { spaceId: space.id, changeRequest: cr.id, order: SortOrder.SORT_ORDER_DESC, status: '', targetPage: '', authors: [], page: { page: cursor, limit } },
          owner.id,
        );
        if (run > 0) perPage.push(performance.now() - p0);
        seen += res.items.length;
        pages++;
        cursor = res.page?.next ?? '';
      } while (cursor);
      if (seen !== COMMENTS) throw new Error(`listed ${seen} comments, expected ${COMMENTS}`);
      // The first run warms up.
      if (run > 0) totals.push(performance.now() - start);
    }
    byLimit[`limit ${limit}`] = { pages, totalMs: percentiles(totals), perPageMs: percentiles(perPage) };
    console.log(`${COMMENTS} comments in pages of ${limit}: ${pages} calls, p50 ${byLimit[`limit ${limit}`]!.totalMs.p50} ms in all`);
  }
  writeResult('review-comments', {
    bench: 'review-comments',
    date: new Date().toISOString(),
    path: 'gRPC ReviewService.ListComments, in-process servers',
    comments: COMMENTS,
    runs: RUNS,
    seedMs: Math.round(seedMs),
    byLimit,
  });
} finally {
  await stack.stop();
}
