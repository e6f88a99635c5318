import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Caller } from '@quire/service-kit';
import { errorResponses, list, ListOf, ListQuery, pageRequest } from '../schemas/common.ts';

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

/** The instance a route group is given. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What a paged list states of itself: its item stands for the `ListOf` answer, the list query is the same for all. */
interface PagedListSpec<P extends TObject> {
  operationId: string;
  summary: string;
  params?: P;
  item: TSchema;
}

/**
 * The paged lists of a route group: GET `path` answers a page of items, asked of the service with
 * the route's params and the page, each item presented. TypeBox cannot type requests from a
 * generic `P`, so the params are cast to it.
 */
export function pagedLists(app: App, op: ReturnType<typeof operations>) {
  return <P extends TObject, T, U>(
    path: string,
    { item, ...spec }: PagedListSpec<P>,
    fetch: (params: Static<P>, page: ReturnType<typeof pageRequest>, caller: Caller) => Promise<{ items: T[]; page?: { next?: string } }>,
    present: (item: T, params: Static<P>) => U,
  ) =>
    app.get(path, op({ ...spec, querystring: Type.Object(ListQuery), response: { 200: ListOf(item) } }), async (req) => {
      const params = req.params as Static<P>;
      return pageOf(await fetch(params, pageRequest(req.query), req.caller), (i) => present(i, params));
    });
}
