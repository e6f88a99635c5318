import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { THEME_BOOT } from '../presenters/assets.ts';
import { messagePage } from '../presenters/views/layout.ts';

export const gzip = promisify(gzipCb);

/** Whether the client takes gzip (and has not refused it with q=0). */
export const takesGzip = (req: FastifyRequest) => {
  const accept = req.headers['accept-encoding'];
  return typeof accept === 'string' && accept.includes('gzip') && !/gzip;\s*q=0(?:[^.\d]|$)/.test(accept);
};

// Scripts: ours and the theme boot only; styles inline for KaTeX; nothing from content runs.
const CSP = `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update(THEME_BOOT).digest('base64')}'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'`;

/** A page of the reader, with the headers every page has. */
export const html = (reply: FastifyReply, status: number, body: string | Buffer) =>
  reply
    .code(status)
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .type('text/html; charset=utf-8')
    .send(body);

export const notFound = (reply: FastifyReply, message = 'There is no published site at this address.') =>
  html(reply, 404, messagePage({ status: 404, title: 'Not found', message }));
