// What the reader answers a visitor whom the sites service did not let in (the one policy table
// of the reader): a share-link site without an active link's key, a visitor-auth site without a
// valid token. Keys and tokens arrive in the query once and are then kept in cookies scoped to
// the site's path; the cookie is sent to sites on every request, so a deactivated link or a
// regenerated key stops working at the next page.

export const SHARE_COOKIE = 'quire_share';
export const TOKEN_COOKIE = 'quire_visitor';
export const SHARE_PARAM = 'shareKey';
export const TOKEN_PARAM = 'jwt_token';
/** The gateway's grant for a member (`/auth/site-access`), kept in MEMBER_COOKIE as long as it lasts. */
export const MEMBER_PARAM = 'quire_member';
export const MEMBER_COOKIE = 'quire_member';

export type Refusal = { kind: 'page'; status: 401 | 403; title: string; message: string; memberSignIn?: string } | { kind: 'redirect'; location: string };

export interface Attempt {
  access: string;
  /** A key or token was offered (in the query or a cookie). */
  offered: boolean;
  fallbackUrl?: string;
  /** The URL the visitor asked for, to come back to after signing in. */
  here: string;
  /** Where members of the organization get their pass (the gateway's site access), to offer on refusal pages. */
  memberSignIn?: string;
}

/** The answer to a refused visitor, or null when `access` is `granted`; refusal pages offer members their way in. */
export function refusal(a: Attempt): Refusal | null {
  const r = visitorRefusal(a);
  return r?.kind === 'page' && a.memberSignIn ? { ...r, memberSignIn: a.memberSignIn } : r;
}

function visitorRefusal(a: Attempt): Refusal | null {
  switch (a.access) {
    case 'granted':
      return null;
    case 'share-key':
      return a.offered
        ? {
            kind: 'page',
            status: 403,
            title: 'This link no longer works',
            message: 'The share link you used has been deactivated or is not valid. Ask whoever shared it for a new one.',
          }
        : { kind: 'page', status: 401, title: 'This site is shared by link', message: 'Open it with the share link you were given.' };
    case 'visitor-token': {
      if (a.fallbackUrl) {
        const to = new URL(a.fallbackUrl);
        to.searchParams.set('location', a.here);
        return { kind: 'redirect', location: to.toString() };
      }
      return a.offered
        ? { kind: 'page', status: 403, title: 'Your access has expired', message: 'The sign-in token is not valid for this site any more. Sign in again where you came from.' }
        : { kind: 'page', status: 401, title: 'Sign in to read this site', message: 'This site is for signed-in visitors. Sign in where you were given access.' };
    }
    default:
      return { kind: 'page', status: 403, title: 'Not available', message: 'This site cannot be read here.' };
  }
}
