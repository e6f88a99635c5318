import { type ObjectOptions, Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { COMMON, type Bound } from '@quire/proto/limits';
import { API_ROLES } from '@quire/policy';

// A bound of @quire/proto/limits as JSON Schema keywords, its `min` only when it has one.
export const chars = ({ min, max }: Bound) => (min === undefined ? { maxLength: max } : { minLength: min, maxLength: max });
export const items = ({ min, max }: Bound) => (min === undefined ? { maxItems: max } : { minItems: min, maxItems: max });
export const range = ({ min, max }: Bound) => (min === undefined ? { maximum: max } : { minimum: min, maximum: max });

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.Integer(), message: Type.String() }) },
  { title: 'Error', description: 'What went wrong; `message` names the field or resource at fault.' },
);

export const Timestamp = Type.String({ format: 'date-time' });

/** An API object: its kind (`object`) and `id` first, then its own fields. */
export function ApiObject<K extends string, P extends TProperties>(kind: K, fields: P, options: ObjectOptions) {
  return Type.Object({ object: Type.Literal(kind), id: Type.String(), ...fields }, options);
}

export const RoleName = Type.Union(API_ROLES.map((r) => Type.Literal(r)));
/** A role, or `null` for a guest. */
export const RoleOrGuest = Type.Union([RoleName, Type.Null()]);

export const ListQuery = {
  page: Type.Optional(Type.String({ ...chars(COMMON.cursor), description: "Cursor from a previous answer's `next.page`" })),
  limit: Type.Optional(Type.Integer({ ...range(COMMON.pageLimit), description: `Items per page, at most ${COMMON.pageLimit.max}` })),
};

/** The list envelope: `next` only when more results exist. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer(),
    items: Type.Array(item),
  });
}

export function list<T>(items: T[], next: string | undefined) {
  return next ? { next: { page: next }, count: items.length, items } : { count: items.length, items };
}

/** The error answers every authenticated route may give. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  503: ErrorBody,
};

// An empty schema typed as void: the route answers with no body at all (204, 205).
export const NoContent = Type.Unsafe<void>({ description: 'No content' });

export const Id = (description: string) => Type.String({ ...chars(COMMON.id), pattern: '^[A-Za-z0-9_-]+$', description });

/** Path parameters of everything under `/orgs/{organizationId}`. */
export const OrgParams = Type.Object({ organizationId: Id('Organization id') });

/** The list query as the services take it. */
export function pageRequest(q: { page?: string; limit?: number }) {
  return { page: q.page ?? '', limit: q.limit ?? 0 };
}

/** The answers of a public download route: the bytes, or the error body. */
export const downloadResponses = {
  200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
  400: ErrorBody,
  404: ErrorBody,
  500: ErrorBody,
  503: ErrorBody,
};

/** One of these strings, as a TypeBox union of literals (so the OpenAPI document lists them). */
export const literals = <T extends string>(values: readonly T[], options: object = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
