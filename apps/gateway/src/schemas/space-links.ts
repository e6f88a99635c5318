import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery } from './common.ts';

/** Where content is (GitBook's ContentLocation), by ids. */
export const ContentLocation = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('page'),
      organization: Type.String(),
      space: Type.String(),
      page: Type.String(),
      internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
    }),
    Type.Object({ kind: Type.Literal('file'), organization: Type.String(), space: Type.String(), file: Type.String() }),
    Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
  ],
  { title: 'ContentLocation' },
);

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LinkStatus = Type.Union(LINK_STATUSES.map((s) => Type.Literal(s)), {
  description: '`ok`: no problem; `broken`: the target is missing in the revision; `in-app`: a URL to a place in the app',
});

export const ContentReferenceUsage = Type.Object(
  {
    status: LinkStatus,
    relation: Type.Union([Type.Literal('reference'), Type.Literal('dependsOn')], { description: '`reference` for links, `dependsOn` for embedded images' }),
    targetReference: ContentLocation,
    locationReferences: Type.Array(ContentLocation),
  },
  { title: 'ContentReferenceUsage' },
);

export const LinksQuery = Type.Object({ ...ListQuery, status: Type.Optional(LinkStatus) });

export const LinkStats = Type.Object({ total: Type.Integer(), broken: Type.Object({ total: Type.Integer() }) }, { title: 'ContentReferencesStats' });

export type ContentLocationJson = Static<typeof ContentLocation>;
export type ContentReferenceUsageJson = Static<typeof ContentReferenceUsage>;

/** A link list: the list envelope with the revision's `stats`. */
export const LinkList = Type.Composite([ListOf(ContentReferenceUsage), Type.Object({ stats: LinkStats })]);
