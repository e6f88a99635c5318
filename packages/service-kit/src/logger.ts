import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Query parameters that are credentials: a signed link's signature, a visitor token, a share key,
 * an OAuth code and state, a SAML response, a token. Their values never reach the log.
 */
const SECRET_PARAMS = new Set(['sig', 'jwt_token', 'sharekey', 'token', 'code', 'state', 'samlresponse', 'relaystate', 'access_token', 'id_token']);

/** `url` with the values of credential parameters replaced; the rest kept to tell requests apart. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let key = name;
      try {
        key = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is kept as sent; it is no known parameter anyway.
      }
      return eq >= 0 && SECRET_PARAMS.has(key.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The one redaction of every process's log (services, gateway, reader): credential headers and
 * fields, and credential query parameters of logged request URLs (Fastify's request serializer,
 * replaced so its `url` is redacted).
 */
export const logRedaction: Pick<LoggerOptions, 'redact' | 'serializers'> = {
  redact: {
    paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'req.headers["x-quire-assertion"]', 'token', '*.token', 'url.password'],
    censor: '[redacted]',
  },
  serializers: {
    req: (req: LoggedRequest) => ({
      method: req.method,
      url: req.url === undefined ? undefined : redactUrl(req.url),
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  },
};

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info', options: LoggerOptions = {}): Logger {
  return pino({ level, base: { service }, ...logRedaction, ...options });
}
