import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * Form controls with their caption above them. By the dashboard's convention a control's `id` is
 * also its `data-testid` (the browser tests find controls by it).
 */

/** A caption above a control: `<label class="field">`; `id` is the control's. */
export function Field({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <label className="field" htmlFor={id}>
      <span className="field-label">{label}</span>
      {children}
    </label>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> & {
  id: string;
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
};

/** A labelled `<input>`; other input attributes (type, maxLength, disabled…) pass through. */
export function TextField({ id, label, value, onValue, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label}>
      <input id={id} data-testid={id} value={value} onChange={(event) => onValue(event.target.value)} {...input} />
    </Field>
  );
}

/** An option: its value, shown as it is, or a value with its own text. */
export type SelectOption<T extends string> = T | { value: T; label: string };

export interface SelectProps<T extends string> {
  id: string;
  value: T;
  options: readonly SelectOption<T>[];
  /** Called with an option's value (or "" for `emptyOption`, so T must then include it). */
  onValue: (value: T) => void;
  /** Adds a first option with the value "" (all, or none chosen). */
  emptyOption?: string;
  disabled?: boolean;
}

/** A `<select>` over fixed options. */
export function Select<T extends string>({ id, value, options, onValue, emptyOption, disabled }: SelectProps<T>) {
  return (
    <select id={id} data-testid={id} value={value} onChange={(event) => onValue(event.target.value as T)} disabled={disabled}>
      {emptyOption !== undefined && <option value="">{emptyOption}</option>}
      {options.map((option) => {
        const { value: optionValue, label } = typeof option === 'string' ? { value: option, label: option } : option;
        return (
          <option key={optionValue} value={optionValue}>
            {label}
          </option>
        );
      })}
    </select>
  );
}

/** A labelled `<select>`. */
export function SelectField<T extends string>({ label, ...select }: SelectProps<T> & { label: ReactNode }) {
  return (
    <Field id={select.id} label={label}>
      <Select {...select} />
    </Field>
  );
}
