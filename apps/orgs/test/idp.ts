import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import Provider from 'oidc-provider';
import { SignedXml } from 'xml-crypto';

// Real identity providers for the SSO tests, on loopback: an OpenID provider (oidc-provider) and
// a SAML identity provider with its own key and certificate that signs responses (xml-crypto).

export interface OidcAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

/**
 * oidc-provider with one confidential client. Its login and consent are answered at once for the
 * account named by `signInAs`, as if that person had typed their password and agreed. It listens
 * on `host` (a private host the services are allowed to reach).
 */
export async function startOidcProvider(redirectUri: string, host = '127.0.0.1') {
  const accounts = new Map<string, OidcAccount>();
  let current: string | undefined;
  const clientId = `quire-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (!current) throw new Error('signInAs first');
      const grant = new provider.Grant({ accountId: current, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: current }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    /** The account the next authorization request signs in. */
    signInAs(account: OidcAccount) {
      current = `acct-${randomBytes(4).toString('hex')}`;
      accounts.set(current, account);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser's way through redirects: a cookie jar (by name, like a browser on one host, whatever
 * the port) and manual redirects until `stop` says the next address is for the caller.
 */
export function browser() {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function request(url: string, init: RequestInit = {}) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  return {
    jar,
    request,
    /** Follows redirects from `url`; answers the address `stop` accepts, or the last response. */
    async follow(url: string, stop: (next: URL) => boolean = () => false): Promise<{ stoppedAt?: URL; response: Response }> {
      let current = url;
      for (let hops = 0; hops < 20; hops++) {
        const response = await request(current);
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !location) return { response };
        await response.arrayBuffer();
        const next = new URL(location, current);
        if (stop(next)) return { stoppedAt: next, response };
        current = next.href;
      }
      throw new Error(`too many redirects from ${url}`);
    },
  };
}

/** A fresh RSA key and self-signed certificate (openssl CLI), PEM. */
export function keyAndCertificate(commonName = 'Test IdP') {
  const out = execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '-', '-subj', `/CN=${commonName}`, '-days', '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pem = (label: string) => new RegExp(`-----BEGIN ${label}-----[^-]+-----END ${label}-----\n`).exec(out)![0];
  return { key: pem('PRIVATE KEY'), certificate: pem('CERTIFICATE') };
}

export interface SamlAssertionOptions {
  email: string;
  /** The AuthnRequest answered (its ID); from the redirect the sign-in started with. */
  inResponseTo: string;
  audience: string;
  recipient: string;
  /** Defaults: valid from a minute ago for five minutes. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** Unsigned responses are refused; tests make one with false. */
  sign?: boolean;
  /** Signs with this key instead of the provider's (a forger without the provider's key). */
  signingKey?: { key: string; certificate: string };
  name?: string;
}

/** The SAML identity provider: its entity id, single sign-on URL, certificate, and signed responses. */
export function samlIdentityProvider() {
  const { key, certificate } = keyAndCertificate();
  const entityId = `https://idp-${randomBytes(4).toString('hex')}.example.test/metadata`;
  const ssoUrl = 'https://idp.example.test/sso';

  function response(o: SamlAssertionOptions): string {
    const now = new Date();
    const notBefore = (o.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
    const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const issued = now.toISOString();
    const assertionId = o.assertionId ?? `_a${randomBytes(12).toString('hex')}`;
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued}">` +
      `<saml:Issuer>${entityId}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${o.recipient}" InResponseTo="${o.inResponseTo}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_s${randomBytes(6).toString('hex')}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${o.name ?? 'SAML Person'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
      `</saml:Assertion>`;
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${randomBytes(12).toString('hex')}" Version="2.0" ` +
      `IssueInstant="${issued}" Destination="${o.recipient}" InResponseTo="${o.inResponseTo}">` +
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    if (o.sign === false) return Buffer.from(xml).toString('base64');
    const signer = o.signingKey ?? { key, certificate };
    const sig = new SignedXml({
      privateKey: signer.key,
      publicCert: signer.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    return Buffer.from(sig.getSignedXml()).toString('base64');
  }

  return {
    entityId,
    ssoUrl,
    certificate,
    response,
    /** The ID of the AuthnRequest carried by an HTTP-Redirect sign-in address, checking it is ours to answer. */
    requestIdOf(redirectUrl: string): string {
      const url = new URL(redirectUrl);
      if (url.origin + url.pathname !== ssoUrl) throw new Error(`not this identity provider: ${redirectUrl}`);
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      const id = /\sID="([^"]+)"/.exec(xml)?.[1];
      if (!id) throw new Error('no AuthnRequest ID');
      return id;
    },
  };
}
