// The shapes of the API's answers the admin and publishing views read (only the fields used).
import type { Role, Space, Team, User } from './types.ts';

export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface UserPermission {
  permission: Role;
  user: User;
}

export interface GitJob {
  id: string;
  direction: 'import' | 'export';
  state: 'queued' | 'running' | 'done' | 'failed';
  error?: string;
  revision?: string;
  commit?: string;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  filesDone?: number;
  filesTotal?: number;
}

export interface GitInfo {
  repoName: string;
  installationProvider?: string;
  integration: string;
  url: string;
  updatedAt: string;
  job?: GitJob;
}

export interface Site {
  id: string;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  siteSpaces: number;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  urls: { app: string; location: string; published?: string };
}

export interface SiteSpace {
  object: 'site-space';
  id: string;
  path: string;
  title: string;
  default: boolean;
  section?: string;
  condition?: string;
  space?: Space;
  urls: { published?: string };
}

export interface SiteSection {
  object: 'site-section';
  id: string;
  title: string;
  path: string;
  default: boolean;
  sectionGroup?: string;
  condition?: string;
  siteSpaces: SiteSpace[];
}

export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: SiteSection[];
}

export type SiteStructure = { type: 'sections'; structure: (SiteSection | SiteSectionGroup)[] } | { type: 'siteSpaces'; structure: SiteSpace[] };

export interface ShareLink {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  urls: { published: string };
}

export interface ThemedColor {
  light: string;
  dark: string;
}

/** Only the settings the customization view changes; the rest is sent back as read. */
export interface SiteCustomization {
  title?: string;
  styling: { theme: 'clean' | 'muted' | 'bold' | 'gradient'; primaryColor: ThemedColor } & Record<string, unknown>;
  themes: { default: 'light' | 'dark'; toggeable: boolean };
}

export interface SamlProvider {
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  defaultRole: Role | null;
  defaultTeam?: Team;
  status: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

export interface OidcProvider {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  defaultRole: Role | null;
  defaultTeam?: Team;
  service: { redirectURL: string; startURL: string };
}

export interface TranslationSettings {
  id: string;
  title: string;
  languages: string[];
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
}

export interface Integration {
  name: string;
  title: string;
  description: string;
  categories: string[];
  scopes: string[];
  verified?: boolean;
  owner?: { id: string; title: string };
}

export interface AuditEntry {
  id: string;
  createdAt: string;
  actor: string | null;
  action: string;
  target: { type: string; id: string } | null;
  ip: string | null;
  details: Record<string, unknown>;
}
