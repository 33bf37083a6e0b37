/**
 * Kenyan phone numbers, normalised once for every use: M-Pesa prompts (Daraja's 2547…/2541…), tap-to-call
 * (`tel:+254…`), WhatsApp (`https://wa.me/254…`, digits only as WhatsApp asks) and the way a screen shows
 * them. A Kenyan number is 254 and a 9-digit national number; 7… and 1… are mobiles (Safaricom, Airtel,
 * Telkom), other leading digits (20… Nairobi, 41… Mombasa, 57… Kisumu) are fixed lines.
 */

export interface KenyanPhone {
  /** 254 and the national number: 254712345678. */
  international: string;
  /** A mobile line (7… or 1…): it takes M-Pesa prompts and WhatsApp. */
  mobile: boolean;
}

/**
 * What people type — 0712 345 678, 712345678, +254 712-345-678, 254712345678, (020) 765 4321 — as one
 * Kenyan number. Null when it is not one (a foreign number, letters, too few or too many digits).
 */
export function normaliseKenyanPhone(typed: string | null | undefined): KenyanPhone | null {
  if (!typed) return null;
  const trimmed = typed.trim();
  if (!/^\+?[\d\s\-().]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  let national: string;
  if (/^254[1-7]\d{8}$/.test(digits)) national = digits.slice(3);
  else if (/^0[1-7]\d{8}$/.test(digits)) national = digits.slice(1);
  else if (/^[1-7]\d{8}$/.test(digits)) national = digits;
  else return null;
  return { international: `254${national}`, mobile: /^[17]/.test(national) };
}

/** How a screen shows a number: +254 712 345 678. */
export function formatKenyanPhone(phone: KenyanPhone): string {
  const n = phone.international.slice(3);
  return `+254 ${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`;
}

export interface PhoneLinks {
  /** The number as typed, tidied: +254 712 345 678. */
  display: string;
  /** Tap to call. */
  tel: string;
  /** A WhatsApp chat, for mobiles only. */
  whatsapp: string | null;
}

/** Tap-to-call and WhatsApp links for a number; null when it is not a Kenyan number (nothing to tap). */
export function phoneLinks(typed: string | null | undefined): PhoneLinks | null {
  const phone = normaliseKenyanPhone(typed);
  if (!phone) return null;
  return {
    display: formatKenyanPhone(phone),
    tel: `tel:+${phone.international}`,
    whatsapp: phone.mobile ? `https://wa.me/${phone.international}` : null,
  };
}

/**
 * The WhatsApp link for a setting that may be a link already (https://wa.me/…, a catalogue link) or a
 * number in any form people write one (254722000111, 0722 000 111, +254 722 000 111). Null when it is
 * neither.
 */
export function whatsappLink(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^https:\/\/\S+$/i.test(text)) return text;
  const phone = normaliseKenyanPhone(text);
  return phone?.mobile ? `https://wa.me/${phone.international}` : null;
}
