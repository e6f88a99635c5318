import { startContent } from '@quire/content/testing';
import { startGitSync } from '@quire/git-sync/testing';
import { startInsights } from '@quire/insights/testing';
import { startIntegrations } from '@quire/integrations/testing';
import { startOrgs, type TestUser } from '@quire/orgs/testing';
import { startReview } from '@quire/review/testing';
import { startSites } from '@quire/sites/testing';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { testIdentity, testSuffix } from '@quire/service-kit/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { gitbookOperations, served, specHook, type Violation } from './gitbook-spec.ts';

/** What the answers of this file broke of GitBook's OpenAPI document (setup.ts fails the test that made them). */
export const violations: Violation[] = [];

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
    startGitSync(content.address, { eventsPrefix }),
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

let shared: Promise<Stack> | undefined;

/**
 * This worker's stack, started by the first test file that asks and used by every file after it
 * (the e2e suites run their files in one process: vitest.config.ts). Tests are tenants: each makes
 * its own organizations, so none sees another's data. No test stops it: the run's teardown sweeps
 * its databases and streams. A file that stops, kills or reconfigures a service starts its own.
 */
export function sharedStack(): Promise<Stack> {
  return (shared ??= startStack());
}

/**
 * A gateway (its own configuration, caches and rate-limit counters) over this worker's shared
 * stack; drive it with `call` or `app.inject`. `stop()` closes the gateway alone. With `own`, over
 * a stack of its own (`orgsEnv` its orgs' settings), stopped with it: for a file that stops, kills
 * or reconfigures a service.
 */
export async function startGateway(env: Record<string, string> = {}, options: Parameters<typeof buildApp>[2] & { own?: true; orgsEnv?: Record<string, string> } = {}) {
  const { own, orgsEnv, ...appOptions } = options;
  const stack = own ? await startStack(orgsEnv) : await sharedStack();
  const { orgs, content, review, integrations, insights, sites, gitSync } = stack;
  const config = loadGatewayConfig({
    ORGS_URL: orgs.address,
    CONTENT_URL: content.address,
    REVIEW_URL: review.address,
    INTEGRATIONS_URL: integrations.address,
    INSIGHTS_URL: insights.address,
    SITES_URL: sites.address,
    GIT_SYNC_URL: gitSync.address,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_BUCKET: `test_${testSuffix()}`,
    EVENTS_SUBJECT_PREFIX: orgs.config.EVENTS_SUBJECT_PREFIX,
    ...env,
  });
  const services = connectServices(config, testIdentity('gateway'));
  const app = await buildApp(config, services, appOptions);
  app.addHook('onSend', specHook(violations));
  await app.ready();
  for (const id of gitbookOperations(app.swagger())) served.add(id);
  const replicas: Awaited<ReturnType<typeof buildApp>>[] = [];
  return {
    ...stack,
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
    config,
    services,
    async stop() {
      for (const r of replicas) await r.close();
      await app.limiter.drop();
      await app.close();
      for (const c of services.channels) c.client.close();
      if (own) await stack.stop();
    },
  };
}

export type Gateway = Awaited<ReturnType<typeof startGateway>>;

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
