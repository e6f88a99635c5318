import type { SiteVisibility } from './fields.ts';

// Sites belong to their organization: which members read and change them is @quire/policy's
// `site` table. Visitors (anyone, members or not) reach a published site as its visibility allows.

/** What a visitor of a published site gets: in, or what is missing (an active share key, a valid visitor token). */
export type VisitorAccess = 'granted' | 'share-key' | 'visitor-token';

/**
 * The visitor's access to a published site: public and unlisted ones are open, a share-link one
 * needs an active link's key, a visitor-auth one a token signed with its visitor key.
 */
export function visitorAccess(visibility: string, proof: { activeShareKey: boolean; validToken: boolean }): VisitorAccess {
  switch (visibility as SiteVisibility) {
    case 'public':
    case 'unlisted':
      return 'granted';
    case 'share-link':
      return proof.activeShareKey ? 'granted' : 'share-key';
    case 'visitor-auth':
      return proof.validToken ? 'granted' : 'visitor-token';
  }
  // An unknown visibility lets nobody in.
  return 'share-key';
}

/** Whether a visitor without a token reaches the site (the API's published view). */
export function visitorMayView(site: { published: boolean; visibility: string }, activeShareKey: boolean): boolean {
  return site.published && visitorAccess(site.visibility, { activeShareKey, validToken: false }) === 'granted';
}
