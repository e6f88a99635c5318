export { API_ROLES, isRole, Role, roleFromApi, roleOr, roleToApi, strongest, type ApiRole } from './roles.ts';
export { RULES, type Threshold } from './rules.ts';
export { allow, inviteRedundant, mayGrant, permissions, type Action, type Contexts, type Resource } from './allow.ts';
export { collectionPermissions, integrationPermissions, organizationPermissions, pageEditing, spacePermissions } from './permissions.ts';
