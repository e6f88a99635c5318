import { useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/**
 * A form control inside the label that names it (the name tests and screen readers use): shown
 * above it (`.field`), or hidden where the form is one line and its placeholder says enough.
 */
type Labelled = { label: string; hideLabel?: boolean };

function Label({ label, hideLabel, children }: Labelled & { children: ReactNode }) {
  return (
    <label className={hideLabel ? undefined : 'field'}>
      <span className={hideLabel ? 'visually-hidden' : undefined}>{label}</span>
      {children}
    </label>
  );
}

/** A text state and its setter: the field shows the one and changes through the other. */
type Bound = { bind?: readonly [string, (value: string) => void] };

export function Field({ label, hideLabel, bind, ...input }: Labelled & Bound & InputHTMLAttributes<HTMLInputElement>) {
  const bound = bind && { value: bind[0], onChange: (e: { target: { value: string } }) => bind[1](e.target.value) };
  return (
    <Label label={label} hideLabel={hideLabel}>
      <input {...input} {...bound} />
    </Label>
  );
}

export function TextAreaField({ label, hideLabel, ...textarea }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Label label={label} hideLabel={hideLabel}>
      <textarea {...textarea} />
    </Label>
  );
}

/** A select of `options`, after any given as children (a "Choose…" one). */
export function SelectField({ label, hideLabel, options, children, ...select }: Labelled & { options: OptionList } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Label label={label} hideLabel={hideLabel}>
      <select {...select}>
        {children}
        <Options of={options} />
      </select>
    </Label>
  );
}

/** Values shown as they are, or [value, text] pairs. */
export type OptionList = readonly (string | readonly [string, ReactNode])[];

export function Options({ of }: { of: OptionList }) {
  return of.map((o) => {
    const [value, text] = typeof o === 'string' ? [o, o] : o;
    return (
      <option key={value} value={value}>
        {text}
      </option>
    );
  });
}

/** A form's text fields as one object, with a change handler for each: `onChange={set('title')}`. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [fields, setFields] = useState(initial);
  const set = (k: keyof F) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [k]: e.target.value }));
  return [fields, set, setFields] as const;
}
