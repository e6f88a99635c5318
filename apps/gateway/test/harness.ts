import { contentAt } from '@quire/content/testing';
import { orgsAt, type TestUser } from '@quire/orgs/testing';
import { pdfText } from '@quire/render/testing';
import type { LightMyRequestResponse } from 'fastify';
import { expect, inject } from 'vitest';
import { testIdentity, testSuffix } from '@quire/service-kit/testing';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { gitbookOperations, served, specHook, type Violation } from './gitbook-spec.ts';
import type { Stack, StackAddresses } from './stack.ts';

/** What the answers of this file broke of GitBook's OpenAPI document (setup.ts fails the test that made them). */
export const violations: Violation[] = [];

export type { Stack } from './stack.ts';

/** The run's shared stack as a worker reaches it: over gRPC, and over the databases tests seed beside the API. */
function stackAt({ orgs, content, ...others }: StackAddresses) {
  return { ...others, orgs: orgsAt(orgs.address, orgs.databaseUrl), content: contentAt(content.address, content.databaseUrl) };
}

export type SharedStack = ReturnType<typeof stackAt>;

let shared: SharedStack | undefined;

/**
 * The run's stack, in a process of its own (global-setup.ts) and shared by every file of every
 * worker. Tests are tenants: each makes its own organizations, so none sees another's data.
 */
export function sharedStack(): SharedStack {
  return (shared ??= stackAt(inject('stack')));
}

type AppOptions = NonNullable<Parameters<typeof buildApp>[2]>;

/**
 * A gateway (its own configuration, caches and rate-limit counters) over the run's shared stack;
 * drive it with `call` or `app.inject`. `stop()` closes the gateway alone. With `own`, over a
 * stack of its own in this worker (`orgsEnv` its orgs' settings), stopped with it: for a file that
 * stops, kills or reconfigures a service.
 */
export function startGateway(env: Record<string, string>, options: AppOptions & { own: true; orgsEnv?: Record<string, string> }): Promise<OwnGateway>;
export function startGateway(env?: Record<string, string>, options?: AppOptions & { own?: undefined }): Promise<GatewayOver<SharedStack>>;
export async function startGateway(env: Record<string, string> = {}, options: AppOptions & { own?: true; orgsEnv?: Record<string, string> } = {}) {
  const { own, orgsEnv, ...appOptions } = options;
  if (!own) return gatewayOver(sharedStack(), env, appOptions);
  // Loaded only here: a worker of files that share the stack never loads the services' code.
  const stack = await (await import('./stack.ts')).startStack(orgsEnv);
  const g = await gatewayOver({ ...stack, eventsPrefix: stack.orgs.config.EVENTS_SUBJECT_PREFIX }, env, appOptions);
  return {
    ...g,
    async stop() {
      await g.stop();
      await stack.stop();
    },
  };
}

async function gatewayOver<S extends SharedStack>(stack: S, env: Record<string, string>, appOptions: AppOptions) {
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
    EVENTS_SUBJECT_PREFIX: stack.eventsPrefix,
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
    },
  };
}

/** A gateway over stack `S`: the shared one (`Gateway`) or a file's own (`OwnGateway`). */
export type GatewayOver<S extends SharedStack> = Awaited<ReturnType<typeof gatewayOver<S>>>;
export type Gateway = GatewayOver<SharedStack>;
export type OwnGateway = GatewayOver<Stack & { eventsPrefix: string }>;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The answer is `status` with the error body, its message matching when a pattern is given. */
export function expectError(res: LightMyRequestResponse, status: number, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ error: { code: status, message: message ? expect.stringMatching(message) : expect.any(String) } });
}

/** A signed download link fetched without a token, as a browser follows it. */
export const fetchSigned = (g: Gateway, url: string) => g.app.inject({ method: 'GET', url: url.replace(g.config.QUIRE_PUBLIC_URL, '') });

/** The answer is a PDF (its type and first bytes say so); its text. */
export function pdfOf(res: LightMyRequestResponse): string {
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(res.rawPayload);
}

/** The answer is `status` (200 by default); its JSON body, or undefined when it has none (204, 205). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON as they expect it
export async function ok(res: Promise<LightMyRequestResponse>, status = 200): Promise<any> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.body === '' ? undefined : r.json();
}
