import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request, setCsrfToken } from './api.ts';
import { forgetOfflineEdits } from './offline.ts';
import type { User } from './types.ts';

interface SessionInfo {
  user: User;
  csrfToken: string;
}

interface SessionState {
  user: User | undefined;
  loading: boolean;
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** The signed-in user, from `GET /auth/session` (undefined when signed out). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const info = await request<SessionInfo>('GET', '/auth/session');
        setCsrfToken(info.csrfToken);
        return info;
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
  const state: SessionState = {
    user: q.data?.user,
    loading: q.isPending,
    refresh: async () => {
      await client.invalidateQueries({ queryKey: ['session'] });
    },
    signOut: async () => {
      const userId = q.data?.user.id;
      await request('POST', '/auth/sign-out', {});
      setCsrfToken(undefined);
      // The session first, on the query this provider observes: clearing the cache before would
      // leave the provider on the removed query, still holding the member until something else
      // re-renders it. Then everything the member read.
      client.setQueryData(['session'], null);
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
      // Not awaited: an editor still open holds its database's deletion until it closes, after this.
      if (userId) void forgetOfflineEdits(userId).catch(() => undefined);
    },
  };
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
