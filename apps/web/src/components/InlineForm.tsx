import type { ReactNode } from 'react';

/**
 * A form on one line: its fields, then its submit button (`submit` its text). Submitting calls
 * `onSubmit` instead of loading a page.
 */
export function InlineForm({
  submit,
  onSubmit,
  buttonClass = 'btn',
  disabled,
  className = 'inline',
  role,
  children,
}: {
  submit: string;
  onSubmit: () => void;
  buttonClass?: string;
  disabled?: boolean;
  className?: string;
  role?: string;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      role={role}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit" className={buttonClass} disabled={disabled}>
        {submit}
      </button>
    </form>
  );
}
