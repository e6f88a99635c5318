import { NotFoundError, PermissionDeniedError, Role, roleAtLeast } from '@quire/service-kit';

/**
 * Who may do what in an organization, by org role. A caller with no membership sees nothing
 * (NOT_FOUND, so ids leak nothing); a member without the role gets PERMISSION_DENIED.
 */
const RULES = {
  view: Role.ROLE_GUEST,
  listMembers: Role.ROLE_READ,
  listTeams: Role.ROLE_READ,
  createContent: Role.ROLE_CREATE,
  admin: Role.ROLE_ADMIN,
  manageMembers: Role.ROLE_ADMIN,
  manageTeams: Role.ROLE_ADMIN,
  manageInvites: Role.ROLE_ADMIN,
  viewBilling: Role.ROLE_ADMIN,
  listIntegrations: Role.ROLE_READ,
  createOpenAPISpec: Role.ROLE_CREATE,
  ingestConversations: Role.ROLE_ADMIN,
  viewAuditLog: Role.ROLE_ADMIN,
} as const satisfies Record<string, Role>;

export type OrgAction = keyof typeof RULES;

export function isMember(role: Role): boolean {
  return role !== Role.ROLE_UNSPECIFIED;
}

export function can(role: Role, action: OrgAction): boolean {
  return isMember(role) && roleAtLeast(role, RULES[action]);
}

export function authorize(role: Role, action: OrgAction, what = 'Organization'): void {
  if (!isMember(role)) throw new NotFoundError(`${what} not found`);
  if (!can(role, action)) throw new PermissionDeniedError(`Your role in this organization does not allow this (${action})`);
}

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenApiSpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
}

export function organizationPermissions(role: Role): OrganizationPermissions {
  return {
    view: can(role, 'view'),
    admin: can(role, 'admin'),
    ownTeam: can(role, 'manageTeams'),
    createContent: can(role, 'createContent'),
    createOpenApiSpec: can(role, 'createOpenAPISpec'),
    ingestConversations: can(role, 'ingestConversations'),
    viewBilling: can(role, 'viewBilling'),
    listMembers: can(role, 'listMembers'),
    listTeams: can(role, 'listTeams'),
    listIntegrations: can(role, 'listIntegrations'),
  };
}

/** A team can be managed by org admins and by the team's owners. */
export function canManageTeam(orgRole: Role, isTeamOwner: boolean): boolean {
  return can(orgRole, 'manageTeams') || (isMember(orgRole) && isTeamOwner);
}
