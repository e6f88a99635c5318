import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../api.ts';
import { useSession } from '../session.tsx';

interface SignInOption {
  type: 'oidc' | 'saml';
  id: string;
  label: string;
  startURL: string;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Only paths of this app, never another origin (`//evil`, `https:`): an open redirect otherwise. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** Email and password, and a button per SSO provider of the organizations the address belongs to. */
export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [domainEmail, setDomainEmail] = useState('');
  const { refresh } = useSession();

  useEffect(() => {
    const t = setTimeout(() => setDomainEmail(EMAIL.test(email) ? email : ''), 300);
    return () => clearTimeout(t);
  }, [email]);
  const providers = useQuery({
    queryKey: ['providers', domainEmail],
    queryFn: () => request<{ items: SignInOption[] }>('GET', `/auth/providers?email=${encodeURIComponent(domainEmail)}`),
    enabled: domainEmail !== '',
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await request('POST', '/auth/sign-in', { email, password });
      // Signed in, the app's /sign-in route goes on to the address asked first (`next`).
      await refresh();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'Wrong email or password.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="signin">
      <h1>Sign in to Quire</h1>
      <form onSubmit={submit} aria-busy={busy}>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {providers.data && providers.data.items.length > 0 && (
        <section aria-label="Single sign-on">
          <p>Or continue with</p>
          {providers.data.items.map((p) => (
            <a key={p.id} className="btn" href={p.startURL}>
              Sign in with {p.label}
            </a>
          ))}
        </section>
      )}
    </main>
  );
}
