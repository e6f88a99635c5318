import { startContent } from '@quire/content/testing';
import { startGitSync } from '@quire/git-sync/testing';
import { startInsights } from '@quire/insights/testing';
import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs } from '@quire/orgs/testing';
import { startReview } from '@quire/review/testing';
import { startSites } from '@quire/sites/testing';

/** The seven services wired as in production over fresh databases, with their own event streams; `orgsEnv` sets orgs' settings. */
export async function startStack(orgsEnv: Record<string, string> = {}) {
  const orgs = await startOrgs(orgsEnv);
  // The services publish their domain events where this orgs instance's audit log reads them.
  const eventsPrefix = orgs.config.EVENTS_SUBJECT_PREFIX;
  // Content keeps copies of review's counters and git-sync's links from their state events on that stream.
  const eventsStream = orgs.config.EVENTS_STREAM;
  const [content, integrations, insights] = await Promise.all([
    startContent(orgs.address, { eventsPrefix, eventsStream }),
    startIntegrations(orgs.address),
    startInsights(orgs.address),
  ]);
  const [review, sites, gitSync] = await Promise.all([
    startReview(orgs.address, content.address, undefined, { eventsPrefix, eventsStream }),
    startSites(orgs.address, content.address, { eventsPrefix }),
    startGitSync(content.address, { eventsPrefix, eventsStream, orgsAddress: orgs.address }),
  ]);
  content.useOwners(review.address, gitSync.address);
  return {
    orgs,
    content,
    integrations,
    insights,
    review,
    sites,
    gitSync,
    async stop() {
      await Promise.all([review.stop(), sites.stop(), gitSync.stop()]);
      await Promise.all([content.stop(), integrations.stop(), insights.stop()]);
      await orgs.stop();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * Where a stack's services answer, and what the workers need beside the addresses: the orgs and
 * content databases tests seed as an operator would, and the events subject prefix the gateway
 * publishes its audit entries under.
 */
export interface StackAddresses {
  orgs: { address: string; databaseUrl: string };
  content: { address: string; databaseUrl: string };
  integrations: { address: string };
  insights: { address: string };
  review: { address: string };
  sites: { address: string };
  gitSync: { address: string };
  eventsPrefix: string;
}

export function addressesOf({ orgs, content, integrations, insights, review, sites, gitSync }: Stack): StackAddresses {
  return {
    orgs: { address: orgs.address, databaseUrl: orgs.databaseUrl },
    content: { address: content.address, databaseUrl: content.databaseUrl },
    integrations: { address: integrations.address },
    insights: { address: insights.address },
    review: { address: review.address },
    sites: { address: sites.address },
    gitSync: { address: gitSync.address },
    eventsPrefix: orgs.config.EVENTS_SUBJECT_PREFIX,
  };
}

/** The services whose template databases the stack clones (insights keeps its events in ClickHouse). */
export const STACK_SERVICES = ['orgs', 'content', 'integrations', 'review', 'sites', 'git-sync'];
