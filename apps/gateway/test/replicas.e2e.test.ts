import { startContent } from '@quire/content/testing';
import { startGitSync } from '@quire/git-sync/testing';
import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs } from '@quire/orgs/testing';
import { startReview } from '@quire/review/testing';
import { startSites } from '@quire/sites/testing';
import { testIdentity } from '@quire/service-kit/testing';
import { expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { startGateway } from './harness.ts';

// Two instances of every service (insights on the embedded engine runs one) over the same
// databases, blobs and job queue, and two gateways balancing over them (`ORGS_URL=a,b`,
// round_robin). Four clients call every service at once; in the middle one instance of each is
// killed (its calls in flight cut, as a lost node would) and one gateway leaves the load balancer.

/** Undone when the test finishes, last first; a step that fails (its instance killed) is passed over. */
const cleanup = (step: () => Promise<unknown>) =>
  onTestFinished(async () => {
    await step().catch(() => undefined);
  });

interface Answer {
  status: number;
  expected: number;
  method: string;
  url: string;
  /** Whether the call started after the kill had finished. */
  after: boolean;
}

it('keeps answering every service while one instance of each is killed mid-run', async () => {
  // Its own services: one instance of each is killed.
  const g = await startGateway({}, { own: true });
  cleanup(() => g.stop());
  // The second instances, over the harness's databases (left in place when they stop).
  const orgs = await startOrgs({}, g.orgs.databaseUrl);
  const list = (a: string, b: string) => `${a},${b}`;
  const orgsUrl = list(g.orgs.address, orgs.address);
  const content = await startContent(orgsUrl, { databaseUrl: g.content.databaseUrl, blobDir: g.content.blobDir });
  const contentUrl = list(g.content.address, content.address);
  const [review, sites, integrations, gitSync] = await Promise.all([
    startReview(orgsUrl, contentUrl, { databaseUrl: g.review.databaseUrl }),
    startSites(orgsUrl, contentUrl, { databaseUrl: g.sites.databaseUrl, secretsKey: g.sites.secretsKey }),
    startIntegrations(orgsUrl, { databaseUrl: g.integrations.databaseUrl, secretsKey: g.integrations.secretsKey }),
    startGitSync(contentUrl, { databaseUrl: g.gitSync.databaseUrl, queue: g.gitSync.queue }),
  ]);
  const second = [orgs, content, review, sites, integrations, gitSync];
  for (const x of second) cleanup(() => x.stop());

  const config = loadGatewayConfig({
    ...g.config,
    ORGS_URL: orgsUrl,
    CONTENT_URL: contentUrl,
    REVIEW_URL: list(g.review.address, review.address),
    SITES_URL: list(g.sites.address, sites.address),
    INTEGRATIONS_URL: list(g.integrations.address, integrations.address),
    GIT_SYNC_URL: list(g.gitSync.address, gitSync.address),
    AUTH_CACHE_TTL_MS: '0',
  } as unknown as NodeJS.ProcessEnv);
  const gateways = await Promise.all(
    [0, 1].map(async () => {
      const services = connectServices(config, testIdentity('gateway'));
      return { app: await buildApp(config, services), services, out: false };
    }),
  );
  cleanup(async () => {
    for (const gw of gateways) {
      await gw.app.close();
      for (const c of gw.services.channels) c.client.close();
    }
  });

  const owner = await g.orgs.user('owner');
  const org = await g.orgs.organization(owner);
  const headers = { authorization: `Bearer ${owner.token}` };
  const space = (await g.app.inject({ method: 'POST', url: `/v1/orgs/${org.id}/spaces`, headers, payload: { title: 'Handbook' } })).json();
  // One call of each service the gateway reaches (a space list reaches content, review and
  // git-sync), with its answer: git-sync's for a space without a repository is 404.
  const calls: { method: 'GET' | 'POST'; url: string; payload?: object; status: number }[] = [
    { method: 'GET', url: `/v1/orgs/${org.id}`, status: 200 },
    { method: 'POST', url: `/v1/orgs/${org.id}/spaces`, payload: { title: 'Replica space' }, status: 201 },
    { method: 'GET', url: `/v1/orgs/${org.id}/spaces`, status: 200 },
    { method: 'GET', url: `/v1/spaces/${space.id}/change-requests`, status: 200 },
    { method: 'GET', url: `/v1/orgs/${org.id}/sites`, status: 200 },
    { method: 'GET', url: `/v1/integrations`, status: 200 },
    { method: 'GET', url: `/v1/spaces/${space.id}/git/info`, status: 404 },
  ];

  const answers: Answer[] = [];
  let killed = false;
  let issued = 0;
  const total = 4 * 70;
  const client = async (n: number) => {
    for (let i = n; i < total; i += 4) {
      const call = calls[i % calls.length]!;
      // The load balancer of the deployment sends each request to a gateway still in it.
      const live = gateways.filter((x) => !x.out);
      const gw = live[i % live.length]!;
      const after = killed;
      issued++;
      const res = await gw.app.inject({ method: call.method, url: call.url, headers, ...(call.payload ? { payload: call.payload } : {}) });
      answers.push({ status: res.statusCode, expected: call.status, method: call.method, url: call.url, after });
    }
  };
  const kill = async () => {
    while (issued < total / 3) await new Promise((r) => setTimeout(r, 5));
    gateways[0]!.out = true;
    // Upstreams first, a moment apart: the instances still alive have calls to them in flight.
    for (const group of [[orgs], [content], [review, sites, integrations, gitSync]]) {
      for (const x of group) x.kill();
      await new Promise((r) => setTimeout(r, 50));
    }
    killed = true;
  };
  await Promise.all([client(0), client(1), client(2), client(3), kill()]);

  const statuses = answers.map((a) => `${a.status} ${a.method} ${a.url}${a.after ? '' : ' (before)'}`).join('\n');
  expect(answers).toHaveLength(total);
  // Calls cut by the kill may answer 503 (an instance went away mid-call); nothing else, and every
  // call made after it answers as it should.
  expect(
    answers.filter((a) => a.status !== a.expected && a.status !== 503),
    statuses,
  ).toEqual([]);
  expect(
    answers.filter((a) => a.after && a.status !== a.expected),
    statuses,
  ).toEqual([]);
  expect(answers.filter((a) => a.after).length).toBeGreaterThan(total / 2);
  const created = answers.filter((a) => a.status === 201).length;
  const cut = answers.filter((a) => a.method === 'POST' && a.status === 503).length;
  const spaces = (await gateways[1]!.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}/spaces?limit=1000`, headers })).json().items;
  // The original space, each created one, and any whose answer the kill cut after it was written.
  expect(spaces.length - 1).toBeGreaterThanOrEqual(created);
  expect(spaces.length - 1).toBeLessThanOrEqual(created + cut);
}, 300_000);
