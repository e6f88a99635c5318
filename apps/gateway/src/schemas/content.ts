import { Type } from '@sinclair/typebox';
import { COMMON, SPACE } from '@quire/proto/limits';
import { ApiObject, chars, Id, items, RoleName, Timestamp } from './common.ts';
import { GitSyncState } from './git.ts';
import { User } from './orgs.ts';

// GitBook's Collection and Space (api-reference "Collection", "Space"); the content service checks
// the same bounds, for callers other than the gateway.

export const Visibility = Type.Union(
  ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'].map((v) => Type.Literal(v)),
  { description: '`in-collection` only for spaces in a collection' },
);
export const EditMode = Type.Union([Type.Literal('live'), Type.Literal('locked')]);
/** A role, `null` (nothing inherited: only explicit grants) or `inherit` (the parent's, up to the organization role). */
export const DefaultLevel = Type.Union([RoleName, Type.Null(), Type.Literal('inherit')]);
const Title = Type.String(chars(SPACE.title));
const Emoji = Type.String({ ...chars(COMMON.emoji), description: 'An emoji character or its hex code points' });

export const SpaceParams = Type.Object({ spaceId: Id('Space id') });
export const CollectionParams = Type.Object({ collectionId: Id('Collection id') });

const Pointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Id('Space id') }),
  Type.Object({ type: Type.Literal('collection'), collection: Id('Collection id') }),
]);

export const MoveBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([Id('Parent collection id'), Type.Null()], { description: 'null: the organization root' })),
    position: Type.Optional(Type.Object({ before: Type.Optional(Pointer), after: Type.Optional(Pointer) }, { description: 'At the end when unset' })),
  },
  { minProperties: 1 },
);

export const TransferBody = Type.Object({ organization: Id('Target organization id') });

export const CreateCollectionBody = Type.Object({ title: Type.Optional(Title), parent: Type.Optional(Id('Parent collection id')) });

export const UpdateCollectionBody = Type.Object({
  title: Type.Optional(Title),
  description: Type.Optional(Type.String(chars(SPACE.description))),
  defaultLevel: Type.Optional(DefaultLevel),
});

export const CreateSpaceBody = Type.Object({
  title: Type.Optional(Title),
  emoji: Type.Optional(Emoji),
  parent: Type.Optional(Id('Parent collection id')),
  editMode: Type.Optional(EditMode),
  visibility: Type.Optional(Visibility),
});

export const UpdateSpaceBody = Type.Object({
  title: Type.Optional(Title),
  emoji: Type.Optional(Type.Union([Emoji, Type.Null()], { description: 'null removes it' })),
  editMode: Type.Optional(EditMode),
  defaultLevel: Type.Optional(DefaultLevel),
  visibility: Type.Optional(Visibility),
});

export const Collection = ApiObject(
  'collection',
  {
    title: Type.String(),
    description: Type.Optional(Type.String()),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    defaultLevel: DefaultLevel,
    urls: Type.Object({ location: Type.String(), app: Type.String() }),
    permissions: Type.Object({ view: Type.Boolean(), admin: Type.Boolean(), viewInviteLinks: Type.Boolean(), create: Type.Boolean() }),
  },
  { title: 'Collection' },
);

export const Space = ApiObject(
  'space',
  {
    title: Type.String(),
    emoji: Type.String(),
    visibility: Visibility,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Type.Optional(Timestamp),
    editMode: EditMode,
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    gitSync: Type.Optional(GitSyncState),
    revision: Type.String({ description: 'Id of the active revision' }),
    defaultLevel: DefaultLevel,
    comments: Type.Integer(),
    changeRequests: Type.Integer(),
    changeRequestsOpen: Type.Integer(),
    changeRequestsDraft: Type.Integer(),
    urls: Type.Object({
      location: Type.String(),
      app: Type.String(),
      published: Type.Optional(Type.String()),
      public: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
    }),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
      admin: Type.Boolean(),
      viewInviteLinks: Type.Boolean(),
      edit: Type.Boolean(),
      triggerGitSync: Type.Boolean(),
      comment: Type.Boolean(),
      merge: Type.Boolean(),
      review: Type.Boolean(),
    }),
  },
  { title: 'Space' },
);

export const SpaceUserParams = Type.Object({ spaceId: Id('Space id'), userId: Id('User id') });

const Principals = (description: string) => Type.Optional(Type.Array(Id(description), items(SPACE.principals)));

/** GitBook's InviteUsersAndTeams: at least one of `users` and `teams` (the content service checks it). */
export const InviteBody = Type.Object(
  {
    role: Type.Union([RoleName, Type.Null()], { description: 'null removes the grants of these users and teams' }),
    users: Principals('Id of a member of the organization'),
    teams: Principals('Id of a team of the organization'),
  },
  { title: 'InviteUsersAndTeams' },
);

export const UpdateUserPermissionBody = Type.Object({ role: Type.Union([RoleName, Type.Null()], { description: 'null removes the grant' }) });

export const UserContentPermission = Type.Object({ permission: RoleName, user: User }, { title: 'UserContentPermission' });
