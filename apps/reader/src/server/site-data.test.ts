import { describe, expect, it, onTestFinished, vi } from 'vitest';
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

describe("siteData's answers kept by revision", () => {
  /** Content answering searches and markdown, counting what it was asked; `complete` says whether every page is indexed. */
  function content(state: { complete: boolean }) {
    const asked = { searches: 0, pages: 0 };
    const services = {
      spaceContent: {
        searchSpace: async ({ query }: { query: string }) => {
          asked.searches++;
          return { items: [{ spaceId: 's1', pageId: 'p1', title: query, path: 'p1', sections: [] }], complete: state.complete };
        },
        getPage: async ({ revisionId, pageId }: { revisionId: string; pageId: string }) => {
          asked.pages++;
          return { markdown: `Text of ${pageId} in ${revisionId}.` };
        },
      },
    } as unknown as Services;
    return { asked, data: siteData(services, 1000) };
  }

  it("keeps a query's answer once content says every page is indexed, and asks again for a new revision", async () => {
    const state = { complete: false };
    const { asked, data } = content(state);
    // While a large revision is being indexed, a query may yet find more: asked every time.
    await data.search('s1', 'r1', 'install', 'req');
    await data.search('s1', 'r1', 'install', 'req');
    expect(asked.searches).toBe(2);
    state.complete = true;
    expect((await data.search('s1', 'r1', 'install', 'req'))[0]!.title).toBe('install');
    await data.search('s1', 'r1', 'install', 'req');
    expect(asked.searches).toBe(3);
    await data.search('s1', 'r1', 'deploy', 'req');
    await data.search('s1', 'r2', 'install', 'req');
    expect(asked.searches).toBe(5);
  });

  it("keeps a page's markdown by revision", async () => {
    const { asked, data } = content({ complete: true });
    expect(await Promise.all([data.markdown('s1', 'r1', 'p1', 'a'), data.markdown('s1', 'r1', 'p1', 'b')])).toEqual(['Text of p1 in r1.', 'Text of p1 in r1.']);
    await data.markdown('s1', 'r1', 'p1', 'c');
    expect(asked.pages).toBe(1);
    expect(await data.markdown('s1', 'r2', 'p1', 'd')).toBe('Text of p1 in r2.');
    expect(asked.pages).toBe(2);
  });
});

describe("siteData's revision ids, asked again in the background", () => {
  it('answers from the kept id at once while content is asked anew, and waits only once it is twice the freshness old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
    // Content's active revision of the space; `held` keeps its answers waiting until released, `failing` makes them fail.
    const space = { head: 'r1', asked: 0, held: false, failing: false, release: () => {} };
    const services = {
      content: {
        getSpace: async () => {
          space.asked++;
          if (space.held) await new Promise<void>((r) => (space.release = r));
          if (space.failing) throw new Error('content is down');
          return { revisionId: space.head };
        },
      },
      spaceContent: { getRevision: async ({ revisionId }: { revisionId: string }) => ({ id: revisionId, pages: [], files: [], reusableContents: [] }) },
    } as unknown as Services;
    const data = siteData(services, 1000);
    const head = async () => (await data.revision('s1', 'req')).id;

    expect(await head()).toBe('r1');
    later(999);
    expect(await head()).toBe('r1');
    expect(space.asked).toBe(1);

    // Published anew, and content slow to say so: past the freshness, no request waits for it.
    Object.assign(space, { head: 'r2', held: true });
    later(2);
    expect([await head(), await head()]).toEqual(['r1', 'r1']);
    expect(space.asked).toBe(2);
    space.release();
    await vi.waitFor(async () => expect(await head()).toBe('r2'));
    expect(space.asked).toBe(2);

    // A refresh that fails keeps the id kept, and the next request past the freshness asks again.
    Object.assign(space, { head: 'r3', held: false, failing: true });
    later(1001);
    expect(await head()).toBe('r2');
    await vi.waitFor(() => expect(space.asked).toBe(3));
    space.failing = false;
    expect(await head()).toBe('r2');
    await vi.waitFor(async () => expect(await head()).toBe('r3'));

    // An idle site's first request past twice the freshness waits for content's answer.
    space.head = 'r4';
    later(2000);
    expect(await head()).toBe('r4');
    expect(space.asked).toBe(5);
  });
});
