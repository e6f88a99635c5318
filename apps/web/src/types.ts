// The API's objects as the app reads them: aliases into the types made from the gateway's OpenAPI
// document (gen/api.d.ts; `pnpm --filter @quire/gateway openapi` writes it).
import type { operations } from './gen/api';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** What operation `Op` answers on success (its 200 or 201 body). */
type Answer<Op extends keyof operations> = operations[Op]['responses'] extends infer R ? Json<R[Extract<keyof R, 200 | 201>]> : never;
/** An item of the list operation `Op` answers. */
type Item<Op extends keyof operations> = Answer<Op> extends { items: (infer I)[] } ? I : never;
/** The body operation `Op` takes. */
type Body<Op extends keyof operations> = operations[Op] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

export type User = Answer<'getAuthenticatedUser'>;
export type Organization = Answer<'getOrganizationById'>;
export type Collection = Answer<'getCollectionById'>;
export type Space = Answer<'getSpaceById'>;
export type SpaceVisibility = Space['visibility'];
export type RevisionPage = Answer<'getPageById'>;
export type Revision = Item<'listRevisions'>;
export type SemanticChange = Answer<'getRevisionSemanticChanges'>['changes'][number];
export type RevisionFile = Answer<'getFileById'>;
export type ChangeRequest = Answer<'getChangeRequestById'>;
export type Comment = Answer<'getCommentInChangeRequest'>;
export type Reaction = Comment['reactions'][number];
export type RequestedReviewer = Item<'getRequestedReviewersByChangeRequestId'>;
export type Member = Answer<'getMemberInOrganizationById'>;
export type Role = NonNullable<Member['role']>;
export type Team = Answer<'getTeamInOrganizationById'>;
export type Token = Item<'listUserApiTokens'> & Partial<Answer<'createUserApiToken'>>;
export type UserPermission = Item<'listUserPermissionsInSpace'>;
export type GitInfo = Answer<'getSpaceGitInfo'>;
export type GitJob = NonNullable<GitInfo['job']>;
export type Site = Answer<'getSiteById'>;
export type SiteVisibility = Site['visibility'];
export type SiteStructure = Answer<'getSiteStructure'>;
export type SiteSpace = Answer<'addSpaceToSite'>;
export type SiteSection = Answer<'addSectionToSite'>;
export type SiteSectionGroup = Answer<'addSectionGroupToSite'>;
export type ShareLink = Answer<'createSiteShareLink'>;
export type SiteCustomization = Answer<'getSiteCustomizationById'>;
export type SiteCustomizationUpdate = Body<'updateSiteCustomizationById'>;
export type SamlProvider = Answer<'getOrganizationSAMLProviderById'>;
export type OidcProvider = Answer<'getOrganizationOIDCProviderById'>;
export type TranslationSettings = Answer<'getTranslation'>;
export type Integration = Answer<'getIntegrationByName'>;
export type AuditEntry = Item<'listOrganizationAuditLog'>;
export type OpenApiSpec = Answer<'getOpenAPISpecBySlug'>;
export type OpenApiSpecVersion = Item<'listOpenAPISpecVersions'>;
export type OpenApiSpecContent = Answer<'getLatestOpenAPISpecVersionContent'>;
