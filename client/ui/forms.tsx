import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

interface FieldProps {
  label: string;
  hint?: ReactNode;
  error?: string | null;
}

export function TextField({
  label,
  hint,
  error,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
      />
      {hint ? (
        <small id={`${id}-hint`} className="field__hint">
          {hint}
        </small>
      ) : null}
      {error ? <small className="field__error">{error}</small> : null}
    </div>
  );
}

export function SelectField({
  label,
  hint,
  error,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} {...select}>
        {children}
      </select>
      {hint ? <small className="field__hint">{hint}</small> : null}
      {error ? <small className="field__error">{error}</small> : null}
    </div>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} {...area} />
      {hint ? <small className="field__hint">{hint}</small> : null}
      {error ? <small className="field__error">{error}</small> : null}
    </div>
  );
}

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
}) {
  return (
    <div
      className={`alert alert--${tone}`}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
    >
      {children}
    </div>
  );
}

/** A form's one message: its first field error, or what the call reported. */
export function FormStatus({ message }: { message: { tone: 'error' | 'success'; text: string } | null }) {
  return message ? <Alert tone={message.tone}>{message.text}</Alert> : null;
}
