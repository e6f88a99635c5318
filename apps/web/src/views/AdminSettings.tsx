import '../admin.css';
import { AuditLog } from './admin/AuditLog.tsx';
import { Integrations } from './admin/Integrations.tsx';
import { Sso } from './admin/Sso.tsx';
import { Translations } from './admin/Translations.tsx';

/** The organization's administration beyond members, teams and tokens (admins). */
export default function AdminSettings({ org, tab }: { org: string; tab: 'sso' | 'translations' | 'integrations' | 'audit' }) {
  if (tab === 'sso') return <Sso org={org} />;
  if (tab === 'translations') return <Translations org={org} />;
  if (tab === 'integrations') return <Integrations org={org} />;
  return <AuditLog org={org} />;
}
