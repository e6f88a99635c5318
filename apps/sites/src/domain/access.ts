import { Role, roleAtLeast } from '@quire/service-kit';
import type { SiteVisibility } from './fields.ts';

// Sites belong to their organization: members with a role read them, `create` and `admin` change
// them; guests and outsiders see none of them. Visitors (anyone, members or not) reach a
// published site as its visibility allows.

export const canRead = (orgRole: Role) => roleAtLeast(orgRole, Role.ROLE_READ);
export const canEdit = (orgRole: Role) => roleAtLeast(orgRole, Role.ROLE_CREATE);

/**
 * Whether a visitor reaches the site: published, and public or unlisted, or shared by link with
 * an active link's key. Visitor authentication (JWT) is not offered, so `visitor-auth` sites are
 * their members' only.
 */
export function visitorMayView(site: { published: boolean; visibility: string }, activeShareKey: boolean): boolean {
  if (!site.published) return false;
  const visibility = site.visibility as SiteVisibility;
  return visibility === 'public' || visibility === 'unlisted' || (visibility === 'share-link' && activeShareKey);
}
