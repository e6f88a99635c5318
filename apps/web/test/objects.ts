import type { RevisionFile, RevisionPage } from '../src/types.ts';

// The API's objects as it answers them, whole, for the tests to change only what they are about.

export const pageAnswer = ({ id, ...fields }: Partial<RevisionPage> & { id: string }): RevisionPage => ({
  id,
  title: id,
  type: 'document',
  kind: 'sheet',
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
  urls: { app: `http://app.test/p/${id}` },
  slug: id,
  path: id,
  pages: [],
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  ...fields,
});

export const fileAnswer = ({ id, ...fields }: Partial<RevisionFile> & { id: string }): RevisionFile => ({
  id,
  name: id,
  contentType: 'image/png',
  downloadURL: `http://app.test/files/${id}`,
  size: 1,
  ...fields,
});
