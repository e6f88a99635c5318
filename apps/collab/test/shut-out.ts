import { expect } from 'vitest';
import type * as Y from 'yjs';
import type { AccessNotice } from '../src/access.ts';
import { until, type Member } from './harness.ts';

// Access taken away from open editors, as the access and revocation tests check it (the harness,
// which benchmarks import too, stays free of the test runner).

/** How soon an access change reaches the open editors it concerns. */
export const WITHIN_MS = 2000;
/** The text of a page's first paragraph, as the test pages have one. */
export const paragraph = (doc: Y.Doc) => (doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
/** The access notices a member was sent. */
export const notices = (m: Member) => m.notices.map((n) => JSON.parse(n) as AccessNotice);

/**
 * `member` is told `reason` and its connection closed within WITHIN_MS of `since`, leaving the
 * server's document `left` connections; what it types after is not applied, while `other`'s edit is.
 */
export async function expectShutOut(member: Member, reason: string, at: { server: { getConnectionsCount(): number } & Y.Doc; left: number; since: number }, other: Member) {
  await until(() => notices(member).length > 0, 'the notice', WITHIN_MS);
  expect(notices(member)).toEqual([{ access: 'none', reason }]);
  await until(() => at.server.getConnectionsCount() === at.left, 'the connection closed', WITHIN_MS - (Date.now() - at.since));
  paragraph(member.document).insert(0, 'gone ');
  paragraph(other.document).insert(0, 'kept ');
  await until(() => paragraph(at.server).toString().startsWith('kept'), "the other member's edit");
  expect(paragraph(at.server).toString()).toBe('kept Start.');
}
