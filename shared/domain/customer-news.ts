import type { SandType } from '../enums';
import type { CustomerNewsEvent } from '../jobs';
import { formatMoney } from './format';
import { smsText } from './sms';

/** What the customer's news is made of (from the order, its load and its payment). */
export interface NewsFacts {
  orderId: number;
  trucks: number;
  sandType: SandType;
  total: number;
  /** Still owed after the payment (payment.received). */
  balance?: number;
  /** The payment's amount (payment.received). */
  paid?: number;
  trackingUrl: string | null;
  receiptUrl?: string | null;
  deliveryCode: string;
  plate?: string | null;
  driverName?: string | null;
  /** This load's number of the order's loads ("truck 2 of 3"). */
  loadNo?: number;
  loads?: number;
}

export type NewsLang = 'en' | 'sw';

const sand = (s: NewsFacts['sandType'], lang: NewsLang) =>
  lang === 'sw' ? (s === 'coarse' ? 'mchanga mkubwa (coarse)' : 'mchanga laini (smooth)') : `${s} sand`;
const truckOf = (f: NewsFacts, lang: NewsLang) =>
  f.loadNo && f.loads && f.loads > 1
    ? lang === 'sw'
      ? ` (lori ${f.loadNo} kati ya ${f.loads})`
      : ` (truck ${f.loadNo} of ${f.loads})`
    : '';

/**
 * The WhatsApp message of a piece of news (free-form, inside the customer's 24-hour window), in the
 * customer's language.
 */
export function newsText(event: CustomerNewsEvent, f: NewsFacts, lang: NewsLang): string {
  const sw = lang === 'sw';
  const track = f.trackingUrl ? (sw ? `\nFuatilia: ${f.trackingUrl}` : `\nTrack it: ${f.trackingUrl}`) : '';
  const who = [f.plate, f.driverName].filter(Boolean).join(sw ? ', dereva ' : ', driver ');
  switch (event) {
    case 'order.placed':
      return sw
        ? `Oda #${f.orderId} imepokelewa: malori ${f.trucks} ya ${sand(f.sandType, lang)}, jumla ${formatMoney(f.total)}. Lipa kwa M-Pesa, akaunti MCH${f.orderId}. Namba ya kupokea mzigo: ${f.deliveryCode} (mpe dereva tu akifika).${track}`
        : `Order #${f.orderId} placed: ${f.trucks} truck${f.trucks > 1 ? 's' : ''} of ${sand(f.sandType, lang)}, total ${formatMoney(f.total)}. Pay by M-Pesa, account MCH${f.orderId}. Delivery code: ${f.deliveryCode} (give it to the driver only on arrival).${track}`;
    case 'payment.received': {
      const owed = (f.balance ?? 0) > 0;
      const receipt =
        !owed && f.receiptUrl ? (sw ? `\nRisiti: ${f.receiptUrl}` : `\nReceipt: ${f.receiptUrl}`) : '';
      return sw
        ? `Tumepokea ${formatMoney(f.paid ?? 0)} kwa oda #${f.orderId}. ${owed ? `Salio: ${formatMoney(f.balance!)}.` : 'Imelipwa yote; tutapanga malori.'}${receipt}`
        : `We received ${formatMoney(f.paid ?? 0)} for order #${f.orderId}. ${owed ? `Balance: ${formatMoney(f.balance!)}.` : 'Paid in full; we are scheduling your trucks.'}${receipt}`;
    }
    case 'load.scheduled':
      return sw
        ? `Oda #${f.orderId}${truckOf(f, lang)}: lori limepangwa${who ? ` — ${who}` : ''}.${track}`
        : `Order #${f.orderId}${truckOf(f, lang)}: truck scheduled${who ? ` — ${who}` : ''}.${track}`;
    case 'load.left_yard':
      return sw
        ? `Oda #${f.orderId}${truckOf(f, lang)}: lori${f.plate ? ` ${f.plate}` : ''} limeondoka yadi, liko njiani.${track}`
        : `Order #${f.orderId}${truckOf(f, lang)}: truck${f.plate ? ` ${f.plate}` : ''} has left the yard and is on its way.${track}`;
    case 'load.arrived':
      return sw
        ? `Oda #${f.orderId}${truckOf(f, lang)}: lori limefika eneo lako. Mpe dereva namba ${f.deliveryCode}.`
        : `Order #${f.orderId}${truckOf(f, lang)}: the truck has arrived at your site. Give the driver code ${f.deliveryCode}.`;
    case 'load.delivered':
      return sw
        ? `Oda #${f.orderId}${truckOf(f, lang)}: mchanga umefikishwa. Asante kwa kuchagua Mchanga!`
        : `Order #${f.orderId}${truckOf(f, lang)}: sand delivered. Thank you for choosing Mchanga!`;
  }
}

/**
 * The SMS of a piece of news: plain GSM-7 and one SMS (160) with a tracking link of up to ~50 characters.
 * Only the news the issue sends by SMS: placed (link and code), paid, left the yard, delivered.
 */
export function newsSms(event: CustomerNewsEvent, f: NewsFacts, lang: NewsLang): string | null {
  const sw = lang === 'sw';
  const link = f.trackingUrl ? ` ${f.trackingUrl}` : '';
  let text: string;
  switch (event) {
    case 'order.placed':
      text = sw
        ? `Mchanga: Oda #${f.orderId} ${formatMoney(f.total)}. Lipa M-Pesa akaunti MCH${f.orderId}. Namba ya kupokea ${f.deliveryCode}.${link}`
        : `Mchanga: Order #${f.orderId} ${formatMoney(f.total)}. Pay M-Pesa acc MCH${f.orderId}. Delivery code ${f.deliveryCode}.${link}`;
      break;
    case 'payment.received':
      text =
        (f.balance ?? 0) > 0
          ? sw
            ? `Mchanga: Tumepokea ${formatMoney(f.paid ?? 0)} oda #${f.orderId}. Salio ${formatMoney(f.balance!)}.`
            : `Mchanga: Received ${formatMoney(f.paid ?? 0)} for order #${f.orderId}. Balance ${formatMoney(f.balance!)}.`
          : sw
            ? `Mchanga: Tumepokea ${formatMoney(f.paid ?? 0)} oda #${f.orderId}. Imelipwa yote.`
            : `Mchanga: Received ${formatMoney(f.paid ?? 0)} for order #${f.orderId}. Paid in full.`;
      break;
    case 'load.left_yard':
      text = sw
        ? `Mchanga: Lori${f.plate ? ` ${f.plate}` : ''} la oda #${f.orderId} liko njiani.${link}`
        : `Mchanga: Truck${f.plate ? ` ${f.plate}` : ''} for order #${f.orderId} is on its way.${link}`;
      break;
    case 'load.delivered':
      text = sw
        ? `Mchanga: Mchanga wa oda #${f.orderId} umefikishwa. Asante!`
        : `Mchanga: Sand for order #${f.orderId} delivered. Thank you!`;
      break;
    default:
      return null;
  }
  return smsText(text);
}

/** Which approved template carries the news outside the 24-hour window. */
export function newsTemplate(event: CustomerNewsEvent): 'orderUpdate' | 'paymentReceived' | 'delivered' {
  if (event === 'payment.received') return 'paymentReceived';
  if (event === 'load.delivered') return 'delivered';
  return 'orderUpdate';
}

/**
 * A template's body parameters: {{1}} the order number, {{2}} the news on one line (Meta refuses a
 * parameter with a new line, a tab or more than four spaces in a row).
 */
export function templateParameters(event: CustomerNewsEvent, f: NewsFacts, lang: NewsLang): string[] {
  const news = (newsSms(event, f, lang) ?? newsText(event, f, lang))
    .replace(/^Mchanga: /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return [`#${f.orderId}`, news];
}
