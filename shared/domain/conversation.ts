import { MAX_TRUCKS_PER_ORDER } from '../constants';
import type { ConversationState, SandType } from '../enums';
import type { WaMessage } from '../whatsapp/graph';
import { detectLanguage, numbersAsDigits, trucksMentioned } from './chat';
import { findPlace } from './distance';
import { formatKm, formatMoney } from './format';
import { optKeyword } from './sms';

// The WhatsApp ordering conversation as a pure state machine (issue 29): what the customer sent, where the
// conversation stood and its draft in; the next state, the draft and what to do out. The core
// (core/messaging/conversation.ts) does the doing: quoting, placing the order, the M-Pesa prompt, replies.

export type Lang = 'en' | 'sw';

/** The order being put together. */
export interface Draft {
  site?: string;
  lat?: number;
  lng?: number;
  sandType?: SandType;
  trucks?: number;
}

/** What the customer sent, as the conversation reads it. */
export type Input =
  | { kind: 'text'; text: string }
  | { kind: 'reply'; id: string; text: string }
  | { kind: 'location'; lat: number; lng: number; label: string | null }
  | { kind: 'other' };

/** What the core does next. */
export type Action =
  | { do: 'ask'; what: 'site' | 'sand' | 'trucks' }
  | { do: 'quote' }
  | { do: 'place' }
  | { do: 'cancelled' }
  | { do: 'where' }
  | { do: 'pay' }
  | { do: 'help' }
  | { do: 'stop' }
  | { do: 'start' };

export interface Step {
  state: ConversationState;
  draft: Draft;
  lang: Lang;
  action: Action;
}

/** Reply ids of the buttons and list rows the bot sends. */
export const IDS = {
  order: 'order',
  where: 'where',
  pay: 'pay',
  confirm: 'confirm',
  change: 'change',
  cancel: 'cancel',
  sand: (s: SandType) => `sand:${s}`,
  trucks: (n: number) => `trucks:${n}`,
} as const;

const WHERE = [
  /\bwhere\b.*\b(sand|truck|order|lorry|load|delivery)\b/i,
  /\b(track|tracking|status)\b/i,
  /\b(iko|liko|uko|yuko|mko|umefika|imefika|limefika)\b.*\bwapi\b/i,
  /\bwapi\b.*\b(mchanga|lori|gari|oda|mzigo)\b/i,
  /\b(mchanga|lori|gari|oda|mzigo)\b.*\b(iko|liko|uko) wapi\b/i,
  /\bfuatilia\b/i,
];
const ORDER = /\b(order|buy|want|need|book|nataka|naomba|agiza|kuagiza|nunua|nipe|tuma|leta|sand|mchanga)\b/i;
const GOODS = /\b(sand|mchanga|trucks?|lorr(y|ies)|lori|malori|trips?)\b/i;
const PAY = /\b(pay|lipa|kulipa|nilipe|mpesa|m-pesa|stk|prompt)\b/i;
const YES =
  /^(yes|y|ok|okay|sure|confirm|confirmed|ndio|ndiyo|sawa|thibitisha|poa|go ahead|place it|endelea)\b/i;
const NO = /^(no|n|cancel|stop order|hapana|acha|ghairi|sitaki)\b/i;
const CHANGE = /^(change|edit|badilisha|rekebisha)\b/i;
const COARSE = /\b(coarse|mkubwa|mbaya|concrete|zege|blocks?|matofali)\b/i;
const SMOOTH = /\b(smooth|laini|plaster|plasta|finishing)\b/i;

export function sandIn(text: string): SandType | undefined {
  const c = COARSE.test(text);
  const s = SMOOTH.test(text);
  return c === s ? undefined : c ? 'coarse' : 'smooth';
}

/** Trucks in a message: "3 trucks", "lori tatu", or just "3" when trucks are what was asked. */
export function trucksIn(text: string, asked: boolean): number | undefined {
  const n = trucksMentioned(text);
  if (n !== null) return n;
  if (!asked) return undefined;
  const m = /^\s*(\d{1,2})\s*$/.exec(numbersAsDigits(text));
  const v = m ? Number(m[1]) : Number.NaN;
  return v >= 1 && v <= MAX_TRUCKS_PER_ORDER ? v : undefined;
}

/** A typed site: a known place, or (when the site was asked for) any text that names somewhere. */
export function siteIn(text: string, asked: boolean): string | undefined {
  const place = findPlace(text);
  if (place) return asked ? text.trim().slice(0, 200) : place.name;
  if (!asked) return undefined;
  const t = text.trim();
  return /\p{L}{3,}/u.test(t) && t.length <= 200 ? t : undefined;
}

const wantsWhere = (text: string) => WHERE.some((re) => re.test(text));

/** The next field the draft needs, or null when it is complete. */
function missing(d: Draft): 'site' | 'sand' | 'trucks' | null {
  if (!d.site) return 'site';
  if (!d.sandType) return 'sand';
  if (!d.trucks) return 'trucks';
  return null;
}

function askNext(d: Draft, lang: Lang): Step {
  const next = missing(d);
  if (next === null) return { state: 'confirm', draft: d, lang, action: { do: 'quote' } };
  const state = next === 'site' ? 'ask_site' : next === 'sand' ? 'ask_sand' : 'ask_trucks';
  return { state, draft: d, lang, action: { do: 'ask', what: next } };
}

/** Whatever the order's words already said: site, sand type, trucks. */
function fromWords(d: Draft, text: string, state: ConversationState): Draft {
  const out = { ...d };
  const site = siteIn(text, state === 'ask_site');
  if (site && !out.site) out.site = site;
  const sand = sandIn(text);
  if (sand) out.sandType = sand;
  const trucks = trucksIn(text, state === 'ask_trucks');
  if (trucks) out.trucks = trucks;
  return out;
}

/**
 * One step of the conversation. Any time: STOP / START, "where is my sand?", and (after an order) "pay".
 * Ordering: the site (a location pin, or a typed place), the sand type, the trucks — in any order, taken
 * from whatever the customer's words already said ("Nataka trips tatu hadi Juja") — then the quote to
 * confirm. Anything else gets a short help, never silence. The language follows the customer's last
 * message in words.
 */
export function nextStep(state: ConversationState, draft: Draft, lang: Lang, input: Input): Step {
  const text = input.kind === 'text' || input.kind === 'reply' ? input.text : '';
  const speak: Lang = input.kind === 'text' && /\p{L}{2,}/u.test(text) ? detectLanguage(text) : lang;
  const stay = (action: Action): Step => ({ state, draft, lang: speak, action });
  const id = input.kind === 'reply' ? input.id : null;

  if (input.kind === 'text') {
    const opt = optKeyword(text);
    if (opt) return stay({ do: opt });
  }
  if (id === IDS.where || (input.kind === 'text' && wantsWhere(text))) return stay({ do: 'where' });
  // "I want to pay" after an order is the prompt; words naming sand or trucks are a new order.
  if (id === IDS.pay || (state === 'ordered' && input.kind === 'text' && PAY.test(text) && !GOODS.test(text)))
    return stay({ do: 'pay' });
  if (
    id === IDS.cancel ||
    (state !== 'idle' && state !== 'ordered' && input.kind === 'text' && NO.test(text.trim()))
  )
    return {
      state: state === 'ordered' ? 'ordered' : 'idle',
      draft: {},
      lang: speak,
      action: { do: 'cancelled' },
    };

  if (input.kind === 'location') {
    if (state === 'idle' || state === 'ordered' || state === 'ask_site' || !draft.site) {
      const d: Draft = {
        ...draft,
        site: input.label ?? `Pin ${input.lat.toFixed(5)}, ${input.lng.toFixed(5)}`,
        lat: input.lat,
        lng: input.lng,
      };
      return askNext(d, speak);
    }
    return askNext({ ...draft, lat: input.lat, lng: input.lng }, speak);
  }
  if (input.kind === 'other') return stay({ do: 'help' });

  if (id === IDS.order) return askNext({}, speak);
  if (id === IDS.change) return askNext({}, speak);
  if (id?.startsWith('sand:')) {
    const s = id.slice(5);
    if (s === 'coarse' || s === 'smooth') return askNext({ ...draft, sandType: s }, speak);
  }
  if (id?.startsWith('trucks:')) {
    const n = Number(id.slice(7));
    if (Number.isInteger(n) && n >= 1 && n <= MAX_TRUCKS_PER_ORDER)
      return askNext({ ...draft, trucks: n }, speak);
  }

  if (state === 'confirm') {
    if (id === IDS.confirm || YES.test(text.trim()))
      return { state: 'confirm', draft, lang: speak, action: { do: 'place' } };
    if (CHANGE.test(text.trim())) return askNext({}, speak);
    const d = fromWords(draft, text, 'idle');
    if (JSON.stringify(d) !== JSON.stringify(draft)) return askNext(d, speak);
    return stay({ do: 'quote' });
  }
  if (state === 'ask_site' || state === 'ask_sand' || state === 'ask_trucks') {
    const d = fromWords(draft, text, state);
    if (JSON.stringify(d) !== JSON.stringify(draft)) return askNext(d, speak);
    // Asked again, in the customer's language.
    return {
      state,
      draft,
      lang: speak,
      action: { do: 'ask', what: state === 'ask_site' ? 'site' : state === 'ask_sand' ? 'sand' : 'trucks' },
    };
  }
  // idle or ordered: a new order when the words ask for sand or name what one needs.
  const d = fromWords({}, text, 'idle');
  if (input.kind === 'text' && (ORDER.test(text) || d.site || d.trucks || d.sandType))
    return askNext(d, speak);
  return stay({ do: 'help' });
}

// ---- what the bot says --------------------------------------------------------------------------------

const T = {
  askSite: {
    en: 'Where should the sand go? Share the site’s location (📎 → Location), or type the place (for example "Ruiru, Kamakis").',
    sw: 'Mchanga upelekwe wapi? Tuma location ya eneo (📎 → Location), au andika jina la mahali (kwa mfano "Ruiru, Kamakis").',
  },
  askSand: {
    en: 'Which sand? Coarse is for concrete and blocks, smooth for plaster.',
    sw: 'Mchanga gani? Mkubwa (coarse) ni wa zege na matofali, laini (smooth) ni wa plasta.',
  },
  askTrucks: {
    en: 'How many 20-tonne trucks? Pick one, or type a number up to 20.',
    sw: 'Malori mangapi ya tani 20? Chagua, au andika namba hadi 20.',
  },
  help: {
    en: 'I can take a sand order, send the M-Pesa prompt and tell you where your truck is. Tap a button, or write e.g. "3 trucks of coarse sand to Juja".',
    sw: 'Naweza kupokea oda ya mchanga, kutuma ombi la M-Pesa na kukuambia lori liko wapi. Bonyeza kitufe, au andika k.m. "lori 3 za mchanga mkubwa hadi Juja".',
  },
  cancelled: {
    en: 'Cancelled. Write any time to order sand.',
    sw: 'Imeghairiwa. Andika wakati wowote kuagiza mchanga.',
  },
  stop: {
    en: 'You will get no more messages from Mchanga here. Send START to get them again.',
    sw: 'Hutapata ujumbe zaidi wa Mchanga hapa. Tuma ANZA kuupata tena.',
  },
  start: {
    en: 'Welcome back: you will get your orders’ news here again.',
    sw: 'Karibu tena: utapata habari za oda zako hapa tena.',
  },
  noOrder: {
    en: 'I find no order for this number yet. Tap "Order sand" to start one.',
    sw: 'Sijapata oda ya namba hii bado. Bonyeza "Agiza mchanga" kuanza.',
  },
  checkPhone: {
    en: 'Check your phone: enter your M-Pesa PIN to pay',
    sw: 'Angalia simu yako: weka PIN ya M-Pesa kulipa',
  },
  payPaybill: {
    en: 'Pay by M-Pesa paybill',
    sw: 'Lipa kwa M-Pesa paybill',
  },
} as const;

const BUTTON = {
  order: { en: 'Order sand', sw: 'Agiza mchanga' },
  where: { en: 'Where is my sand?', sw: 'Mchanga uko wapi?' },
  pay: { en: 'Pay with M-Pesa', sw: 'Lipa kwa M-Pesa' },
  confirm: { en: 'Confirm order', sw: 'Thibitisha oda' },
  change: { en: 'Change', sw: 'Badilisha' },
  cancel: { en: 'Cancel', sw: 'Ghairi' },
  coarse: { en: 'Coarse sand', sw: 'Mchanga mkubwa' },
  smooth: { en: 'Smooth sand', sw: 'Mchanga laini' },
  trucks: { en: 'Trucks', sw: 'Malori' },
} as const;

const text = (t: string): WaMessage => ({ kind: 'text', text: t });

export function askMessage(what: 'site' | 'sand' | 'trucks', lang: Lang): WaMessage {
  if (what === 'site') return { kind: 'location_request', text: T.askSite[lang] };
  if (what === 'sand')
    return {
      kind: 'buttons',
      text: T.askSand[lang],
      buttons: [
        { id: IDS.sand('coarse'), title: BUTTON.coarse[lang] },
        { id: IDS.sand('smooth'), title: BUTTON.smooth[lang] },
      ],
    };
  return {
    kind: 'list',
    text: T.askTrucks[lang],
    button: BUTTON.trucks[lang],
    rows: Array.from({ length: 10 }, (_, i) => ({
      id: IDS.trucks(i + 1),
      title: lang === 'sw' ? `Lori ${i + 1}` : `${i + 1} truck${i ? 's' : ''}`,
      description: lang === 'sw' ? `Tani ${(i + 1) * 20}` : `${(i + 1) * 20} tonnes`,
    })),
  };
}

/** Short help with the three things the bot does, as buttons (never silence). */
export function helpMessage(lang: Lang, answer?: string): WaMessage {
  return {
    kind: 'buttons',
    text: answer ? `${answer}\n\n${T.help[lang]}` : T.help[lang],
    buttons: [
      { id: IDS.order, title: BUTTON.order[lang] },
      { id: IDS.where, title: BUTTON.where[lang] },
      { id: IDS.pay, title: BUTTON.pay[lang] },
    ],
  };
}

export const simpleMessage = (which: 'cancelled' | 'stop' | 'start' | 'noOrder', lang: Lang) =>
  text(T[which][lang]);

export interface QuoteView {
  site: string;
  sandType: SandType;
  trucks: number;
  perTruck: number;
  total: number;
  distanceKm: number;
}

/** The quote to confirm, with Confirm / Change / Cancel. */
export function quoteMessage(q: QuoteView, lang: Lang): WaMessage {
  const sand =
    lang === 'sw' ? (q.sandType === 'coarse' ? 'mchanga mkubwa' : 'mchanga laini') : `${q.sandType} sand`;
  const body =
    lang === 'sw'
      ? `Bei: malori ${q.trucks} ya ${sand} hadi ${q.site} (takriban ${formatKm(q.distanceKm)}): ${formatMoney(q.perTruck)} kwa lori, jumla ${formatMoney(q.total)}. Nithibitishe oda?`
      : `Quote: ${q.trucks} truck${q.trucks > 1 ? 's' : ''} of ${sand} to ${q.site} (about ${formatKm(q.distanceKm)}): ${formatMoney(q.perTruck)} per truck, total ${formatMoney(q.total)}. Shall I place the order?`;
  return {
    kind: 'buttons',
    text: body,
    buttons: [
      { id: IDS.confirm, title: BUTTON.confirm[lang] },
      { id: IDS.change, title: BUTTON.change[lang] },
      { id: IDS.cancel, title: BUTTON.cancel[lang] },
    ],
  };
}

/** The order placed: its number, total, delivery code and how it is paid (the prompt follows, when on). */
export function placedMessage(
  o: { id: number; total: number; deliveryCode: string; trackingUrl: string | null },
  lang: Lang,
  pay: { stk: boolean; paybill: string | null },
): WaMessage {
  const how = pay.stk
    ? lang === 'sw'
      ? 'Ombi la M-Pesa linakuja kwenye simu hii.'
      : 'An M-Pesa prompt is coming to this phone.'
    : `${T.payPaybill[lang]}${pay.paybill ? ` ${pay.paybill}` : ''}, ${lang === 'sw' ? 'akaunti' : 'account'} MCH${o.id}.`;
  const track = o.trackingUrl
    ? lang === 'sw'
      ? `\nFuatilia: ${o.trackingUrl}`
      : `\nTrack it: ${o.trackingUrl}`
    : '';
  return text(
    lang === 'sw'
      ? `Oda #${o.id} imewekwa, jumla ${formatMoney(o.total)}. ${how} Namba ya kupokea mzigo: ${o.deliveryCode} (mpe dereva akifika).${track}`
      : `Order #${o.id} placed, total ${formatMoney(o.total)}. ${how} Delivery code: ${o.deliveryCode} (give it to the driver on arrival).${track}`,
  );
}

export function promptSentMessage(amount: number, lang: Lang): WaMessage {
  return text(`${T.checkPhone[lang]} ${formatMoney(amount)}.`);
}

const ORDER_STATUS: Record<string, Record<Lang, string>> = {
  AWAITING_PAYMENT: { en: 'awaiting payment', sw: 'inasubiri malipo' },
  PAYMENT_REVIEW: { en: 'payment being reviewed', sw: 'malipo yanakaguliwa' },
  RECEIVED: { en: 'paid, trucks being scheduled', sw: 'imelipwa, malori yanapangwa' },
  IN_TRANSIT: { en: 'on the road', sw: 'njiani' },
  DELIVERED: { en: 'delivered', sw: 'imefikishwa' },
  CANCELLED: { en: 'cancelled', sw: 'imeghairiwa' },
};
const LOAD_STATUS: Record<string, Record<Lang, string>> = {
  SCHEDULED: { en: 'scheduled', sw: 'limepangwa' },
  IN_TRANSIT: { en: 'on the way', sw: 'njiani' },
  ARRIVED: { en: 'at your site', sw: 'limefika eneo lako' },
  DELIVERED: { en: 'delivered', sw: 'limefikishwa' },
};

/** "Where is my sand?": the order's status, each load's truck and status, and the tracking link. */
export function whereMessage(
  o: { id: number; status: string; trackingUrl: string | null },
  loads: Array<{ plate: string; status: string }>,
  lang: Lang,
): WaMessage {
  const head =
    lang === 'sw'
      ? `Oda #${o.id}: ${ORDER_STATUS[o.status]?.sw ?? o.status}.`
      : `Order #${o.id}: ${ORDER_STATUS[o.status]?.en ?? o.status}.`;
  const lines = loads
    .filter((l) => LOAD_STATUS[l.status])
    .map((l) => `• ${lang === 'sw' ? 'Lori' : 'Truck'} ${l.plate}: ${LOAD_STATUS[l.status]![lang]}`);
  const track = o.trackingUrl
    ? lang === 'sw'
      ? `Fuatilia: ${o.trackingUrl}`
      : `Track it: ${o.trackingUrl}`
    : '';
  return text([head, ...lines, track].filter(Boolean).join('\n'));
}
