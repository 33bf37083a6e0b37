/** How a briefing card reads (spec section 2, Briefings). */
export const DEFAULT_TOPIC = 'Operations insight';
export const SUMMARY_WORDS = 40;
export const NO_SUMMARY = 'Fresh perspective for your crews today.';

export function articleSummary(summary: string | null | undefined, body: string | null | undefined): string {
  if (summary?.trim()) return summary.trim();
  const words = (body ?? '')
    .replace(/[#*_`>[\]()-]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return NO_SUMMARY;
  return words.length > SUMMARY_WORDS ? `${words.slice(0, SUMMARY_WORDS).join(' ')}…` : words.join(' ');
}

export function articleTopic(topic: string | null | undefined): string {
  return topic?.trim() || DEFAULT_TOPIC;
}

/** Images only from this site or https hosts on the allow-list; anything else is dropped. */
export function safeImageUrl(
  url: string | null | undefined,
  allowedHosts: readonly string[] = [],
): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && allowedHosts.includes(u.host) ? u.toString() : null;
  } catch {
    return null;
  }
}
