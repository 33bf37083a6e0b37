/**
 * M-Pesa rules (Safaricom Daraja): the order's account number, phone numbers, amounts and result codes.
 * Pure: data in, data out; the server, the worker and the screens share them.
 */
import { fromCents, toCents } from './money';
import { normaliseKenyanPhone } from './phone';

/** The account number a customer quotes with the paybill: `MCH<order id>`. */
export const ACCOUNT_PREFIX = 'MCH';

export function accountRefOf(orderId: number): string {
  return `${ACCOUNT_PREFIX}${orderId}`;
}

/**
 * The order id in an account number as a payer typed it: spaces, dashes, dots, underscores and letter case
 * do not matter (`mch 42`, `MCH-42`, `Mch42`, `MCH 0042`). Anything else is not one of ours.
 */
export function parseAccountRef(typed: string | null | undefined): number | null {
  if (!typed) return null;
  const compact = typed.replace(/[\s\-_.]/g, '').toUpperCase();
  const match = /^MCH0*(\d{1,10})$/.exec(compact);
  if (!match) return null;
  const id = Number(match[1]);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/**
 * A Kenyan mobile number in the form Daraja wants (2547XXXXXXXX or 2541XXXXXXXX), from what people type:
 * 0712 345 678, 712345678, +254 712-345-678, 254712345678, 0110 000 000. Null when it is not one.
 */
export function normaliseMsisdn(typed: string | null | undefined): string | null {
  const phone = normaliseKenyanPhone(typed);
  return phone?.mobile ? phone.international : null;
}

/**
 * A payer's number as ops may see it, in Safaricom's own masked form (`2547 ***** 126`). Since March 2026
 * C2B callbacks carry it masked already; STK callbacks carry the whole number, which is masked here so no
 * full number is kept. A hashed MSISDN (C2B v1) says nothing a person can read: null.
 */
export function maskMsisdn(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!text) return null;
  if (text.includes('*')) {
    const compact = text.replace(/\s+/g, ' ');
    return compact.length <= 32 ? compact : null;
  }
  const digits = text.replace(/\D/g, '');
  if (digits.length !== text.replace(/[\s+-]/g, '').length) return null;
  const full = normaliseMsisdn(digits);
  if (!full) return null;
  return `${full.slice(0, 4)} ***** ${full.slice(-3)}`;
}

/** Safaricom's cap on one M-Pesa transaction (KES). */
export const MPESA_MAX_TRANSACTION_KES = 250_000;

/** What an STK prompt can ask for a balance: whole shillings only, so the cents round up (never short). */
export function stkAmountKes(balanceCents: number): number {
  return Math.max(0, Math.ceil(fromCents(balanceCents)));
}

/**
 * A balance (whole KES) as the prompts that pay it: each at most the transaction cap, the largest first
 * (640,000 → 250,000 + 250,000 + 140,000). The customer is asked for one prompt at a time.
 */
export function splitAmount(amountKes: number, cap = MPESA_MAX_TRANSACTION_KES): number[] {
  if (!Number.isFinite(amountKes) || amountKes <= 0) return [];
  const whole = Math.ceil(amountKes);
  const parts: number[] = [];
  for (let left = whole; left > 0; left -= cap) parts.push(Math.min(cap, left));
  return parts;
}

/** Daraja's clock format (YYYYMMDDHHmmss) in Nairobi time, for STK timestamps. */
export function darajaTimestamp(at: Date): string {
  // Nairobi is UTC+3 all year (no daylight saving).
  const eat = new Date(at.getTime() + 3 * 3600_000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(eat.getUTCFullYear(), 4)}${p(eat.getUTCMonth() + 1)}${p(eat.getUTCDate())}${p(eat.getUTCHours())}${p(eat.getUTCMinutes())}${p(eat.getUTCSeconds())}`;
}

/** A Daraja time (YYYYMMDDHHmmss, Nairobi), as a string or the number STK callbacks send; null if not one. */
export function parseDarajaTime(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(String(value).trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const at = new Date(Date.UTC(y, mo - 1, d, h - 3, mi, s));
  const back = new Date(at.getTime() + 3 * 3600_000);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return at;
}

/** Lipa na M-Pesa Online password: base64(shortcode + passkey + timestamp). */
export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return btoa(`${shortcode}${passkey}${timestamp}`);
}

/** An amount M-Pesa sends (`"5000.00"`, `1.00`, `"1,500"`) in cents; null when it is not a positive amount. */
export function amountToCents(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).replace(/,/g, '').trim();
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return null;
  const cents = toCents(Number(text));
  return cents > 0 ? cents : null;
}

/** The payer's name as M-Pesa gives it (first, middle, last; blanks dropped); null when none was given. */
export function payerName(parts: Array<string | null | undefined>): string | null {
  const name = parts
    .map((p) => (p ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .slice(0, 120);
  return name || null;
}

export type StkOutcome = 'PAID' | 'FAILED';

/**
 * What a customer reads for each STK result code (Daraja's M-Pesa Express result codes). `retry` says
 * whether sending the prompt again can help.
 */
export const STK_RESULTS: Record<string, { message: string; retry: boolean }> = {
  '0': { message: 'Payment received. Thank you!', retry: false },
  '1': {
    message:
      'Your M-Pesa balance is not enough for this payment. Top up (or use Fuliza), then send the prompt again.',
    retry: true,
  },
  '2': { message: 'M-Pesa refused the amount as below its minimum.', retry: false },
  '3': {
    message:
      'The amount is above what M-Pesa allows in one payment. Send the prompt again for the next part.',
    retry: true,
  },
  '4': {
    message:
      'This payment would pass your daily M-Pesa limit (KES 500,000). Pay the rest tomorrow or by bank.',
    retry: false,
  },
  '8': {
    message: 'M-Pesa could not take the payment into our paybill right now. Please call dispatch.',
    retry: false,
  },
  '17': {
    message: 'M-Pesa holds a second prompt for the same amount for 2 minutes. Wait a little, then try again.',
    retry: true,
  },
  '1001': {
    message:
      'Another M-Pesa payment is in progress on your phone. Finish or cancel it, wait a minute, then try again.',
    retry: true,
  },
  '1019': {
    message: 'The prompt expired before the PIN was entered. Send it again when you are ready.',
    retry: true,
  },
  '1025': { message: 'M-Pesa could not send the prompt. Please try again in a moment.', retry: true },
  // 1031 and 1032 both mean the customer cancelled the prompt (Daraja answers either, by channel).
  '1031': {
    message: 'You cancelled the M-Pesa prompt. Send it again when you are ready to pay.',
    retry: true,
  },
  '1032': {
    message: 'You cancelled the M-Pesa prompt. Send it again when you are ready to pay.',
    retry: true,
  },
  '1037': {
    message:
      'We could not reach your phone. Check that it is on, unlocked and has signal, then send the prompt again.',
    retry: true,
  },
  '2001': {
    message: 'The M-Pesa PIN was wrong. Send the prompt again and enter your PIN carefully.',
    retry: true,
  },
  '8006': {
    message: 'Your M-Pesa PIN is locked. Call Safaricom on 100 or 200, or pay by bank.',
    retry: false,
  },
  '9999': { message: 'M-Pesa could not send the prompt. Please try again in a moment.', retry: true },
};

/** The customer's message for a result code; unknown codes still say what to do next. */
export function stkResultMessage(code: string | number | null | undefined): {
  message: string;
  retry: boolean;
} {
  const known = code === null || code === undefined ? undefined : STK_RESULTS[String(code).trim()];
  return (
    known ?? {
      message:
        'M-Pesa did not complete the payment. Try the prompt again, or pay with the paybill and account number.',
      retry: true,
    }
  );
}

/** A final STK result: 0 is paid; every other code means the money did not move. */
export function stkOutcomeOf(code: string | number): StkOutcome {
  return String(code).trim() === '0' ? 'PAID' : 'FAILED';
}

/** C2B validation answers: accept, or refuse an account number that is not ours. */
export const C2B_ACCEPT = { ResultCode: 0, ResultDesc: 'Accepted' } as const;
export const C2B_REFUSE_ACCOUNT = { ResultCode: 'C2B00012', ResultDesc: 'Rejected' } as const;

/** What the M-Pesa calls answer in English (the spec's wording; the client's catalogs translate them). */
export const MPESA_MESSAGES = {
  orderNotFound: 'Order not found.',
  phoneInvalid: 'Enter the M-Pesa phone number, like 0712 345 678.',
  notConfigured:
    'Paying by M-Pesa prompt is not available right now. Pay with the paybill and the account number shown.',
  nothingToPay: 'This order has nothing left to pay.',
  promptPending:
    'A payment prompt went to another phone moments ago. Answer it there, or wait a minute and try again.',
  unreachable:
    'M-Pesa is not answering right now. Try again in a minute, or pay with the paybill and the account number shown.',
  phoneRefused: 'M-Pesa refused this phone number. Use a Safaricom line registered for M-Pesa.',
  checkYourPhone: 'Check your phone and enter your M-Pesa PIN',
  promptNotFound: 'Payment prompt not found.',
  paymentNotFound: 'Payment not found.',
  alreadyMatched: 'This payment is already matched to an order.',
  matchOrderNotFound: 'No order with that number.',
  tooManyPhone:
    'Too many payment prompts to this phone. Wait a few minutes, or pay with the paybill and the account number shown.',
  tooMany:
    'Too many payment prompts for this order. Wait a few minutes, or pay with the paybill and the account number shown.',
} as const;
