import type { ApiRole } from './roles.ts';

/**
 * The least a role must be for an action: `anyone` lets in even callers with no role (UNSPECIFIED),
 * `guest` any member, `nobody` no one at all.
 */
export type Threshold = 'anyone' | 'guest' | ApiRole | 'nobody';

/**
 * Every decision by role, one table per resource. Each row is an action and the least role it
 * needs; a row whose answer depends on the resource's state has one column per state.
 */
export const RULES = {
  /** By the caller's role in the organization. */
  organization: {
    view: 'guest',
    listMembers: 'read',
    listTeams: 'read',
    listIntegrations: 'read',
    // Members with a role reach spaces and collections through their default levels; guests only
    // through explicit grants (or a public visibility).
    inheritContent: 'read',
    listMemberSpaces: 'read',
    createContent: 'create',
    viewOpenApiSpecs: 'read',
    createOpenApiSpec: 'create',
    admin: 'admin',
    // Organization admins administer every space and collection, whatever their grants.
    adminContent: 'admin',
    transferContent: 'admin',
    manageMembers: 'admin',
    manageTeams: 'admin',
    manageInvites: 'admin',
    publishIntegrations: 'admin',
    viewBilling: 'admin',
    viewAuditLog: 'admin',
    ingestConversations: 'admin',
  },

  /** By the caller's role in the organization; its owners manage a team too. */
  team: {
    // [not its owner, its owner]
    manage: ['admin', 'guest'],
  },

  /** By the caller's effective role on the collection. */
  collection: {
    view: 'read',
    create: 'create',
    admin: 'admin',
    viewInviteLinks: 'admin',
    managePermissions: 'admin',
  },

  /** By the caller's effective role on the space. */
  space: {
    view: 'read',
    access: 'read',
    comment: 'comment',
    review: 'review',
    admin: 'admin',
    viewInviteLinks: 'admin',
    managePermissions: 'admin',
    // [live, locked]: a locked space takes no edits, whoever asks, change requests' included (GitBook's `edit` is
    // "edit the content by creating a change request"); its title and emoji are its admins' to change.
    update: ['edit', 'admin'],
    edit: ['edit', 'nobody'],
    triggerGitSync: ['edit', 'nobody'],
    merge: ['review', 'nobody'],
  },

  /** Sites belong to their organization: by the caller's role there. */
  site: {
    // Also its insights (events and aggregates): visitor claims are personal data.
    view: 'read',
    edit: 'create',
  },

  /** By the caller's role in the integration's owner organization. */
  integration: {
    admin: 'admin',
    // [listed (public or unlisted), private]
    view: ['anyone', 'guest'],
    install: ['anyone', 'admin'],
  },
} as const satisfies Record<string, Record<string, Threshold | readonly [Threshold, Threshold]>>;
