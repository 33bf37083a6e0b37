import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
} from 'react';
import { useCheckText } from '../i18n/checks';

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
      {error ? <FieldError text={error} /> : null}
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
      {error ? <FieldError text={error} /> : null}
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
      {error ? <FieldError text={error} /> : null}
    </div>
  );
}

/** A field's check, in the screen's language. */
function FieldError({ text }: { text: string }) {
  const said = useCheckText();
  return <small className="field__error">{said(text)}</small>;
}

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
}) {
  // A check or refusal the schemas and the server write in English, in the screen's language.
  const said = useCheckText();
  return (
    <div
      className={`alert alert--${tone}`}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
    >
      {typeof children === 'string' ? said(children) : children}
    </div>
  );
}

/**
 * Brings an element into the viewport and gives it the focus (so a screen reader reads it too), e.g. a
 * form's message after a submit: on a phone it is often a screen or more above the button tapped.
 */
export function bringIntoView(element: HTMLElement | null, block: ScrollLogicalPosition = 'center') {
  if (!element) return;
  element.scrollIntoView({ block });
  element.focus({ preventScroll: true });
}

/**
 * A form's one message: its first field error, or what the call reported. Each new message (every
 * submit and every reported outcome, `seq`) is scrolled into view and focused.
 */
export function FormStatus({
  message,
}: {
  message: { tone: 'error' | 'success'; text: string; seq?: number } | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const seq = message?.seq;
  const text = message?.text;
  // biome-ignore lint/correctness/useExhaustiveDependencies: seq is the trigger: the same words after another submit come back into view
  useEffect(() => {
    if (text !== undefined) bringIntoView(ref.current);
  }, [seq, text]);
  return message ? (
    <div ref={ref} tabIndex={-1} className="form-status">
      <Alert tone={message.tone}>{message.text}</Alert>
    </div>
  ) : null;
}

/**
 * A form's answer that is more than one line of text (a result with a button, a success with a link, the
 * figures a filter shows): brought into view and focused each time `seq` changes while it shows, as
 * FormStatus does for a message; 0 is "not asked yet" (a screen's first render takes no focus).
 */
export function FormAnswer({ seq, children }: { seq: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (seq > 0) bringIntoView(ref.current);
  }, [seq]);
  return (
    <div ref={ref} tabIndex={-1} className="form-status">
      {children}
    </div>
  );
}
