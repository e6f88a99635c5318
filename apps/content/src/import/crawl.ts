// Fetches a website for import: the start page, then the same-origin pages it links to,
// breadth first, within the bounds (pages, bytes per page, time for the whole crawl). Every fetch
// goes through the outbound filter: private addresses are refused, after redirects too.
import { InvalidArgumentError } from '@quire/service-kit';
import { fetchPublic } from '@quire/service-kit/outbound';
import { pageKey, parsePage, type ParsedPage } from './convert.ts';

export interface CrawlLimits {
  maxPages: number;
  maxPageBytes: number;
  timeoutMs: number;
}

export interface CrawledPage extends ParsedPage {
  /** The page's key (its URL after redirects, without fragment). */
  key: string;
  /** The key and the keys it was asked for by (before redirects): what links to it use. */
  aliases: string[];
  url: URL;
}

export interface Crawl {
  pages: CrawledPage[];
  /** Pages fetched or tried, the imported ones included. */
  attempted: number;
}

const isHtml = (contentType: string) => /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType) || contentType === '';

/**
 * The pages of the site at `start`. The start page must load (its failure is the request's
 * error, naming `url`); a linked page that fails, is too large or is not HTML is skipped.
 */
export async function crawl(start: string, limits: CrawlLimits): Promise<Crawl> {
  const deadline = Date.now() + limits.timeoutMs;
  const fetchPage = async (href: string) => {
    const res = await fetchPublic(href, { maxBytes: limits.maxPageBytes, timeoutMs: Math.max(1, deadline - Date.now()) }, { field: 'url' });
    if (res.status < 200 || res.status >= 300) throw new InvalidArgumentError(`url: ${href} answered ${res.status}`);
    if (!isHtml(res.contentType)) throw new InvalidArgumentError(`url: ${href} is not an HTML page (${res.contentType})`);
    const url = new URL(res.url);
    const key = pageKey(url);
    return { key, aliases: [...new Set([key, pageKey(new URL(href))])], url, ...parsePage(res.body.toString('utf8'), url) };
  };

  const first = await fetchPage(start);
  const pages: CrawledPage[] = [first];
  const seen = new Set([pageKey(new URL(start)), first.key]);
  // The site is the start page's origin (after redirects); links are already same-origin to their page.
  const origin = first.url.origin;
  const queue = first.links.filter((l) => !seen.has(l));
  let attempted = 1;
  while (queue.length > 0 && attempted < limits.maxPages && Date.now() < deadline) {
    const href = queue.shift()!;
    if (seen.has(href)) continue;
    seen.add(href);
    attempted++;
    const page = await fetchPage(href).catch((err: unknown) => {
      if (err instanceof InvalidArgumentError) return undefined;
      throw err;
    });
    if (!page || page.url.origin !== origin) continue;
    // A redirect may land on a page already imported: links to either address lead to it.
    const same = pages.find((p) => p.key === page.key);
    if (same) {
      same.aliases.push(href);
      continue;
    }
    seen.add(page.key);
    pages.push(page);
    for (const l of page.links) if (!seen.has(l)) queue.push(l);
  }
  return { pages, attempted };
}
