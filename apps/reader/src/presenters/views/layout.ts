import { MCP_PATH } from '../../domain/address.ts';
import { accentStyle, type Look } from '../../domain/look.ts';
import { ASSETS, THEME_BOOT } from '../assets.ts';
import { attr, esc } from './html.ts';

export interface Meta {
  title: string;
  siteTitle: string;
  description?: string;
  canonical?: string;
  noindex: boolean;
  /** The site's base path, for the script (search). */
  base: string;
  /** The site's customization: default theme and accent (the reader's own without it). */
  look?: Look;
}

/** The document around every page the reader answers: metadata, theme boot, assets. */
export function documentShell(meta: Meta, body: string): string {
  const fullTitle = meta.title === meta.siteTitle ? meta.title : `${meta.title} | ${meta.siteTitle}`;
  const description = meta.description ? `<meta name="description" content="${esc(meta.description)}">` : '';
  const social = [
    ['og:type', 'website'],
    ['og:title', fullTitle],
    ['og:site_name', meta.siteTitle],
    ...(meta.description ? [['og:description', meta.description]] : []),
    ...(meta.canonical ? [['og:url', meta.canonical]] : []),
  ]
    .map(([p, c]) => `<meta property="${p}" content="${esc(c)}">`)
    .join('');
  const twitter = `<meta name="twitter:card" content="summary"><meta name="twitter:title" content="${esc(fullTitle)}">${meta.description ? `<meta name="twitter:description" content="${esc(meta.description)}">` : ''}`;
  const style = meta.look ? accentStyle(meta.look) : '';
  return `<!doctype html><html lang="en" data-theme="${meta.look?.defaultTheme ?? 'system'}"${attr('data-theme-fixed', meta.look?.toggle === false)}${attr('data-base', meta.base)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(fullTitle)}</title>${description}${meta.canonical ? `<link rel="canonical" href="${esc(meta.canonical)}">` : ''}${meta.canonical ? `<link rel="mcp" href="${esc(meta.base)}/${MCP_PATH}">` : ''}${meta.noindex ? '<meta name="robots" content="noindex">' : ''}${social}${twitter}<script>${THEME_BOOT}</script><link rel="stylesheet" href="${ASSETS.css.path}">${style ? `<style>${style}</style>` : ''}<script defer src="${ASSETS.js.path}"></script></head><body>${body}</body></html>`;
}

/** A refusal or a missing page: a clear page with what happened and what to do. */
export function messagePage(opts: { status: number; title: string; message: string; siteTitle?: string; home?: string; memberSignIn?: string }): string {
  const member = opts.memberSignIn ? `<p class="member">Member of the organization? <a href="${esc(opts.memberSignIn)}">Continue with your Quire account</a></p>` : '';
  const body = `<main id="content" class="refusal"><p class="code">Error ${opts.status}</p><h1>${esc(opts.title)}</h1><p>${esc(opts.message)}</p>${member}${opts.home ? `<p><a href="${esc(opts.home)}">Go to the home page</a></p>` : ''}</main>`;
  return documentShell({ title: opts.title, siteTitle: opts.siteTitle ?? 'Quire', noindex: true, base: '' }, body);
}
