import type { SiteData } from '../site-data.ts';
import type { SiteRoute } from '../visit.ts';
import { everyPage } from './llms.ts';

/** What search engines read: robots.txt, and the sitemap of a public site. */
export function crawlerRoutes(data: SiteData): Record<string, SiteRoute> {
  return {
    'robots.txt': async (v) =>
      v.reply
        .type('text/plain; charset=utf-8')
        .send(v.view.site!.visibility === 'public' ? `User-agent: *\nAllow: /\nSitemap: ${v.origin}${v.at.base}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n'),
    'sitemap.xml': async (v) => {
      const pages = v.view.site!.visibility === 'public' ? await everyPage(data, v) : [];
      const xmlEsc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return v.reply
        .type('application/xml; charset=utf-8')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages.map((p) => `<url><loc>${xmlEsc(p.url)}</loc></url>`).join('\n')}\n</urlset>\n`,
        );
    },
  };
}
