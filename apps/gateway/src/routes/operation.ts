import type { TSchema } from '@sinclair/typebox';
import { errorResponses, list } from '../schemas/common.ts';

/** What a route states of itself: the rest of its options are the same for every route. */
interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** The answers on success; the error answers every route shares are added. */
  response: Record<number, TSchema>;
}

/**
 * The route options of a group's operations, under the group's OpenAPI tags. The spec's schemas
 * keep their types, so that Fastify still types each handler's request and answer from them.
 */
export function operations(...tags: string[]) {
  return <const S extends OperationSpec>({ response, ...spec }: S) => ({
    schema: { ...(spec as Omit<S, 'response'>), tags, response: { ...(response as S['response']), ...errorResponses } },
  });
}

/** A page of a service's list answer as the API sends it, each item presented. */
export function pageOf<T, U>(res: { items: T[]; page?: { next?: string } }, present: (item: T) => U) {
  return list(
    res.items.map((item) => present(item)),
    res.page?.next,
  );
}

/** Answers with no body (204, 205) once the service has done the work. */
export async function done<S extends 204 | 205, T>(reply: { code(status: NoInfer<S>): { send(): T } }, status: S, work: Promise<unknown>) {
  await work;
  return reply.code(status).send();
}
