// The app talks to Quire only through the public /v1 API and the /auth sign-in endpoints, on
// the same origin, with the session cookie. Writes carry the session's CSRF token.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;

/** Set from `GET /auth/session` (its `x-csrf-token` header or body); sent on every write. */
export function setCsrfToken(token: string | undefined) {
  csrfToken = token;
}

export interface List<T> {
  items: T[];
  count?: number;
  next?: { page: string };
}

type Query = Record<string, string | number | boolean | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** One call; JSON in and out. Errors become ApiError with the API's message. */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204 || res.status === 205) return undefined as T;
  const text = await res.text();
  const json = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const message = (json as { error?: { message?: string } } | undefined)?.error?.message ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, message);
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(`/v1${path}`, query)),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', `/v1${path}`, body),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', `/v1${path}`, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', `/v1${path}`, body),
  delete: (path: string) => request<void>('DELETE', `/v1${path}`),
};

/** Every item of a paginated list (bounded: lists the app shows whole are small). */
export async function all<T>(path: string, query: Query = {}, maxPages = 20): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const res = await api.get<List<T>>(path, { limit: 1000, ...query, page });
    items.push(...res.items);
    page = res.next?.page;
    if (!page) break;
  }
  return items;
}
