import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'good' | 'warn' | 'bad' | 'info' | 'muted';

/** A short state in a pill; the tone is a colour, the text says it (never colour alone). */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

const PAYMENT_TONES: Record<string, BadgeTone> = {
  PENDING: 'neutral',
  SUBMITTED: 'warn',
  CONFIRMED: 'good',
  REJECTED: 'bad',
};
const ORDER_TONES: Record<string, BadgeTone> = {
  AWAITING_PAYMENT: 'neutral',
  PAYMENT_REVIEW: 'warn',
  RECEIVED: 'info',
  IN_TRANSIT: 'info',
  DELIVERED: 'good',
  CANCELLED: 'muted',
};
const LOAD_TONES: Record<string, BadgeTone> = {
  SCHEDULED: 'neutral',
  IN_TRANSIT: 'info',
  ARRIVED: 'info',
  DELIVERED: 'good',
  CANCELLED: 'muted',
};

export const paymentTone = (status: string) => PAYMENT_TONES[status] ?? 'neutral';
export const orderTone = (status: string) => ORDER_TONES[status] ?? 'neutral';
export const loadTone = (status: string) => LOAD_TONES[status] ?? 'neutral';
