import { formatMoney } from './format';
import { type PricingInfo, perTruckPrice } from './pricing';

/**
 * What a public article may be written from: the business's public facts only (the live pricing, the
 * yard, dispatch hours and phone). Never orders, people, plates, costs or queues.
 */
export interface PublicFacts {
  pricing: PricingInfo;
  yardName: string;
  hours: string;
  phone: string;
}

export interface Briefing {
  title: string;
  topic: string;
  summary: string;
  body: string;
}

const TRUCK_TONNES = 20;
/** Sand in one cubic metre of 1:2:4 concrete, roughly (0.45 m³ of sand at about 1.55 t/m³). */
const SAND_TONNES_PER_M3 = 0.7;

const article = (title: string, topic: string, paragraphs: string[]): Briefing => ({
  title,
  topic,
  summary: paragraphs[0]!,
  body: paragraphs.join('\n\n'),
});

function sitePreparation(f: PublicFacts): Briefing {
  return article('Getting your site ready for a 20-tonne delivery', 'Site preparation', [
    `A loaded tipper from our ${f.yardName} needs firm ground, room to reverse and clear air above it to tip. Ten minutes of preparation before it arrives saves hours on the day.`,
    'Choose a flat, firm spot of about 4 m by 10 m close to where the sand will be used, away from trenches, soak pits and fresh fill. The tipping body rises high: check for power lines and branches above the spot.',
    'Measure the gate and the last stretch of road: 3.5 m of clear width is comfortable for a tipper. Move parked cars, building materials and livestock out of the way before the truck comes.',
    'Keep someone on site with a phone who can show the driver the gate and the tipping spot. If the approach is steep, narrow or muddy, say so when you order so that dispatch can plan it.',
    'Tip the sand onto a clean base (a tarpaulin or an old slab) so it stays free of soil, and keep smooth sand covered when rain is due.',
  ]);
}

function sandTypes(): Briefing {
  return article('Coarse or smooth sand: which one your job needs', 'Sand types', [
    `We deliver two kinds of sand, ${TRUCK_TONNES} tonnes per truck: coarse sand for the structure and smooth sand for the finish. Ordering the right one keeps your concrete strong and your plaster even.`,
    'Coarse sand has larger, sharp grains. Use it for concrete (foundations, slabs, columns and beams), for the mortar that lays blocks and stones, and as bedding under paving.',
    'Smooth sand has small, even grains. Use it for plaster and render, for skimming, and wherever a smooth face matters.',
    'A quick check on site: squeeze a damp handful. Good building sand falls apart when you open your hand and leaves your palm almost clean; sand that holds its shape and leaves mud behind carries too much silt or clay.',
    'Most builds need both. Order them as separate trucks and tip them in separate piles, so that the finishing sand stays clean until the plaster work starts.',
  ]);
}

function concretePour(): Briefing {
  const perLoadM3 = Math.round(TRUCK_TONNES / SAND_TONNES_PER_M3);
  const examples = [
    { what: 'A ground-floor slab of 10 m by 12 m, 150 mm thick', m3: 10 * 12 * 0.15 },
    { what: 'Two floors of 12 m by 15 m, 150 mm thick', m3: 2 * 12 * 15 * 0.15 },
  ].map(({ what, m3 }) => {
    const tonnes = m3 * SAND_TONNES_PER_M3;
    const loads = Math.ceil((tonnes * 1.1) / TRUCK_TONNES);
    return `${what}: ${Math.round(m3)} m³ of concrete, about ${Math.round(tonnes)} t of coarse sand, so ${loads} ${loads === 1 ? 'load' : 'loads'} with a margin for waste.`;
  });
  return article('Planning a concrete pour: how many 20-tonne loads?', 'Planning a pour', [
    `A 1:2:4 concrete mix takes roughly ${SAND_TONNES_PER_M3} t of coarse sand for every cubic metre of concrete, so one ${TRUCK_TONNES}-tonne load covers about ${perLoadM3} m³. Work out the volume first, then the loads.`,
    'Volume is length × width × thickness, all in metres. Add about a tenth for waste, uneven ground and the mortar that follows.',
    ...examples,
    'Order all the loads of one pour together, a day or two ahead, so they arrive on one schedule and the pour never waits on sand. Plaster later needs smooth sand, ordered separately.',
  ]);
}

function season(date: string): Briefing {
  const month = Number(date.slice(5, 7));
  const longRains = month >= 3 && month <= 5;
  const shortRains = month >= 10;
  if (longRains || shortRains) {
    const rains = longRains ? 'long rains (March to May)' : 'short rains (October to December)';
    return article('Rainy season deliveries: keeping your access road passable', 'Season and access', [
      `The ${rains} turn murram roads around Kiambu and the edges of Nairobi soft. A loaded truck that sinks at your gate loses a day for you and for us.`,
      'Firm the last stretch and the tipping spot with hardcore or ballast before you order, and open drainage so water does not stand where the truck turns.',
      'Book deliveries for the morning: roads are firmest before the afternoon storms. If a road is not passable, dispatch calls you and agrees a new time instead of risking the load.',
      'Cover smooth sand with a tarpaulin so rain does not wash the fines away, and keep coarse sand off low ground where water collects.',
    ]);
  }
  const next = month <= 2 ? 'long rains in March' : 'short rains in October';
  return article('Dry-season building: order before the rains', 'Season and access', [
    `The dry months are the busiest building season around Kiambu and Nairobi. Plan your sand now, before the ${next} soften the access roads.`,
    'Book trucks a few days ahead of a pour, especially at the end of the month when many sites pour at once.',
    'Dry murram roads are firm but dusty: mark your gate clearly and keep the approach clear of loose materials.',
    'Damp the pile lightly on hot, windy days so the fines stay in the sand, and keep smooth sand covered.',
  ]);
}

function priceGuide(f: PublicFacts): Briefing {
  const p = f.pricing;
  const near = Math.max(1, Math.round(p.baseDistanceKm * 0.8));
  const justBeyond = p.baseDistanceKm + Math.ceil(p.incrementKm * 0.6);
  const far = p.baseDistanceKm + 3 * p.incrementKm + 2;
  const line = (km: number) => `A site ${km} km away: ${formatMoney(perTruckPrice(p, km))} per truck`;
  const farPrice = perTruckPrice(p, far);
  return article('Sand delivery price guide', 'Price guide', [
    `Our delivered price is per ${TRUCK_TONNES}-tonne truck, measured by road from our ${f.yardName}: ${formatMoney(p.basePrice)} per truck up to ${p.baseDistanceKm} km, plus ${formatMoney(p.incrementAmount)} for every started ${p.incrementKm} km beyond that.`,
    `${line(near)}, the base price.`,
    `${line(justBeyond)}: ${justBeyond - p.baseDistanceKm} km beyond the base distance starts one increment.`,
    `${line(far)}: ${far - p.baseDistanceKm} km beyond starts ${Math.ceil((far - p.baseDistanceKm) / p.incrementKm)} increments. Three trucks to that site come to ${formatMoney(3 * farPrice)}.`,
    'Coarse and smooth sand cost the same. The quote form on this page gives the exact price for your site before you order.',
  ]);
}

function orderingAndPaying(f: PublicFacts): Briefing {
  return article('How to order sand and pay', 'Ordering and payment', [
    `Ordering takes a minute: enter your site on the quote form, choose coarse or smooth sand and the number of ${TRUCK_TONNES}-tonne trucks (1 to 20), and you see the price per truck and the total at once.`,
    'Order as a guest, or open an account to follow your orders and their loads under My Orders.',
    'Pay by M-Pesa paybill or by bank (ABSA, Equity, KCB, NCBA or Cooperative): the order summary shows the paybill numbers and the account to quote. Then share your payment reference in the order portal; once dispatch confirms the payment, your trucks are scheduled.',
    `Questions before you order? Call or WhatsApp dispatch on ${f.phone}.`,
  ]);
}

function dispatchHours(f: PublicFacts): Briefing {
  return article('Dispatch hours and overnight pours', 'Dispatch hours', [
    `Dispatch works ${f.hours}. Trucks leave our ${f.yardName} from the start of the day, so the earlier your payment is confirmed, the earlier your loads can be scheduled.`,
    `A pour that must not stop (a slab, a raft, a run of columns) can go on through the night: call ${f.phone} a day ahead so that trucks, drivers and the yard loader are planned for it.`,
    'On delivery day keep a phone on at the site, the gate open and the tipping spot clear: a truck that waits at a closed gate delays the next site too.',
  ]);
}

/** The public rotation: one topic a day, useful to someone buying sand for a site. */
export const PUBLIC_TOPICS = [
  (f: PublicFacts) => sitePreparation(f),
  () => sandTypes(),
  () => concretePour(),
  (_f: PublicFacts, date: string) => season(date),
  (f: PublicFacts) => priceGuide(f),
  (f: PublicFacts) => orderingAndPaying(f),
  (f: PublicFacts) => dispatchHours(f),
] as const;

/** The day's public article (a Nairobi date picks the topic), rule-written from public facts only. */
export function publicArticle(date: string, facts: PublicFacts): Briefing {
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  const write = PUBLIC_TOPICS[((day % PUBLIC_TOPICS.length) + PUBLIC_TOPICS.length) % PUBLIC_TOPICS.length]!;
  return write(facts, date);
}

const NUMBER = /\d+(?:[.,:]\d+)*/g;
// A Kenyan plate ("KCC 789C"); "KES 100" and "KSh 100" are amounts, not plates.
const PLATE = /\bK(?!ES\b|SH\b)[A-Z]{2}\s?\d{3}\s?[A-Z]?\b/;
const CAPITALISED = /\b[A-Z][A-Za-z'’-]*/g;
/** Words that may open a reworded sentence without being in the rule text. */
const STARTERS = new Set(
  'A An And As At Also Before But By Do Each Every For From Here How If In It Its Keep Make Most Many No Not Now Of On Once Or Our Please Plan So Some That The Then There These This Those To Use We What When Where While With You Your'.split(
    ' ',
  ),
);

const numbersIn = (text: string) => new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/,/g, '')));
const word = (w: string) => w.toLowerCase().replace(/['’]s$/, '');
const wordsIn = (text: string) => new Set((text.match(/[A-Za-z'’-]+/g) ?? []).map(word));

/**
 * The guard on an LLM's rewording of a public article: it may use no number, plate, name, address or
 * markup that the rule-written text and the public facts do not already hold. Refused → the rule text.
 */
export function publicRewordingGuard(ruleText: string, facts: PublicFacts): (reworded: string) => boolean {
  const source = [ruleText, facts.yardName, facts.hours, facts.phone].join('\n');
  const numbers = numbersIn(source);
  const words = wordsIn(source);
  // "Prices" for "price": a word of the text in another number is not a new name.
  const known = (w: string) => words.has(w) || words.has(w.replace(/s$/, '')) || words.has(`${w}s`);
  return (text) => {
    if (/<[a-z!/]/i.test(text) || /https?:|www\.|@/i.test(text) || PLATE.test(text)) return false;
    for (const n of numbersIn(text)) if (!numbers.has(n)) return false;
    for (const w of text.match(CAPITALISED) ?? []) if (!STARTERS.has(w) && !known(word(w))) return false;
    return true;
  };
}
