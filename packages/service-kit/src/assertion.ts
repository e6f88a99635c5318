import { Metadata, ServerInterceptingCall, type ServerInterceptor } from '@grpc/grpc-js';
import { errors as joseErrors, importPKCS8, importSPKI, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { authorizeCaller, isServiceName, type Principal, type ServiceName } from './callers.js';
import { CLIENT_IP_KEY, REQUEST_ID_KEY, USER_AGENT_KEY, type Caller } from './context.js';
import { DomainError, toServiceError, UnauthenticatedError } from './errors.js';
import { loadServiceKeys, type ServiceKeys } from './identity.js';

export const ASSERTION_KEY = 'authorization';
/** An assertion lives this long by default; the signer renews it past half of that. */
const TTL_SECONDS = 60;
/** Refused whatever its signature: no honest signer makes longer-lived assertions. */
const MAX_LIFETIME_SECONDS = 300;
/** Hosts' clocks may differ this much. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** gateway → review → content → orgs is the longest chain there is. */
const MAX_CHAIN = 5;
const CACHE_SIZE = 10_000;
const GRANT_TYPE = 'quire-grant+jwt';
/** The grants there are: the gateway's pass for a member to a private site on its custom hostname (claim `site`). */
export const GRANTS = { siteMember: 'site-member' } as const;
/** How long a member's pass to a private site lasts; then the reader sends the member through the gateway again. */
export const SITE_MEMBER_GRANT_SECONDS = 600;
/** Grants are passes for a moment (a redirect and the visit after it), never sessions. */
const MAX_GRANT_SECONDS = 3600;

/** RFC 8693 actor claim: the acting service, nesting the services it acts behind. */
interface Act {
  sub: string;
  act?: Act;
}

export interface IdentityOptions {
  ttlSeconds?: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/**
 * A service identity at work: signs the short-lived assertions of its outgoing calls (EdDSA JWTs:
 * `iss` this service, `aud` the callee, `sub` the user, `act` the chain of services) and verifies
 * the incoming ones against its trusted keys and the callers table. Both sides cache: a signed
 * assertion is reused per (audience, user, chain) until half its life is gone, a verified one is
 * remembered until it expires, so the steady-state cost of a call is two map lookups.
 */
export class ServiceIdentity {
  readonly name: ServiceName;
  // WebCrypto keys, imported once: jose converts a KeyObject on every use, ten times the cost of a signature.
  readonly #signingKey: Promise<CryptoKey>;
  readonly #trusted: ReadonlyMap<ServiceName, Promise<CryptoKey>>;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #signed = new LRUCache<string, { token: Promise<string>; renewAt: number }>({ max: CACHE_SIZE });
  readonly #verified = new LRUCache<string, { principal: Principal; expiresAt: number }>({ max: CACHE_SIZE });

  constructor(keys: ServiceKeys, options: IdentityOptions = {}) {
    this.name = keys.name;
    this.#signingKey = importPKCS8(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'EdDSA');
    this.#trusted = new Map([...keys.trust].map(([name, key]) => [name, importSPKI(key.export({ type: 'spki', format: 'pem' }).toString(), 'EdDSA')]));
    this.#ttl = Math.min(options.ttlSeconds ?? TTL_SECONDS, MAX_LIFETIME_SECONDS);
    this.#now = options.now ?? Date.now;
  }

  /** The assertion for a call to `audience` on behalf of `caller`: cached, renewed past half its life. */
  sign(audience: ServiceName, caller: Caller): Promise<string> {
    const chain = [...(caller.chain ?? []), this.name];
    const key = `${audience}\n${caller.userId ?? ''}\n${chain.join(' ')}`;
    const now = this.#now();
    const hit = this.#signed.get(key);
    if (hit && hit.renewAt > now) return hit.token;
    if (chain.length > MAX_CHAIN) return Promise.reject(new Error(`call chain too long: ${chain.join(' → ')}`));
    const iat = Math.floor(now / 1000);
    const act = chain.reduce<Act | undefined>((inner, sub) => (inner ? { sub, act: inner } : { sub }), undefined);
    const jwt = new SignJWT({ act })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.name })
      .setIssuer(this.name)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.#ttl);
    if (caller.userId) jwt.setSubject(caller.userId);
    const token = this.#signingKey.then((key) => jwt.sign(key));
    this.#signed.set(key, { token, renewAt: now + (this.#ttl * 1000) / 2 });
    token.catch(() => this.#signed.delete(key));
    return token;
  }

  /**
   * A short-lived grant this service hands a browser for another service to honour (a member's
   * pass to a private site on its custom hostname): EdDSA like an assertion, but typed
   * `quire-grant+jwt` with the audience `grant:<purpose>`, which no service is, so it can never
   * pass as an assertion (nor an assertion as a grant) even though it travels in a URL.
   */
  signGrant(purpose: string, subject: string, claims: Record<string, string>, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(this.#now() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: this.name, typ: GRANT_TYPE })
      .setIssuer(this.name)
      .setAudience(`grant:${purpose}`)
      .setSubject(subject)
      .setIssuedAt(iat)
      .setExpirationTime(iat + Math.min(ttlSeconds, MAX_GRANT_SECONDS));
    return this.#signingKey.then((key) => jwt.sign(key));
  }

  /** The claims of a grant for `purpose` signed by `issuer`; UNAUTHENTICATED when it is not one, is another's or has expired. */
  async verifyGrant(token: string, purpose: string, issuer: ServiceName): Promise<JWTPayload & { sub: string }> {
    const key = this.#trusted.get(issuer);
    if (!key) throw new UnauthenticatedError(`No key of the ${issuer} service is trusted`);
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ['EdDSA'],
        typ: GRANT_TYPE,
        issuer,
        audience: `grant:${purpose}`,
        maxTokenAge: MAX_GRANT_SECONDS + CLOCK_TOLERANCE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.#now()),
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      return payload as JWTPayload & { sub: string };
    } catch (err) {
      throw new UnauthenticatedError(`The grant is not valid (${err instanceof joseErrors.JOSEError ? err.code : 'malformed'})`);
    }
  }

  /** Metadata of a call to `audience`: the assertion and the request id. */
  async metadata(audience: ServiceName, caller: Caller): Promise<Metadata> {
    const md = new Metadata();
    md.set(ASSERTION_KEY, `Bearer ${await this.sign(audience, caller)}`);
    if (caller.requestId) md.set(REQUEST_ID_KEY, caller.requestId);
    if (caller.ip) md.set(CLIENT_IP_KEY, caller.ip);
    // Bounded: metadata is a header, and a user agent is free text.
    if (caller.userAgent) md.set(USER_AGENT_KEY, caller.userAgent.slice(0, 512));
    return md;
  }

  /** Who the assertion says calls, once its signature, audience, lifetime and chain are checked against the callers table. */
  async verify(token: string): Promise<Principal> {
    const now = this.#now();
    const hit = this.#verified.get(token);
    if (hit && hit.expiresAt > now) return hit.principal;
    let payload: JWTPayload;
    let kid: string | undefined;
    try {
      ({
        payload,
        protectedHeader: { kid },
      } = await jwtVerify(
        token,
        (header) => {
          const key = isServiceName(header.kid) ? this.#trusted.get(header.kid) : undefined;
          if (!key) throw new UnauthenticatedError(`The service assertion is signed by an unknown service`);
          return key;
        },
        { algorithms: ['EdDSA'], audience: this.name, clockTolerance: CLOCK_TOLERANCE_SECONDS, currentDate: new Date(now), requiredClaims: ['iss', 'iat', 'exp'] },
      ));
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new UnauthenticatedError(`The service assertion is not valid (${err instanceof joseErrors.JOSEError ? err.code : 'malformed'})`);
    }
    if (payload.iss !== kid) throw new UnauthenticatedError('The service assertion is not valid (iss)');
    const principal = principalOf(payload);
    authorizeCaller(principal, this.name);
    this.#verified.set(token, { principal, expiresAt: payload.exp! * 1000 });
    return principal;
  }

  /** Verifies the assertion a call's metadata carries and remembers its caller for `verifiedCaller`. */
  async authenticate(metadata: Metadata): Promise<Principal> {
    const header = metadata.get(ASSERTION_KEY)[0];
    if (typeof header !== 'string' || !header.startsWith('Bearer ')) throw new UnauthenticatedError('The call carries no service assertion');
    const principal = await this.verify(header.slice(7));
    principals.set(metadata, principal);
    return principal;
  }

  /**
   * The server side: every call but health checks must carry a valid assertion for this service,
   * or it is answered (UNAUTHENTICATED, PERMISSION_DENIED) before any handler runs. The verified
   * caller is kept for `implement` to read; nothing else in the metadata says who calls.
   */
  interceptor(): ServerInterceptor {
    return (method, call) =>
      new ServerInterceptingCall(call, {
        start: (next) =>
          next({
            onReceiveMetadata: (metadata, pass) => {
              if (method.path.startsWith('/grpc.health.v1.Health/')) return pass(metadata);
              this.authenticate(metadata).then(
                () => pass(metadata),
                (err: unknown) => {
                  const { code, details, metadata: trailers } = toServiceError(err);
                  call.sendStatus({ code: code!, details: details!, metadata: trailers ?? new Metadata() });
                },
              );
            },
          }),
      });
  }
}

/** The verified caller of a call's metadata, set by the identity's interceptor; absent when none ran. */
const principals = new WeakMap<Metadata, Principal>();
export const verifiedCaller = (metadata: Metadata): Principal | undefined => principals.get(metadata);

function principalOf(payload: JWTPayload): Principal {
  const invalid = (why: string) => new UnauthenticatedError(`The service assertion is not valid (${why})`);
  if (payload.exp! - payload.iat! > MAX_LIFETIME_SECONDS) throw invalid('lives too long');
  if (payload.sub !== undefined && (typeof payload.sub !== 'string' || payload.sub === '')) throw invalid('sub');
  const chain: ServiceName[] = [];
  for (let act = payload.act as Act | undefined; act !== undefined; act = act.act) {
    if (typeof act !== 'object' || act === null || !isServiceName(act.sub) || chain.length === MAX_CHAIN) throw invalid('act');
    chain.unshift(act.sub);
  }
  if (chain.at(-1) !== payload.iss) throw invalid('act does not name the issuer');
  return { ...(payload.sub ? { userId: payload.sub } : {}), chain };
}

/** The identity app `name` runs as, from its settings (`serviceIdentityFields`); a ConfigError names what is missing or wrong. */
export const loadServiceIdentity = (name: ServiceName, settings: Parameters<typeof loadServiceKeys>[1]) => new ServiceIdentity(loadServiceKeys(name, settings));
