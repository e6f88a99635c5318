import { fileURLToPath } from 'node:url';
import { startContent } from '@quire/content/testing';
import { startInsights } from '@quire/insights/testing';
import { startOrgs } from '@quire/orgs/testing';
import { startSites } from '@quire/sites/testing';
import { migrateTemplate } from '@quire/service-kit/testing';

// What the reader's benchmarks run in their own process: orgs, content, insights and sites from
// source over fresh databases, and an owner of an organization to publish sites as.

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export async function startSiteServices() {
  await Promise.all(['orgs', 'content', 'sites'].map((s) => migrateTemplate(s, here(`../../../apps/${s}`))));
  const orgs = await startOrgs();
  const [content, insights] = await Promise.all([startContent(orgs.address), startInsights(orgs.address)]);
  // Its events (a site published) where orgs' stream keeps them, so that a reader may hear them.
  const sites = await startSites(orgs.address, content.address, { eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX });
  const owner = await orgs.user('owner');
  const orgId = (await orgs.organization(owner, [])).id;
  return {
    orgs,
    content,
    insights,
    sites,
    owner,
    orgId,
    async stop() {
      await sites.stop();
      await Promise.all([content.stop(), insights.stop()]);
      await orgs.stop();
    },
  };
}
