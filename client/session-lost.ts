import { clearSession, type SessionEndReason } from './session';

/**
 * What to do when the server says a sent token is no longer good (expired, revoked, disabled). Kept apart
 * from the tRPC client so the app shell can set it without loading that client.
 */
let onSessionLost: () => void = () => {};

export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

export function sessionLost() {
  onSessionLost();
}

/**
 * Ends the session the server refused, for its reason. The app sets the handler that also deletes what the
 * device kept after `revoked` or `disabled` (client/offline/persist.ts endSession); until then the session
 * alone goes.
 */
let onSessionEnd: (reason: SessionEndReason | undefined) => Promise<void> | void = () =>
  clearSession({ expired: true });

export function setSessionEndHandler(handler: typeof onSessionEnd) {
  onSessionEnd = handler;
}

export async function sessionEnded(reason: SessionEndReason | undefined): Promise<void> {
  await onSessionEnd(reason);
}
