/**
 * SMS length rules (3GPP TS 23.038 / 23.040). A message in the GSM 7-bit alphabet fits 160 characters in
 * one SMS and 153 per part once split (the concatenation header takes 7); one character outside it makes
 * the whole message UCS-2: 70 in one SMS, 67 per part. Characters of the GSM extension table (€ [ ] { } ~
 * ^ \ | and form feed) take two places, and neither an escape pair nor a UTF-16 surrogate pair is split
 * across parts. Operators bill per part, so every text Mchanga sends is kept to one where it can be.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  /** Parts the operator sends (and bills). 0 for an empty text. */
  segments: number;
  /** What one SMS holds in this encoding (160 or 70). */
  single: number;
}

/** True when every character is in the GSM 7-bit alphabet (basic or extension table). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/** The encoding, length and number of parts of a text. */
export function smsLength(text: string): SmsLength {
  if (isGsm7(text)) {
    const sizes = [...text].map((ch) => (EXTENSION.has(ch) ? 2 : 1));
    return { encoding: 'GSM-7', ...count(sizes, 160, 153), single: 160 };
  }
  // UCS-2 counts UTF-16 code units: a character beyond the BMP (most emoji) takes two and stays whole.
  const sizes = [...text].map((ch) => ch.length);
  return { encoding: 'UCS-2', ...count(sizes, 70, 67), single: 70 };
}

function count(sizes: number[], single: number, part: number): { units: number; segments: number } {
  const units = sizes.reduce((a, b) => a + b, 0);
  if (units === 0) return { units, segments: 0 };
  if (units <= single) return { units, segments: 1 };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { units, segments };
}

/** Look-alikes phones and editors put in text, with their GSM-7 equivalents (so one stays 160, not 70). */
const LOOK_ALIKES: Array<[RegExp, string]> = [
  [/[‘’‚′`]/g, "'"],
  [/[“”„″]/g, '"'],
  [/[‐‑‒–—―−]/g, '-'],
  [/…/g, '...'],
  [/[·•]/g, '-'],
  [/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' '],
  [/[\u200b-\u200d\u2060\ufeff]/g, ''],
  [/×/g, 'x'],
];

/**
 * The text as it should go by SMS: look-alike punctuation replaced by its GSM-7 equivalent, so a message
 * that is otherwise plain stays in the 160-character alphabet. Letters outside it are kept (a name is a
 * name): the message is then UCS-2.
 */
export function smsText(text: string): string {
  let out = text;
  for (const [re, to] of LOOK_ALIKES) out = out.replace(re, to);
  return out;
}

/** Words that ask to stop messages (Africa's Talking and Kenyan operators' usage, English and Kiswahili). */
// "cancel" is left out: in a conversation about an order it means the order.
const OPT_OUT = new Set(['stop', 'stopall', 'unsubscribe', 'quit', 'sitisha', 'simamisha']);
/** Words that ask for them again. */
const OPT_IN = new Set(['start', 'unstop', 'subscribe', 'anza', 'endelea']);

/** Whether an inbound text opts out (`stop`), back in (`start`), or neither: one keyword, any case. */
export function optKeyword(text: string): 'stop' | 'start' | null {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[.!\s]+$/g, '');
  if (OPT_OUT.has(word)) return 'stop';
  if (OPT_IN.has(word)) return 'start';
  return null;
}
