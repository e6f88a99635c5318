/**
 * The name of the browser's sign-in session cookie on an origin: `__Host-` prefixed behind HTTPS
 * (bound to that exact origin, Secure, path `/`). The gateway sets it; the reader, answering on
 * the gateway's origin, reads the same one so members read private sites with their session.
 */
export const sessionCookieName = (publicUrl: string): string => (new URL(publicUrl).protocol === 'https:' ? '__Host-quire_session' : 'quire_session');
