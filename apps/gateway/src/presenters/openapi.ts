import type { OpenApiSpec, OpenApiSpecVersion } from '@quire/proto/openapi';
import type { Urls } from './urls.ts';

const specPath = (s: { organizationId: string; slug: string }) => `/orgs/${encodeURIComponent(s.organizationId)}/openapi/${encodeURIComponent(s.slug)}`;

export function presentSpec(s: OpenApiSpec, urls: Urls) {
  return {
    object: 'openapi-spec' as const,
    id: s.id,
    createdAt: s.createdAt!.toISOString(),
    updatedAt: s.updatedAt!.toISOString(),
    slug: s.slug,
    ...(s.sourceUrl ? { sourceURL: s.sourceUrl } : {}),
    // Documents are checked when saved: a spec is complete once it has a version.
    processingState: s.lastVersionId ? ('complete' as const) : ('pending' as const),
    visibility: s.visibility as 'private' | 'public',
    ...(s.lastVersionId ? { lastVersion: s.lastVersionId } : {}),
    ...(s.lastProcessedAt ? { lastProcessedAt: s.lastProcessedAt.toISOString() } : {}),
    ...(s.lastProcessErrorCode ? { lastProcessErrorCode: s.lastProcessErrorCode as 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' } : {}),
    permissions: { view: true, edit: s.editable, delete: s.editable },
    urls: { location: urls.api(specPath(s)), app: urls.app(`/o/${encodeURIComponent(s.organizationId)}/openapi/${encodeURIComponent(s.slug)}`) },
  };
}

export function presentVersion(v: OpenApiSpecVersion, spec: { organizationId: string; slug: string }, urls: Urls) {
  const location = urls.api(`${specPath(spec)}/versions/${encodeURIComponent(v.id)}`);
  return { object: 'openapi-spec-version' as const, id: v.id, createdAt: v.createdAt!.toISOString(), url: v.sourceUrl || `${location}/content`, urls: { location } };
}
