import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { vi } from 'vitest';
import { SessionProvider } from '../src/session.tsx';

/** A space as the API answers it (`s1` of `org1`), with `fields` over the defaults. */
export const spaceAnswer = (fields: Record<string, unknown> = {}) => ({
  object: 'space',
  id: 's1',
  title: 'Guides',
  emoji: '',
  organization: 'org1',
  visibility: 'private',
  revision: 'r1',
  permissions: {},
  urls: {},
  ...fields,
});

export type Answer = { status?: number; body?: unknown };
export type Handler = (method: string, url: URL, body: unknown) => Answer | undefined | Promise<Answer | undefined>;

/**
 * The API as a component test sees it: each request goes to `handler` (an unknown one answers
 * 404, as the gateway does). Returns the requests made, for assertions.
 */
export function fakeApi(handler: Handler) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://app.test');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname + url.search, body, headers: (init.headers ?? {}) as Record<string, string> });
    const answer = (await handler(method, url, body)) ?? { status: 404, body: { error: { code: 404, message: `No route ${method} ${url.pathname}` } } };
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** `ui` inside the app's providers, at `path` of an in-memory history. */
export function renderAt(path: string, ui: ReactNode) {
  const location = memoryLocation({ path, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <SessionProvider>{ui}</SessionProvider>
      </Router>
    </QueryClientProvider>,
  );
  return { ...result, location };
}

export const ORG = { object: 'organization', id: 'org1', title: 'Acme', urls: { app: 'http://app.test/o/org1', location: 'http://app.test/v1/orgs/org1' } };
export const USER = { object: 'user', id: 'u1', displayName: 'Ada', email: 'ada@example.com' };
