import { parseSpec, SpecError, type Spec } from '@quire/render/openapi';
import { createHash } from 'node:crypto';
import type { OpenApiBlock } from '@quire/document/openapi';
import { OPENAPI_CONSOLE } from '@quire/proto/limits';
import type { File } from '@quire/proto/space-content';
import { fetchPublic } from '@quire/service-kit/outbound';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import { metrics } from '@quire/service-kit';
import type { Services } from '../clients.ts';
import { isNotFound, type SiteData } from './site-data.ts';

// Where the specs of a page's OpenAPI blocks come from, each parsed once: a file of the space (by
// its blob, content-addressed), a URL (fetched through the outbound filter, bounded; its text
// asked again after the freshness, parsed again only when it changed), or one of the
// organization's specs (its latest version, asked of content; parsed once per version).

/** Parsed specs kept: a large one is a few tens of MB in memory. */
const PARSED_KEPT = 32;
/** Files of a new revision read ahead as specs, at most. */
const WARMED_PER_REVISION = 8;
const SPEC_FILE = /\.(json|ya?ml)$/i;

// Once per process (tests build several readers in one).
const readAhead = new Counter({
  name: 'quire_reader_openapi_specs_read_ahead_total',
  help: 'Spec files of a revision read and parsed ahead of their pages, by outcome',
  labelNames: ['outcome'] as const,
  registers: [metrics],
});

export function openApiSpecs(services: Services, data: SiteData, freshnessMs: number, log: FastifyBaseLogger) {
  const ttl = Math.max(freshnessMs, 1);
  // Promises, so that a page's ten operations of one spec wait for one parse.
  const parsed = new LRUCache<string, Promise<Spec>>({ max: PARSED_KEPT });
  // A URL's text is kept for the freshness only (purged then): its parse is what stays.
  const urlTexts = new LRUCache<string, Promise<{ key: string; text: string }>>({ max: 16, ttl, ttlAutopurge: true });
  const versions = new LRUCache<string, Promise<{ id: string }>>({ max: 1000, ttl });

  function once<T extends object>(cache: LRUCache<string, Promise<T>>, key: string, run: () => Promise<T>): Promise<T> {
    let p = cache.get(key);
    if (!p) {
      p = run();
      cache.set(key, p);
      // A failure is not kept: the next page asks again.
      p.catch(() => cache.delete(key));
    }
    return p;
  }

  /** The text of a URL, kept for the freshness: its key is its digest. */
  const urlText = (url: string) =>
    once(urlTexts, url, async () => {
      const res = await fetchPublic(url, { maxBytes: OPENAPI_CONSOLE.specBytes.max, timeoutMs: OPENAPI_CONSOLE.timeoutMs.max }, { field: 'src' });
      if (res.status < 200 || res.status >= 300) throw new SpecError(`${url} answered ${res.status}`);
      const text = res.body.toString('utf8');
      return { key: `url:${createHash('sha256').update(text).digest('hex')}`, text };
    });

  /** The latest version of one of the organization's specs, kept for the freshness. */
  const latestVersion = (organizationId: string, slug: string, requestId: string) =>
    once(versions, `${organizationId}/${slug}`, async () => {
      try {
        return { id: (await services.content.getOpenApiSpecVersion({ spec: { organizationId, slug }, versionId: '' }, data.caller(requestId))).id };
      } catch (err) {
        if (isNotFound(err)) throw new SpecError(`the organization has no OpenAPI spec “${slug}”`);
        throw err;
      }
    });

  const fileSource = (file: File, requestId: string) => ({
    key: `blob:${file.blob}`,
    text: async () => {
      // Decoded where it lies: a copy of 5 MB first was a tenth of a cold page.
      const bytes = await data.blob(file.blob, requestId);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    },
  });

  /** What a block's spec is now, as a key of its parse: a file's blob, a URL's digest, a version's id; and how to read it. */
  async function sourceOf(block: OpenApiBlock, at: SpecPlace): Promise<{ key: string; text: () => Promise<string> }> {
    const ref = block.data.ref;
    if (ref.kind === 'openapi') {
      const { id } = await latestVersion(at.organizationId, ref.spec, at.requestId);
      const spec = { organizationId: at.organizationId, slug: ref.spec };
      return { key: `version:${id}`, text: async () => (await services.content.getOpenApiSpecVersionContent({ spec, versionId: id }, data.caller(at.requestId))).json };
    }
    if (ref.kind === 'url') {
      const got = await urlText(ref.url);
      return { key: got.key, text: async () => got.text };
    }
    const file = at.files.find((f) => f.id === ref.file);
    if (!file) throw new SpecError(`no file “${ref.file}” in this space`);
    return fileSource(file, at.requestId);
  }

  const parseOf = (source: { key: string; text: () => Promise<string> }) => once(parsed, source.key, async () => parseSpec(await source.text()));
  // Blobs already read ahead (a file that is no spec is not read again for it).
  const warmed = new LRUCache<string, true>({ max: 10_000 });

  return {
    sourceOf,
    /**
     * Reads ahead, in the background, the files of a revision first seen that may be specs (JSON or
     * YAML within the spec bound): a page of API operations is then drawn without waiting for them.
     */
    warm(files: readonly File[], requestId: string): void {
      const candidates = files.filter((f) => SPEC_FILE.test(f.name) && f.size <= OPENAPI_CONSOLE.specBytes.max && !warmed.has(f.blob)).slice(0, WARMED_PER_REVISION);
      for (const file of candidates) {
        warmed.set(file.blob, true);
        parseOf(fileSource(file, requestId)).then(
          () => {
            readAhead.inc({ outcome: 'spec' });
            log.info({ blob: file.blob, file: file.name, requestId }, 'OpenAPI spec read ahead');
          },
          () => readAhead.inc({ outcome: 'not_a_spec' }),
        );
      }
    },
    /** The spec a block names, or a SpecError (an InvalidArgumentError for a URL refused) saying why there is none. */
    async specOf(block: OpenApiBlock, at: SpecPlace): Promise<Spec> {
      return parseOf(await sourceOf(block, at));
    },
  };
}

/** Where a block is read: its space's files, its site's organization. */
export interface SpecPlace {
  files: readonly File[];
  organizationId: string;
  requestId: string;
}

export type OpenApiSpecs = ReturnType<typeof openApiSpecs>;
