import { COMMON } from '@quire/proto/limits';

/** The page of a change request that one Hocuspocus document edits. */
export interface PageName {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

const ID = new RegExp(`^[A-Za-z0-9_-]{${COMMON.id.min},${COMMON.id.max}}$`);

/** The document name of a page: `<space>/<change request id>/<page>`, as the web app opens it. */
export const documentName = (p: PageName) => `${p.spaceId}/${p.changeRequestId}/${p.pageId}`;

/** The page a document name names, or a refusal saying what is wrong with it. */
export function parseDocumentName(name: string): PageName | { refused: string } {
  const parts = name.split('/');
  if (parts.length !== 3 || !parts.every((p) => ID.test(p))) return { refused: `document name "${name.slice(0, 200)}": expected <space id>/<change request id>/<page id>` };
  const [spaceId, changeRequestId, pageId] = parts as [string, string, string];
  return { spaceId, changeRequestId, pageId };
}
