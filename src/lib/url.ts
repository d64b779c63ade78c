// Links that come from the catalog (a unit's benefit link) and end up in an href or a redirect.

/** Only http(s) links are followed or shown as links: never javascript: or data: from the catalog. */
export function safeExternalUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}
