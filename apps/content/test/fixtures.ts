import type { SpacePermissions } from '@quire/proto/content';

/** What a reader may do in a live space (the domain's rule and the API's answer agree): view and access only. */
export const READER_SPACE_PERMISSIONS: SpacePermissions = {
  view: true,
  access: true,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
};
