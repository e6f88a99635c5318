/**
 * The headers every HTTP answer of the gateway and the reader carries: no content sniffing, no
 * framing by other sites, no referrer leaking ids to other sites, and HSTS on answers over HTTPS
 * (HTTP answers cannot set it). A header the route set itself is kept.
 */
export function securityHeaders(https: boolean, framing: 'DENY' | 'SAMEORIGIN'): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': framing,
    'referrer-policy': 'no-referrer',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
