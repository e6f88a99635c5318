import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info', options: LoggerOptions = {}): Logger {
  return pino({
    level,
    base: { service },
    // Credentials never reach the log, whatever carries them.
    redact: { paths: ['req.headers.authorization', 'token', '*.token', 'url.password'], censor: '[redacted]' },
    ...options,
  });
}
