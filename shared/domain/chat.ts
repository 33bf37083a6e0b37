import { findPlace, type LatLng, roadDistanceKm } from './distance';
import { formatKm, formatMoney } from './format';
import { type PricingInfo, perTruckPrice } from './pricing';

/** What the assistant may say: the business's own facts, built by the server (never from the client). */
export interface ChatFacts {
  pricing: PricingInfo;
  yard: LatLng & { name: string };
  banks: Array<{ bank: string; paybill: string; account: string }>;
  phone: string;
  email: string;
  hours: string;
  /** The M-Pesa paybill (business short code) customers pay to with account `MCH<order id>`, when set. */
  mpesaPaybill?: string | null;
}

export const CHAT_LIMITS = { maxMessages: 20, maxChars: 2000 } as const;

/**
 * A reply cut to `max` characters (the conversation's own limit, so the widget can send it back as
 * history): at the last sentence end that fits, else the last space, with an ellipsis. Shorter replies
 * stay as they are.
 */
export function boundReply(text: string, max: number = CHAT_LIMITS.maxChars): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const sentence = Math.max(room.lastIndexOf('. '), room.lastIndexOf('! '), room.lastIndexOf('? '));
  if (sentence >= max / 2) return room.slice(0, sentence + 1);
  const space = room.lastIndexOf(' ');
  return `${(space >= max / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

/** The language a reply is written in: the question's. */
export type ChatLang = 'en' | 'sw';

export type ChatIntent =
  | 'price'
  | 'ask_site'
  | 'hours'
  | 'payment'
  | 'delivery'
  | 'order'
  | 'sand'
  | 'contact'
  | 'greeting'
  | 'other';

const words = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

// Kiswahili and Sheng words that mark a question as Kiswahili (or a Sheng mix).
const SW_WORDS = new Set(
  (
    'bei ngapi nataka natafuta naomba nipe tuma hadi mpaka kwa ya la za wa na ni mna mnafungua mnafunga kufungua ' +
    'kufunga fungua funga saa lori malori gari magari mchanga laini mkubwa mbaya lipa kulipa nalipa nilipe malipo ' +
    'habari mambo niaje vipi sasa aje leo kesho jana tafadhali asante naweza nawezaje nini gani wapi lini je hii ' +
    'hiyo nyinyi nyie poa msee buda fika kufika itafika mtaleta leta kuleta peleka kupeleka ndio sawa aina ' +
    'tani siku usiku asubuhi jioni jumapili jumamosi wikendi kazi mko uko iko nitalipa akaunti benki namba simu ' +
    'piga kupiga mtu wenu yenu yangu changu kuagiza agiza nunua kununua nikitaka gharama pesa bob mbao kujenga ' +
    'ujenzi plasta saruji zege tunaweza mnaweza mnapeleka mnaleta rahisi mingapi ngapi moja mbili tatu nne tano ' +
    'sita saba nane tisa kumi ishirini hapa huko eneo site yangu kiasi mnauza inachukua muda ama au pia'
  ).split(' '),
);
// Common English words: a question with more of these than Kiswahili ones is answered in English.
const EN_WORDS = new Set(
  (
    'the is are what how much price cost to for do you i when can my of a an please deliver delivery ' +
    'open close hours pay payment want need order buy sand trucks truck which where does will it your we ' +
    'and or with from time long there this that me have get much'
  ).split(' '),
);

/** English or Kiswahili (a Sheng mix counts as Kiswahili when its Kiswahili words are at least as many). */
export function detectLanguage(text: string): ChatLang {
  let sw = 0;
  let en = 0;
  for (const w of words(text)) {
    if (SW_WORDS.has(w)) sw++;
    else if (EN_WORDS.has(w)) en++;
  }
  return sw > 0 && sw >= en ? 'sw' : 'en';
}

const SW_UNITS = ['moja', 'mbili', 'tatu', 'nne', 'tano', 'sita', 'saba', 'nane', 'tisa'];
const EN_NUMBERS = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** Number words (moja … ishirini, "kumi na mbili", one … twenty) as digits. */
export function numbersAsDigits(text: string): string {
  const units = SW_UNITS.join('|');
  return text
    .replace(/\bishirini(?:\s+na\s+(moja|mbili|tatu|nne|tano|sita|saba|nane|tisa))?\b/gi, (_m, u?: string) =>
      String(20 + (u ? SW_UNITS.indexOf(u.toLowerCase()) + 1 : 0)),
    )
    .replace(new RegExp(`\\bkumi(?:\\s+na\\s+(${units}))?\\b`, 'gi'), (_m, u?: string) =>
      String(10 + (u ? SW_UNITS.indexOf(u.toLowerCase()) + 1 : 0)),
    )
    .replace(new RegExp(`\\b(${units})\\b(?!\\s+city)`, 'gi'), (u: string) =>
      String(SW_UNITS.indexOf(u.toLowerCase()) + 1),
    )
    .replace(new RegExp(`\\b(${EN_NUMBERS.join('|')})\\b`, 'gi'), (w: string) =>
      String(EN_NUMBERS.indexOf(w.toLowerCase()) + 1),
    );
}

const TRUCK_NOUN = 'trucks?|loads?|lorr(?:y|ies)|malori|lori|magari|gari|trips?|tippers?';

/** Trucks asked for: "3 trucks", "lori 2", "trips tatu", "magari kumi na mbili" (capped at 20). */
export function trucksMentioned(text: string): number | null {
  const t = numbersAsDigits(text);
  const m =
    new RegExp(`\\b(\\d{1,3})\\s*(?:${TRUCK_NOUN})\\b`, 'i').exec(t) ??
    new RegExp(
      `\\b(?:${TRUCK_NOUN})(?:\\s+(?:za|ya|la|of))?\\s+(\\d{1,3})\\b(?!\\s*(?:km|kilomet|kilomit))`,
      'i',
    ).exec(t);
  return m ? Math.min(20, Math.max(1, Number(m[1]))) : null;
}

function kmMentioned(text: string): number | null {
  const t = numbersAsDigits(text);
  // "30 km", or Kiswahili order "km 30" / "kilomita 30".
  const m =
    /(\d+(?:\.\d+)?)\s*(km|kilomet|kilomit)/i.exec(t) ?? /\b(?:km|kilomita)\s*(\d+(?:\.\d+)?)/i.exec(t);
  return m ? Number(m[1]) : null;
}

/**
 * What the page's latest quote (the request's `context`) says about the site: its place or distance and
 * truck count. Its prices are never read: every price comes from the pricing function. A pricing guide
 * ("up to 15 km", "per 5 km beyond") names no site and gives nothing.
 */
export function quoteHint(
  context: string | null | undefined,
  yard: LatLng,
): { km: number; place: string | null; trucks: number | null } | null {
  if (!context) return null;
  const place = findPlace(context);
  const m = /(?<!up to |per |every )\b(\d+(?:\.\d+)?)\s*km\b(?!\s*beyond)/i.exec(context);
  const km = m ? Number(m[1]) : place ? roadDistanceKm(yard, place) : null;
  if (km === null || !Number.isFinite(km)) return null;
  return { km, place: place?.name ?? null, trucks: trucksMentioned(context) };
}

const has = (text: string, patterns: string[]) =>
  patterns.some((w) => new RegExp(`(^|[^a-z])${w}`, 'i').test(text));

const PRICE = [
  'price',
  'cost',
  'how much',
  'quote',
  'charge',
  'bei',
  'pesa ngapi',
  'ni ngapi',
  'gharama',
  'rate',
  'ngapi',
  'kiasi gani',
];
const HOURS = [
  'hours',
  'open',
  'close',
  'closing',
  'opening',
  'saa ngapi',
  'mnafungua',
  'mnafunga',
  'kufungua',
  'kufunga',
  'fungua',
  'funga',
  'usiku',
  'night',
  'overnight',
  'sunday',
  'jumapili',
  'weekend',
  'wikendi',
  'holiday',
  'sikukuu',
  'working time',
  'saa za kazi',
  'mko kazini',
  'what time',
];
const PAYMENT = [
  'pay',
  'paybill',
  'mpesa',
  'm-pesa',
  'bank',
  'benki',
  'lipa',
  'kulipa',
  'nalipa',
  'nilipe',
  'malipo',
  'account',
  'akaunti',
  'till',
];
const DELIVERY = [
  'deliver',
  'delivery',
  'arrive',
  'fika',
  'kufika',
  'itafika',
  'how long',
  'inachukua muda',
  'track',
  'leta',
  'kuleta',
  'mtaleta',
  'mnaleta',
  'peleka',
  'kupeleka',
  'mnapeleka',
  'when will',
  'lini',
];
const ORDER = [
  'order',
  'book',
  'agiza',
  'kuagiza',
  'nunua',
  'kununua',
  'buy',
  'nataka',
  'want',
  'need',
  'naomba',
  'nipe',
  'tuma',
];
const SAND = [
  'coarse',
  'smooth',
  'sand type',
  'types of sand',
  'aina',
  'mchanga gani',
  'which sand',
  'what sand',
  'plaster',
  'plasta',
  'concrete',
  'zege',
  'blocks',
  'laini',
  'mkubwa',
  'mbaya',
  'river sand',
  'kind of sand',
];
const CONTACT = ['contact', 'phone', 'call', 'email', 'whatsapp', 'simu', 'piga', 'namba yenu', 'number'];
const GREETING = [
  'hi',
  'hello',
  'habari',
  'mambo',
  'niaje',
  'sasa',
  'jambo',
  'hujambo',
  'good morning',
  'vipi',
];

export interface ChatReply {
  intent: ChatIntent;
  lang: ChatLang;
  text: string;
  /** For a priced answer: the distance, the place, the trucks and the figures (all from the pricing function). */
  km?: number;
  place?: string | null;
  trucks?: number;
  perTruck?: number;
  total?: number;
}

function swHours(hours: string): string {
  return hours
    .replace(/\bdaily\b/i, 'kila siku')
    .replace(/,?\s*with overnight pours on request/i, ', na kumwaga usiku kwa ombi');
}

/**
 * A rule-based answer about prices (through the real pricing function), hours, payment, delivery, sand
 * types and ordering, in the question's language (English or Kiswahili, Sheng mixes included); anything
 * else gets the dispatch contacts. When a price or an order names no site, it asks for the site.
 */
export function chatReply(question: string, facts: ChatFacts, context?: string | null): ChatReply {
  const q = question.toLowerCase();
  const lang = detectLanguage(question);
  const sw = lang === 'sw';
  const { pricing } = facts;
  const reply = (
    intent: ChatIntent,
    en: string,
    swText: string,
    extra: Partial<ChatReply> = {},
  ): ChatReply => ({
    intent,
    lang,
    text: sw ? swText : en,
    ...extra,
  });
  const base = sw
    ? `${formatMoney(pricing.basePrice)} kwa lori la tani 20 hadi km ${pricing.baseDistanceKm} kutoka ${facts.yard.name}, na ${formatMoney(pricing.incrementAmount)} zaidi kwa kila km ${pricing.incrementKm} baada ya hapo`
    : `${formatMoney(pricing.basePrice)} per 20-tonne truck up to ${pricing.baseDistanceKm} km from our ${facts.yard.name}, plus ${formatMoney(pricing.incrementAmount)} for every ${pricing.incrementKm} km beyond that`;

  const place = findPlace(question);
  const askedKm = kmMentioned(question) ?? (place ? roadDistanceKm(facts.yard, place) : null);
  const askedTrucks = trucksMentioned(question);
  const wantsPrice = has(q, PRICE);
  const wantsHours = has(q, HOURS);
  const wantsPayment = has(q, PAYMENT);
  const wantsDelivery = has(q, DELIVERY);
  const wantsOrder = has(q, ORDER);
  const specificPayment = has(q, [
    'paybill',
    'mpesa',
    'm-pesa',
    'bank',
    'benki',
    'account',
    'akaunti',
    'till',
    'lipa',
    'kulipa',
    'nalipa',
    'nilipe',
    'malipo',
  ]);

  const priced = (km: number, placeName: string | null, trucks: number): ChatReply => {
    const perTruck = perTruckPrice(pricing, km);
    const total = perTruck * trucks;
    const where = sw
      ? placeName
        ? `${placeName} (takriban ${formatKm(km)} kwa barabara)`
        : formatKm(km)
      : placeName
        ? `${placeName} (about ${formatKm(km)} by road)`
        : formatKm(km);
    return reply(
      'price',
      `Delivery to ${where} costs ${formatMoney(perTruck)} per truck${trucks > 1 ? `, ${formatMoney(total)} for ${trucks} trucks` : ''}. Our pricing: ${base}. Use the quote form on this page for your exact site.`,
      `Kupeleka mchanga hadi ${where} ni ${formatMoney(perTruck)} kwa lori${trucks > 1 ? `, ${formatMoney(total)} kwa malori ${trucks}` : ''}. Bei zetu: ${base}. Tumia fomu ya bei kwenye ukurasa huu kwa eneo lako kamili.`,
      { km, place: placeName, trucks, perTruck, total },
    );
  };

  // Hours first: "Mnafungua saa ngapi?" asks the time, not a price.
  if (wantsHours && !(askedKm !== null && wantsPrice)) {
    return reply(
      'hours',
      `Dispatch works ${facts.hours}. Call ${facts.phone} to book an overnight pour.`,
      `Tunafanya kazi ${swHours(facts.hours)}. Piga ${facts.phone} kupanga kumwaga usiku.`,
    );
  }
  if (wantsPayment && specificPayment && !(askedKm !== null && wantsPrice)) {
    const banks = facts.banks.map((b) => `${b.bank} paybill ${b.paybill}`).join(', ');
    const account = facts.banks[0]?.account ?? '';
    const mpesaEn = facts.mpesaPaybill
      ? `M-Pesa paybill ${facts.mpesaPaybill}, account MCH followed by your order number (for example MCH42)`
      : 'M-Pesa paybill with account MCH followed by your order number (for example MCH42)';
    const mpesaSw = facts.mpesaPaybill
      ? `M-Pesa paybill ${facts.mpesaPaybill}, akaunti MCH ikifuatwa na namba ya oda yako (kwa mfano MCH42)`
      : 'M-Pesa paybill kwa akaunti MCH ikifuatwa na namba ya oda yako (kwa mfano MCH42)';
    return reply(
      'payment',
      `Pay by ${mpesaEn}, or by bank: ${banks}; account ${account}. After paying, share your payment reference in the order portal and operations confirms it.`,
      `Lipa kwa ${mpesaSw}, au kwa benki: ${banks}; akaunti ${account}. Ukishalipa, weka namba ya malipo kwenye ukurasa wa oda na ofisi itathibitisha.`,
    );
  }
  // A price, or an order naming trucks or a site ("Nataka trips tatu hadi Juja"): priced.
  if (wantsPrice || ((wantsOrder || wantsDelivery) && (askedKm !== null || askedTrucks !== null))) {
    const hint = askedKm === null ? quoteHint(context, facts.yard) : null;
    const km = askedKm ?? hint?.km ?? null;
    const placeName = askedKm !== null ? (place?.name ?? null) : (hint?.place ?? null);
    const trucks = askedTrucks ?? hint?.trucks ?? 1;
    if (km !== null) return priced(km, placeName, trucks);
    if (askedTrucks !== null || wantsOrder)
      return reply(
        'ask_site',
        `Which site should the ${askedTrucks && askedTrucks > 1 ? `${askedTrucks} trucks` : 'truck'} go to? Tell me the place (for example "3 trucks to Ruiru") and I will price it: ${base}.`,
        `Mchanga upelekwe wapi? Niambie eneo lako (kwa mfano "lori 3 hadi Ruiru") nikupe bei${askedTrucks && askedTrucks > 1 ? ` ya malori ${askedTrucks}` : ''}: ${base}.`,
        askedTrucks ? { trucks: askedTrucks } : {},
      );
    return reply(
      'ask_site',
      `Our pricing: ${base}. Tell me your site (for example "price to Ruiru") or use the quote form for an instant quote.`,
      `Bei zetu: ${base}. Niambie eneo lako (kwa mfano "bei hadi Ruiru") au tumia fomu ya bei upate bei papo hapo.`,
    );
  }
  if (wantsPayment) {
    return chatReply(`${question} mpesa`, facts, context);
  }
  if (wantsDelivery) {
    return reply(
      'delivery',
      `We deliver 20-tonne trucks of sand to your site, usually the same day you pay (dispatch works ${facts.hours}). Once your order is confirmed, My Orders shows each truck, its tracking link and the delivery code to give the driver on arrival.`,
      `Tunaleta mchanga kwa malori ya tani 20 hadi eneo lako, kwa kawaida siku hiyo hiyo ukilipa (tunafanya kazi ${swHours(facts.hours)}). Oda ikithibitishwa, "My Orders" inaonyesha kila lori, kiungo cha kulifuatilia na namba ya kumpa dereva akifika.`,
    );
  }
  if (has(q, SAND)) {
    return reply(
      'sand',
      'We deliver coarse sand (for concrete and blocks) and smooth sand (for plaster and finishing), 20 tonnes per truck.',
      'Tuna mchanga mkubwa/coarse (wa zege na matofali) na mchanga laini/smooth (wa plasta na kumalizia), tani 20 kwa kila lori.',
    );
  }
  if (wantsOrder) {
    return reply(
      'order',
      'Order on this page: enter your site, choose coarse or smooth sand and the number of 20-tonne trucks (1 to 20), then place the order. You get the total at once, pay by paybill or bank, and share the payment reference.',
      'Agiza kwenye ukurasa huu: andika eneo lako, chagua mchanga mkubwa au laini na idadi ya malori ya tani 20 (1 hadi 20), kisha weka oda. Utaona jumla papo hapo, lipa kwa paybill au benki, na uweke namba ya malipo.',
    );
  }
  if (has(q, CONTACT)) {
    return reply(
      'contact',
      `Call or WhatsApp dispatch on ${facts.phone}, or email ${facts.email}.`,
      `Piga simu au WhatsApp ofisi kwa ${facts.phone}, au tuma barua pepe kwa ${facts.email}.`,
    );
  }
  if (has(q, GREETING) && words(q).length <= 4) {
    return reply(
      'greeting',
      'Hello! Ask me about prices to your site, payment, delivery hours or sand types.',
      'Habari! Niulize bei hadi eneo lako, malipo, saa za kazi au aina za mchanga.',
    );
  }
  return reply(
    'other',
    `I can help with prices, payment, delivery hours and how to order sand. For anything else, please call dispatch on ${facts.phone}.`,
    `Ninaweza kukusaidia kuhusu bei, malipo, saa za kazi na jinsi ya kuagiza mchanga. Kwa mengine, tafadhali piga ofisi kwa ${facts.phone}.`,
  );
}

/** The rule-based reply's text (see `chatReply`). */
export function ruleBasedAnswer(question: string, facts: ChatFacts, context?: string | null): string {
  return chatReply(question, facts, context).text;
}

/** Every KES amount a reply may quote: the live pricing and the prices its (and the quote's) distances give. */
export function allowedAmounts(facts: ChatFacts, texts: string[], context?: string | null): Set<number> {
  const allowed = new Set<number>([facts.pricing.basePrice, facts.pricing.incrementAmount]);
  const kms = texts.map((text) => {
    const place = findPlace(text);
    return kmMentioned(text) ?? (place ? roadDistanceKm(facts.yard, place) : null);
  });
  kms.push(quoteHint(context, facts.yard)?.km ?? null);
  for (const km of kms) {
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

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|biz|io|app|link|ly|me|co|ke|africa|shop|site|online)\b(?:\/\S*)?/gi;
/** A number after a word that names where to pay: paybill, till, business number, Lipa na M-Pesa. */
const PAY_TO =
  /\b(?:pay ?bill|till|business|biashara|lipa na m-?pesa)(?:\s+(?:no\.?|number|namba|nambari|ya))*\s*[:#-]?\s*(\d(?:[\d ]*\d)?)/gi;
/** What follows a word that names an account. */
const ACCOUNT =
  /\b(?:account|acc|a\/c|akaunti)(?:\s+(?:no\.?|number|namba|nambari|ya))*\s*[:#-]?\s*([A-Za-z0-9-]+)/gi;
/** A run of digits, digit groups split by single spaces read as one number (`0700 000 000`, `247 247`). */
const DIGITS = /\d+(?: \d+)*/g;

const digitsOf = (s: string) => s.replace(/\D/g, '');

/**
 * The links, e-mail addresses, paybill or till numbers and account numbers in a reply that are not the
 * business's own: the payment details a customer reads must come only from the business's data (a model
 * can be talked into, or invent, another paybill or a payment link). Every number of five digits or more
 * must be a paybill, the account, the dispatch phone or an allowed price; the order account (`MCH42`) is
 * the business's. Empty when the reply is clean.
 */
export function foreignPaymentDetails(
  text: string,
  facts: ChatFacts,
  allowed: Set<number> = allowedAmounts(facts, []),
): string[] {
  const found: string[] = [];
  const paybills = new Set([...facts.banks.map((b) => b.paybill), facts.mpesaPaybill ?? ''].filter(Boolean));
  const accounts = new Set(facts.banks.map((b) => b.account.toUpperCase()));
  const phone = digitsOf(facts.phone).slice(-9);
  const own = (digits: string) =>
    paybills.has(digits) ||
    [...accounts].some((a) => digitsOf(a) === digits) ||
    (digits.length >= 9 && digits.slice(-9) === phone) ||
    allowed.has(Number(digits));
  const rest = text.replace(EMAIL, (email) => {
    if (email.toLowerCase() !== facts.email.toLowerCase()) found.push(email);
    return ' ';
  });
  for (const m of rest.matchAll(LINK)) found.push(m[0]);
  for (const m of rest.matchAll(PAY_TO)) if (!paybills.has(digitsOf(m[1]!))) found.push(m[0]);
  for (const m of rest.matchAll(ACCOUNT)) {
    const token = m[1]!.toUpperCase();
    const identifier = /\d/.test(token) || /^[A-Z]{3,}$/.test(m[1]!);
    if (identifier && !accounts.has(token) && !/^MCH\d*$/.test(token)) found.push(m[0]);
  }
  for (const m of rest.replace(/\bMCH\s*\d+/gi, ' ').matchAll(DIGITS)) {
    const digits = digitsOf(m[0]);
    if (digits.length >= 5 && !own(digits)) found.push(m[0]);
  }
  return [...new Set(found)];
}
