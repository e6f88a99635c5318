import type { FastifyInstance, FastifyRequest } from 'fastify';

/** An answer of the API to a tool: its status and JSON body. */
export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool reads the JSON of the operation it called
  body: any;
}

export type Api = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<ApiAnswer>;

/** The API error's message, as the tool tells the assistant. */
export const apiMessage = (answer: ApiAnswer) => String(answer.body?.error?.message ?? `The API answered ${answer.status}`);

// Headers that say who calls: a tool's request is the MCP request's caller, nothing more.
const CREDENTIALS = ['authorization', 'cookie', 'x-csrf-token', 'user-agent'] as const;

/**
 * The public API as the MCP request's caller calls it: each tool goes through the same routes,
 * checks, rate limits and audit as a client of `/v1` would, so no rule is written twice.
 */
export function apiAs(app: FastifyInstance, req: FastifyRequest): Api {
  const headers: Record<string, string> = {};
  for (const name of CREDENTIALS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let n = 0;
  return async (method, url, payload) => {
    const res = await app.inject({
      method,
      url: `/v1${url}`,
      remoteAddress: req.ip,
      headers: { ...headers, 'x-request-id': `${req.id}.${++n}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };
}

/** A path segment from an id or slug the assistant gave. */
export const seg = (value: string) => encodeURIComponent(value);
