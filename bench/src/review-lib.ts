import { fileURLToPath } from 'node:url';
import { migrateTemplate } from '@quire/service-kit/testing';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
// The review app is not a dependency of the bench package: its harness is reached by path.
import { startReview } from '@quire/review/testing';

// What the review benchmarks share: the real orgs, content and review services over fresh
// databases (migrated templates), one owner and a space, and the percentiles they report.

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export async function startReviewStack() {
  await Promise.all([
    migrateTemplate('orgs', here('../../apps/orgs')),
    migrateTemplate('content', here('../../apps/content')),
    migrateTemplate('review', here('../../apps/review')),
  ]);
  const orgs = await startOrgs();
  const content = await startContent(orgs.address);
  const review = await startReview(orgs.address, content.address);
  const owner = await orgs.user('owner');
  const org = await orgs.organization(owner, [], 'Bench');
  const space = await content.call(content.client.createSpace, { organizationId: org.id, title: 'Big', emoji: '', editMode: '', visibility: '' }, owner.id);
  return {
    orgs,
    content,
    review,
    owner,
    org,
    space,
    async stop() {
      await review.stop();
      await content.stop();
      await orgs.stop();
    },
  };
}

export { percentiles, writeResult } from './lib/results.ts';
