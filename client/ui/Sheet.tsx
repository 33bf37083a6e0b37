import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from '../i18n';

/**
 * A bottom sheet on a phone, a centred dialog on a wide screen: a native modal <dialog> (focus kept
 * inside, Esc and a tap outside close it, the page behind is inert). Rendered only while open. The
 * element marked `data-autofocus` gets the focus, else the first field or button.
 */
export function Sheet({
  title,
  onClose,
  children,
  alert = false,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** A question that interrupts (confirmations): announced as an alert dialog. */
  alert?: boolean;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>(
      '[data-autofocus], .sheet__body input, .sheet__body select, .sheet__body textarea, .sheet__body button',
    );
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    // A click on the dialog itself (not its content) is a tap on the backdrop; Esc arrives as onCancel.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes the dialog through onCancel
    <dialog
      ref={ref}
      className="sheet"
      role={alert ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="sheet__body">
        <div className="sheet__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="sheet__close" aria-label={t('common.close')} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
