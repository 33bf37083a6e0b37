import { findPlace, type LatLng, roadDistanceKm } from './distance';
import { formatKes, formatKm } from './format';
import { type PricingInfo, perTruckPrice } from './pricing';

/** What the assistant may say: the business's own facts, built by the server (never from the client). */
export interface ChatFacts {
  pricing: PricingInfo;
  yard: LatLng & { name: string };
  banks: Array<{ bank: string; paybill: string; account: string }>;
  phone: string;
  email: string;
  hours: string;
}

export const CHAT_LIMITS = { maxMessages: 20, maxChars: 2000 } as const;

const has = (text: string, words: string[]) =>
  words.some((w) => new RegExp(`(^|[^a-z])${w}`, 'i').test(text));

function truckCount(text: string): number {
  // "3 trucks", "2 loads" — or Swahili word order, "lori 2", "magari 3".
  const m =
    /(\d{1,2})\s*(trucks?|loads?|lorr(y|ies)|lori|magari|tipper)/i.exec(text) ??
    /(lori|magari|malori)\s*(\d{1,2})/i.exec(text);
  const n = m ? Number(/\d+/.exec(m[0])![0]) : 1;
  return Math.min(20, Math.max(1, n));
}

function kmMentioned(text: string): number | null {
  const m = /(\d+(?:\.\d+)?)\s*(km|kilomet)/i.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * A rule-based answer about prices (through the real pricing function), hours, payment and ordering.
 * Works in English and common Swahili phrasing; anything else gets the dispatch contacts.
 */
export function ruleBasedAnswer(question: string, facts: ChatFacts): string {
  const q = question.toLowerCase();
  const { pricing } = facts;
  const base = `${formatKes(pricing.basePrice)} per 20-tonne truck up to ${pricing.baseDistanceKm} km from our ${facts.yard.name}, plus ${formatKes(pricing.incrementAmount)} for every ${pricing.incrementKm} km beyond that`;

  if (has(q, ['price', 'cost', 'how much', 'quote', 'charge', 'bei', 'pesa ngapi', 'ngapi', 'rate'])) {
    const place = findPlace(question);
    const km = kmMentioned(question) ?? (place ? roadDistanceKm(facts.yard, place) : null);
    const trucks = truckCount(question);
    if (km !== null) {
      const perTruck = perTruckPrice(pricing, km);
      const where = place ? `${place.name} (about ${formatKm(km)} by road)` : formatKm(km);
      return `Delivery to ${where} costs ${formatKes(perTruck)} per truck${trucks > 1 ? `, ${formatKes(perTruck * trucks)} for ${trucks} trucks` : ''}. Our pricing: ${base}. Use the quote form on this page for your exact site.`;
    }
    return `Our pricing: ${base}. Tell me your site (for example "price to Ruiru") or use the quote form for an instant quote.`;
  }
  if (has(q, ['pay', 'paybill', 'mpesa', 'm-pesa', 'bank', 'lipa', 'malipo', 'account'])) {
    const list = facts.banks.map((b) => `${b.bank} paybill ${b.paybill}`).join(', ');
    return `Pay by M-Pesa paybill or bank: ${list}; account ${facts.banks[0]?.account ?? ''}. After paying, share your payment reference in the order portal and operations confirms it.`;
  }
  if (has(q, ['hour', 'open', 'time', 'when', 'saa', 'night', 'usiku', 'sunday', 'weekend'])) {
    return `Dispatch works ${facts.hours}. Call ${facts.phone} to book an overnight pour.`;
  }
  if (has(q, ['order', 'book', 'agiza', 'nunua', 'buy', 'deliver', 'leta'])) {
    return 'Order on this page: enter your site, choose coarse or smooth sand and the number of 20-tonne trucks (1 to 20), then place the order. You get the total at once, pay by paybill or bank, and share the payment reference.';
  }
  if (has(q, ['coarse', 'smooth', 'sand', 'mchanga', 'type', 'aina'])) {
    return 'We deliver coarse sand (for concrete and blocks) and smooth sand (for plaster and finishing), 20 tonnes per truck.';
  }
  if (has(q, ['contact', 'phone', 'call', 'email', 'whatsapp', 'simu', 'piga'])) {
    return `Call or WhatsApp dispatch on ${facts.phone}, or email ${facts.email}.`;
  }
  return `I can help with prices, payment, delivery hours and how to order sand. For anything else, please call dispatch on ${facts.phone}.`;
}

/** Every KES amount a reply may quote: the live pricing and the prices its distances give. */
export function allowedAmounts(facts: ChatFacts, texts: string[]): Set<number> {
  const allowed = new Set<number>([facts.pricing.basePrice, facts.pricing.incrementAmount]);
  for (const text of texts) {
    const place = findPlace(text);
    const km = kmMentioned(text) ?? (place ? roadDistanceKm(facts.yard, place) : null);
    if (km !== null) {
      const p = perTruckPrice(facts.pricing, km);
      for (let n = 1; n <= 20; n++) allowed.add(p * n);
    }
  }
  return allowed;
}

/** KES amounts in a text ("KES 32,000", "Ksh 33000", "32,000 shillings"). */
export function amountsIn(text: string): number[] {
  const out: number[] = [];
  const re =
    /(?:kes|ksh|kshs|sh)\.?\s*([\d,]+(?:\.\d+)?)|([\d,]{4,}(?:\.\d+)?)\s*(?:kes|ksh|shillings|bob)/gi;
  for (const m of text.matchAll(re)) out.push(Number((m[1] ?? m[2] ?? '').replace(/,/g, '')));
  return out.filter((n) => Number.isFinite(n) && n > 0);
}
