// The shapes of the API's answers the app reads (GitBook's objects; only the fields used).

export type Role = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

export interface User {
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export interface Organization {
  id: string;
  title: string;
  urls: { app: string; location: string };
  permissions?: { admin?: boolean; createContent?: boolean };
}

export interface Collection {
  id: string;
  title: string;
  organization: string;
  parent?: string;
  defaultLevel?: Role | 'inherit';
  permissions?: { view: boolean; admin: boolean; create: boolean };
  urls: { app: string; location: string };
}

export interface Space {
  id: string;
  title: string;
  emoji?: string;
  organization: string;
  parent?: string;
  visibility: string;
  defaultLevel?: Role | 'inherit';
  revision: string;
  deletedAt?: string;
  permissions: Record<string, boolean>;
  urls: { app: string; location: string; published?: string };
}

export interface RevisionPage {
  id: string;
  type: 'document' | 'group' | 'link' | 'computed';
  kind?: string;
  title: string;
  slug?: string;
  path: string;
  description?: string;
  emoji?: string;
  /** An icon's name (GitBook's icon set), shown where the emoji would be. */
  icon?: string;
  pages?: RevisionPage[];
  href?: string;
}

/** A revision without what the history leaves unread (its pages and files are there too). */
export interface Revision {
  id: string;
  type: 'edits' | 'merge' | 'update' | 'rollback' | 'computed';
  parents: string[];
  createdAt: string;
  git?: { oid: string; message?: string };
  mergedFrom?: ChangeRequest;
  urls: { app: string };
}

/** GitBook's RevisionSemanticChange (the fields the app reads). */
export interface SemanticChange {
  type: 'page_created' | 'page_edited' | 'page_deleted' | 'page_moved' | 'file_created' | 'file_edited' | 'file_deleted' | 'variables_edited';
  page?: { id: string; title: string; path?: string };
  parent?: { before?: { title: string }; after?: { title: string } };
  file?: { name: string };
  attributes?: Record<string, unknown>;
}

export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size?: number;
}

export interface ChangeRequest {
  id: string;
  number: number;
  subject?: string;
  status: string;
  outdated?: boolean;
  revision: string;
  revisionInitial?: string;
  revisionMerged?: string;
  createdBy: User;
  createdAt: string;
  updatedAt?: string;
  comments?: number;
  urls: { app: string; location: string };
}

export interface Reaction {
  emoji: string;
  count: number;
  users: { user: User }[];
}

export interface Comment {
  id: string;
  body: { markdown?: string };
  postedBy: User;
  postedAt: string;
  /** Replies have none. */
  replies?: number;
  reactions: Reaction[];
  status?: string;
  target?: { page?: { id: string; title: string; outdated?: boolean } };
}

export interface RequestedReviewer {
  user: User;
  requestedBy: User;
  createdAt: string;
}

export interface Member {
  id: string;
  role: Role | null;
  user: User;
  disabled?: boolean;
  joinedAt?: string;
}

export interface Team {
  id: string;
  title: string;
  members: number;
  spaces: number;
}

export interface Token {
  id: string;
  label: string;
  scope?: string;
  createdAt?: string;
  expiresAt?: string;
  token?: string;
}
