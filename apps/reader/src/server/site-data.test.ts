import { describe, expect, it } from 'vitest';
import type { Revision } from '@quire/proto/space-content';
import type { Services } from '../clients.ts';
import { siteData } from './site-data.ts';

describe('siteData.includes', () => {
  it('asks content for a page with many includes a few at a time', async () => {
    let inFlight = 0;
    let most = 0;
    // Only the one call `includes` makes, answered after a pause so that calls overlap.
    const services = {
      spaceContent: {
        getReusableContent: async ({ reusableContentId }: { reusableContentId: string }) => {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, 5));
          inFlight--;
          return { markdown: `Text of ${reusableContentId}.` };
        },
      },
    } as unknown as Services;
    const ids = Array.from({ length: 40 }, (_, i) => `rc${i}`);
    const revision = { id: 'r1', reusableContents: ids.map((id) => ({ id, documentId: `d-${id}` })) } as unknown as Revision;
    const texts = await siteData(services, 1000).includes('s1', revision, ids, 'req');
    expect(texts.size).toBe(40);
    expect(texts.get('rc7')).toBe('Text of rc7.');
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });
});
