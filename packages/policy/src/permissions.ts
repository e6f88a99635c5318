import { permissions, type Contexts } from './allow.ts';
import type { Role } from './roles.ts';

// The API's `permissions` objects, each answer read from the resource's table.

export function organizationPermissions(role: Role) {
  const { manageTeams, ...rest } = permissions(
    role,
    ['view', 'admin', 'manageTeams', 'createContent', 'createOpenApiSpec', 'ingestConversations', 'viewBilling', 'listMembers', 'listTeams', 'listIntegrations'],
    'organization',
  );
  // GitBook's name for whether the caller may create teams (and so own them).
  return { ...rest, ownTeam: manageTeams };
}

export const collectionPermissions = (role: Role) => permissions(role, ['view', 'admin', 'viewInviteLinks', 'create'], 'collection');

export const spacePermissions = (role: Role, space: Contexts['space']) =>
  permissions(role, ['view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review'], 'space', space);

export const integrationPermissions = (ownerRole: Role, integration: Contexts['integration']) => permissions(ownerRole, ['admin', 'install'], 'integration', integration);

/**
 * How a member joins a change request's page edited together (apps/collab), from their
 * permissions on the space: writing with `edit` while the change request is open or a draft,
 * reading with `view` (a merged or archived one takes no edits); `undefined`, not at all.
 */
export function pageEditing(space: { view: boolean; edit: boolean }, changeRequestStatus: string): 'write' | 'read' | undefined {
  if (!space.view) return undefined;
  return space.edit && (changeRequestStatus === 'open' || changeRequestStatus === 'draft') ? 'write' : 'read';
}
