import { type ReactNode, useState } from 'react';
import { Sheet } from './Sheet';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in plain words: what changes, for whom, and whether it can be undone. */
  body: ReactNode;
  /** The verb on the button that does it ("Cancel load", "Void record"). */
  confirmLabel: string;
  /** The way back ("Keep load"); "Go back" by default. */
  cancelLabel?: string;
  onConfirm: () => void;
}

/** A question before a step with consequences; the safe answer has the focus. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: () => void }) {
  return (
    <Sheet title={request.title} onClose={onClose} alert>
      <div className="confirm__body">{request.body}</div>
      <div className="sheet__actions">
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            onClose();
            request.onConfirm();
          }}
        >
          {request.confirmLabel}
        </button>
        <button type="button" className="button button--secondary" data-autofocus onClick={onClose}>
          {request.cancelLabel ?? 'Go back'}
        </button>
      </div>
    </Sheet>
  );
}

/** `ask(request)` opens the confirmation; render `dialog` where the screen's dialogs go. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return {
    ask: setRequest,
    dialog: request ? <ConfirmDialog request={request} onClose={() => setRequest(null)} /> : null,
  };
}
