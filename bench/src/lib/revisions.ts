import type { ContentHarness } from '@quire/content/testing';

/**
 * A revision's pages and files as GetRevision answers them (no markdown, no git metadata): what a
 * bench reads back after seeding a space, CreateRevision answering only the revision's header.
 */
export const readRevision = (content: ContentHarness, spaceId: string, revisionId: string, userId: string) =>
  content.callContent(content.spaceContent.getRevision, { spaceId, revisionId, metadata: false, withMarkdown: false, withDocuments: false }, userId);
