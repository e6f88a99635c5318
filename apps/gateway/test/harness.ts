import { startContent } from '@quire/content/testing';
import { startGitSync } from '@quire/git-sync/testing';
import { startInsights } from '@quire/insights/testing';
import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs, type TestUser } from '@quire/orgs/testing';
import { startReview } from '@quire/review/testing';
import { startSites } from '@quire/sites/testing';
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, expect } from 'vitest';
import { testIdentity } from '@quire/service-kit/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { gitbookOperations, recordCoverage, served, specHook, type Violation } from './gitbook-spec.ts';

const violations: Violation[] = [];
// Registered by every test file that imports the harness: an answer of the test (or of the
// setup before it) that breaks GitBook's OpenAPI document fails it, with Ajv's errors.
afterEach(() => {
  const found = violations.splice(0);
  if (found.length) throw new Error(`answers not conforming to GitBook's OpenAPI document:\n${JSON.stringify(found, null, 2)}`);
});
afterAll(recordCoverage);

/** The whole gateway over the real orgs, content and integrations services and fresh databases; drive it with `app.inject`. */
export async function startGateway(env: Record<string, string> = {}, orgsEnv: Record<string, string> = {}, options: Parameters<typeof buildApp>[2] = {}) {
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
    startGitSync(content.address, { eventsPrefix }),
  ]);
  content.useOwners(review.address, gitSync.address);
  const config = loadGatewayConfig({
    ORGS_URL: orgs.address,
    CONTENT_URL: content.address,
    REVIEW_URL: review.address,
    INTEGRATIONS_URL: integrations.address,
    INSIGHTS_URL: insights.address,
    SITES_URL: sites.address,
    GIT_SYNC_URL: gitSync.address,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_BUCKET: `test_${randomBytes(6).toString('hex')}`,
    ...env,
  });
  const services = connectServices(config, testIdentity('gateway'));
  const app = await buildApp(config, services, options);
  app.addHook('onSend', specHook(violations));
  await app.ready();
  for (const id of gitbookOperations(app.swagger())) served.add(id);
  const replicas: Awaited<ReturnType<typeof buildApp>>[] = [];
  return {
    app,
    /** One request as `as` (no token when null), with a JSON body when given. */
    call(as: TestUser | null, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
      return app.inject({ method, url, headers: as ? bearer(as.token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
    },
    /** Another gateway replica over the same services (its own caches), closed with the first. */
    async replica() {
      const other = await buildApp(config, services);
      await other.ready();
      replicas.push(other);
      return other;
    },
    orgs,
    content,
    integrations,
    insights,
    review,
    sites,
    gitSync,
    config,
    services,
    async stop() {
      for (const r of replicas) await r.close();
      await app.limiter.drop();
      await app.close();
      for (const c of services.channels) c.client.close();
      await Promise.all([review.stop(), sites.stop(), gitSync.stop()]);
      await Promise.all([content.stop(), integrations.stop(), insights.stop()]);
      await orgs.stop();
    },
  };
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The answer is `status` with the error body, its message matching when a pattern is given. */
export function expectError(res: LightMyRequestResponse, status: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ error: { code: status, message: message ? expect.stringMatching(message) : expect.any(String) } });
}

/** The answer is `status` (200 by default); its JSON body, or undefined when it has none (204, 205). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON as they expect it
export async function ok(res: Promise<LightMyRequestResponse>, status = 200): Promise<any> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.body === '' ? undefined : r.json();
}
