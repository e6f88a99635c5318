import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery } from './common.ts';
import { Space } from './content.ts';
import { Organization } from './orgs.ts';
import { File, type PageJson } from './space-content.ts';

// The page as a revision lists it. Not the recursive Page schema itself: a link list holds many
// locations, and the serializer refuses one schema id (`RevisionPage`) found in several places.
const LocatedPage = Type.Unsafe<PageJson>({ type: 'object', additionalProperties: true, description: "The page, as in the revision's pages" });

/** Where content is (GitBook's ContentLocation): the organization, space, page and file as objects. */
export const ContentLocation = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('page'),
      organization: Organization,
      space: Space,
      page: LocatedPage,
      internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
    }),
    Type.Object({ kind: Type.Literal('file'), organization: Organization, space: Space, file: File }),
    Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
  ],
  { title: 'ContentLocation' },
);

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LinkStatus = Type.Union(
  LINK_STATUSES.map((s) => Type.Literal(s)),
  {
    description: '`ok`: no problem; `broken`: the target is missing in the revision; `in-app`: a URL to a place in the app',
  },
);

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
